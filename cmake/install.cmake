# Installation (issue 17): `cmake --install BUILD [--prefix DIR]` places the
# binary, the man pages, the shell completions, the docs and the example
# plans under the GNU directories of the prefix; `cmake --build BUILD
# --target uninstall` removes what the last install wrote. See
# docs/packaging.md.
include(GNUInstallDirs)

install(TARGETS poolbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# ---- man pages: docs/man/NAME.SECTION.scd -> BUILD/man/NAME.SECTION ----
find_program(PB_SCDOC scdoc)
find_program(PB_GZIP gzip)
file(GLOB PB_MAN_SOURCES CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_SOURCE_DIR}/docs/man/*.scd)
set(PB_MAN_DIR ${CMAKE_CURRENT_BINARY_DIR}/man)
if(NOT PB_SCDOC)
  message(WARNING "scdoc not found: the man pages are not built and not "
                  "installed (apt-get install scdoc)")
else()
  # The date in the pages' footer: SOURCE_DATE_EPOCH when set, else the
  # last commit's, so that one source gives byte-identical pages.
  set(PB_MAN_EPOCH "$ENV{SOURCE_DATE_EPOCH}")
  if(PB_MAN_EPOCH STREQUAL "")
    find_program(PB_GIT git)
    if(PB_GIT)
      execute_process(COMMAND ${PB_GIT} log -1 --format=%ct
                      WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                      OUTPUT_VARIABLE PB_MAN_EPOCH
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    endif()
  endif()
  set(pb_man_outputs)
  foreach(scd ${PB_MAN_SOURCES})
    get_filename_component(page ${scd} NAME)
    string(REGEX REPLACE "\\.scd$" "" page ${page})
    string(REGEX MATCH "[1-9]$" section ${page})
    add_custom_command(
      OUTPUT ${PB_MAN_DIR}/${page} ${PB_MAN_DIR}/${page}.gz
      COMMAND ${CMAKE_COMMAND} -DSCDOC=${PB_SCDOC} -DGZIP=${PB_GZIP}
              -DEPOCH=${PB_MAN_EPOCH} -DIN=${scd} -DOUT=${PB_MAN_DIR}/${page}
              -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/scdoc.cmake
      DEPENDS ${scd} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/scdoc.cmake
      COMMENT "scdoc ${page}")
    list(APPEND pb_man_outputs ${PB_MAN_DIR}/${page})
    if(PB_GZIP)
      install(FILES ${PB_MAN_DIR}/${page}.gz
              DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
    else()
      install(FILES ${PB_MAN_DIR}/${page}
              DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
    endif()
  endforeach()
  add_custom_target(man ALL DEPENDS ${pb_man_outputs})
endif()

# ---- shell completions (branch cli17 writes them) ----
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/completion/poolbench.bash)
  install(FILES completion/poolbench.bash RENAME poolbench
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
endif()
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/completion/_poolbench)
  install(FILES completion/_poolbench
          DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
endif()

# ---- docs and example plans: DOCDIR keeps the repo's relative links ----
install(FILES README.md cmake/deb/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB PB_DOCS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/docs/*.md)
install(FILES ${PB_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
file(GLOB PB_EXAMPLES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/examples/*)
install(FILES ${PB_EXAMPLES} DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# ---- uninstall: removes every file install_manifest.txt lists ----
add_custom_target(uninstall
  COMMAND ${CMAKE_COMMAND}
          -DMANIFEST=${CMAKE_CURRENT_BINARY_DIR}/install_manifest.txt
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/uninstall.cmake
  COMMENT "Removing the files of the last install")
