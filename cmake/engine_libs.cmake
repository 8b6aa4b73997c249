# The emulation libraries as the targets ff8unicorn (cmake/unicorn.cmake: which
# Unicorn) and ff8capstone, each from its static archive when
# FF_STATIC_ENGINE_LIBS is ON (CMakeLists.txt says why) and the archive is
# installed beside the shared object, else the shared object.

# ff_static_archive(OUT NAME DIR...): the path of lib<NAME>.a in the first DIR
# holding it, or "" (none, or FF_STATIC_ENGINE_LIBS OFF).
function(ff_static_archive out name)
  set(_found "")
  if(FF_STATIC_ENGINE_LIBS)
    foreach(dir ${ARGN})
      if(EXISTS "${dir}/lib${name}.a")
        set(_found "${dir}/lib${name}.a")
        break()
      endif()
    endforeach()
  endif()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

include(cmake/unicorn.cmake)

pkg_check_modules(CAPSTONE REQUIRED IMPORTED_TARGET capstone)
add_library(ff8capstone INTERFACE)
ff_static_archive(FF_CAPSTONE_ARCHIVE capstone ${CAPSTONE_LIBRARY_DIRS}
                  /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE})
if(FF_CAPSTONE_ARCHIVE)
  target_include_directories(ff8capstone INTERFACE ${CAPSTONE_INCLUDE_DIRS})
  target_link_libraries(ff8capstone INTERFACE "${FF_CAPSTONE_ARCHIVE}")
else()
  target_link_libraries(ff8capstone INTERFACE PkgConfig::CAPSTONE)
endif()
