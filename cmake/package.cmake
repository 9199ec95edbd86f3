# The Debian package (issue 17): `cpack -G DEB` in the build folder makes
# poolbench_VERSION-REV_ARCH.deb from the same install rules as `cmake
# --install` (cmake/install.cmake). Why CPack and not a debian/ folder,
# how to build it with Debian's hardening flags, and every lintian tag
# left: docs/packaging.md.

# The Debian revision comes from the changelog's first line,
# "poolbench (0.1.0-1) unstable; ...", whose upstream part must be the
# project's version.
set(PB_DEB_CHANGELOG ${CMAKE_CURRENT_SOURCE_DIR}/cmake/deb/changelog)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PB_DEB_CHANGELOG})
file(STRINGS ${PB_DEB_CHANGELOG} pb_deb_head LIMIT_COUNT 1)
if(NOT pb_deb_head MATCHES "^poolbench \\(([^-)]+)-([^)]+)\\) ")
  message(FATAL_ERROR "${PB_DEB_CHANGELOG}:1: expected 'poolbench (VERSION-REVISION) ...'")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "${PB_DEB_CHANGELOG}:1: version ${CMAKE_MATCH_1} is not "
          "the project's ${PROJECT_VERSION}: add a changelog entry")
endif()
set(PB_DEB_REVISION ${CMAKE_MATCH_2})

# /usr/share/doc/poolbench/changelog.Debian.gz, in the package only
# (component "deb", left out of a plain `cmake --install`).
find_program(PB_GZIP gzip)
if(PB_GZIP)
  set(pb_deb_gz ${CMAKE_CURRENT_BINARY_DIR}/deb/changelog.Debian.gz)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/deb)
  execute_process(COMMAND ${PB_GZIP} -9nc ${PB_DEB_CHANGELOG}
                  OUTPUT_FILE ${pb_deb_gz})
  install(FILES ${pb_deb_gz} DESTINATION ${CMAKE_INSTALL_DOCDIR}
          COMPONENT deb EXCLUDE_FROM_ALL)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME poolbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT
    "poolbench maintainers <maintainers@users.noreply.a-seed-5f78e806.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "benchmark results of ZFS tuning in one database and one report")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Stripped like dh_strip does (cmake/deb/strip.cmake), not CPACK_STRIP_FILES,
# which leaves the .comment section lintian names.
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_SOURCE_DIR}/cmake/deb/strip.cmake)
# The full install (ALL) plus the package-only files (deb).
set(CPACK_INSTALL_CMAKE_PROJECTS
    "${CMAKE_CURRENT_BINARY_DIR};poolbench;ALL;/"
    "${CMAKE_CURRENT_BINARY_DIR};poolbench;deb;/")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${PB_DEB_REVISION})
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fio, zfs-fuse | zfsutils-linux, bonnie++")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "chromium, sqlite3")
# The extended description; CPack puts the summary above it and indents
# it as deb-control(5) wants (an empty line becomes " .").
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"poolbench reads the benchmark output storage people already have (fio
JSON, text and terse output, bonnie++ CSV, iozone logs, Phoronix Test
Suite result XML, zfs and zpool outputs, summary tables) into one SQLite
database in canonical units, and writes a static HTML and SVG report
that answers which recordsize, volblocksize, compression, ashift or pool
layout is best for a workload, and by how much.

Its run command creates ZFS pools on sparse files and runs a plan of fio
workloads on them, storing every cell's results with the pool's state.")
include(CPack)
