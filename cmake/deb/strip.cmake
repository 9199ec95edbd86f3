# CPACK_PRE_BUILD_SCRIPTS: strips the staged binary as Debian's dh_strip
# does (symbols not needed for relocation, and the .comment and .note
# sections that only name the compiler), before CPack packs it.
find_program(PB_STRIP NAMES strip)
if(NOT PB_STRIP)
  message(FATAL_ERROR "strip not found (binutils)")
endif()
file(GLOB_RECURSE pb_bins "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/bin/*")
foreach(bin ${pb_bins})
  execute_process(COMMAND ${PB_STRIP} --remove-section=.comment
                          --remove-section=.note --strip-unneeded ${bin}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "strip ${bin} failed")
  endif()
endforeach()
