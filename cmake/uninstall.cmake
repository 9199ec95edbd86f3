# cmake -DMANIFEST=BUILD/install_manifest.txt -P uninstall.cmake
# Removes every file the last `cmake --install` of this build wrote (the
# manifest lists them), then the folders of poolbench's own (a path part
# named poolbench) that are left empty. Shared folders such as bin/ or
# share/man/man1/ stay.
if(NOT EXISTS "${MANIFEST}")
  message(FATAL_ERROR "${MANIFEST} not found: nothing was installed from "
                      "this build (or it was removed already)")
endif()
file(STRINGS "${MANIFEST}" files)
set(dirs)
foreach(f ${files})
  if(IS_SYMLINK "${f}" OR EXISTS "${f}")
    message(STATUS "Removing ${f}")
    file(REMOVE "${f}")
    if(IS_SYMLINK "${f}" OR EXISTS "${f}")
      message(FATAL_ERROR "could not remove ${f}")
    endif()
  else()
    message(STATUS "Already gone: ${f}")
  endif()
  get_filename_component(d "${f}" DIRECTORY)
  while(d MATCHES "/poolbench(/|$)")
    list(APPEND dirs "${d}")
    get_filename_component(d "${d}" DIRECTORY)
  endwhile()
endforeach()
list(REMOVE_DUPLICATES dirs)
# Deepest first: a folder is empty only once its subfolders are gone.
list(SORT dirs ORDER DESCENDING)
foreach(d ${dirs})
  if(IS_DIRECTORY "${d}")
    file(GLOB left "${d}/*" "${d}/.*")
    if(NOT left)
      message(STATUS "Removing empty folder ${d}")
      file(REMOVE_RECURSE "${d}")
    endif()
  endif()
endforeach()
