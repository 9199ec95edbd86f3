# cmake -DSCDOC=... -DGZIP=... -DEPOCH=... -DIN=page.1.scd -DOUT=page.1 -P scdoc.cmake
# Renders one scdoc page to roff (OUT) and, when gzip exists, OUT.gz
# compressed the Debian way (-9n: no name, no time stamp).
if(NOT "${EPOCH}" STREQUAL "")
  set(ENV{SOURCE_DATE_EPOCH} "${EPOCH}")
endif()
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
execute_process(COMMAND ${SCDOC} INPUT_FILE ${IN} OUTPUT_FILE ${OUT}.tmp
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${IN}: scdoc failed: ${err}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
if(GZIP)
  execute_process(COMMAND ${GZIP} -9nc ${OUT} OUTPUT_FILE ${OUT}.gz
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OUT}: gzip failed")
  endif()
else()
  file(TOUCH ${OUT}.gz)
endif()
