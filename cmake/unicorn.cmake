# Which Unicorn ff8diff builds against, as the target ff8unicorn.
#
# By default the project-local prefix that scripts/setup.sh fills
# (.deps/unicorn: Debian 13's 2.1.1, whose emulated stores take the fast
# path), linked by its full path with a RUNPATH to it in the build tree, and
# installed beside ff8diff (lib/ff8diff) with a RUNPATH of
# $ORIGIN/../lib/ff8diff so that the installed tree runs anywhere.
# FF_SYSTEM_UNICORN=ON, or no local prefix, builds against the system's
# Unicorn (pkg-config), whatever its version; a version whose stores are slow
# (2.0.x, 2.1.2-2.1.4) gets a warning here and at run time.
#
# Sets FF_UNICORN_VERSION, FF_UNICORN_ORIGIN ("local" or "system") and, for a
# local Unicorn, FF_UNICORN_LIBRARY (the file to install).
option(FF_SYSTEM_UNICORN "Build against the system's Unicorn, whatever its version" OFF)
set(FF_UNICORN_PREFIX "${PROJECT_SOURCE_DIR}/.deps/unicorn" CACHE PATH
    "Project-local Unicorn prefix (filled by scripts/setup.sh)")

function(ff_unicorn_header_version include_dir out)
  file(STRINGS "${include_dir}/unicorn/unicorn.h" _lines
       REGEX "^#define UC_API_(MAJOR|MINOR|PATCH) ")
  set(_v "")
  foreach(part MAJOR MINOR PATCH)
    string(REGEX MATCH "UC_API_${part} +([0-9]+)" _m "${_lines}")
    list(APPEND _v "${CMAKE_MATCH_1}")
  endforeach()
  string(REPLACE ";" "." _v "${_v}")
  set(${out} "${_v}" PARENT_SCOPE)
endfunction()

add_library(ff8unicorn INTERFACE)
set(FF_UNICORN_LIBRARY "")
file(GLOB _ff_local_uc "${FF_UNICORN_PREFIX}/usr/lib/*/libunicorn.so.2")
if(NOT FF_SYSTEM_UNICORN AND _ff_local_uc)
  list(GET _ff_local_uc 0 FF_UNICORN_LIBRARY)
  set(_inc "${FF_UNICORN_PREFIX}/usr/include")
  add_library(ff_unicorn_local SHARED IMPORTED GLOBAL)
  set_target_properties(ff_unicorn_local PROPERTIES
    IMPORTED_LOCATION "${FF_UNICORN_LIBRARY}"
    IMPORTED_SONAME "libunicorn.so.2"
    INTERFACE_INCLUDE_DIRECTORIES "${_inc}")
  target_link_libraries(ff8unicorn INTERFACE ff_unicorn_local)
  ff_unicorn_header_version("${_inc}" FF_UNICORN_VERSION)
  set(FF_UNICORN_ORIGIN local)
else()
  pkg_check_modules(UNICORN REQUIRED IMPORTED_TARGET unicorn)
  target_link_libraries(ff8unicorn INTERFACE PkgConfig::UNICORN)
  set(FF_UNICORN_VERSION "${UNICORN_VERSION}")
  set(FF_UNICORN_ORIGIN system)
  if(NOT FF_SYSTEM_UNICORN)
    message(WARNING "ff8diff: no project-local Unicorn in ${FF_UNICORN_PREFIX} "
                    "(scripts/setup.sh fetches it); building against the system's "
                    "Unicorn ${FF_UNICORN_VERSION}.")
  endif()
endif()
if(FF_UNICORN_VERSION VERSION_LESS 2.1.0 OR
   (FF_UNICORN_VERSION VERSION_GREATER_EQUAL 2.1.2 AND FF_UNICORN_VERSION VERSION_LESS 2.1.5))
  message(WARNING "ff8diff: Unicorn ${FF_UNICORN_VERSION} takes a slow path on every emulated "
                  "store (about 10x slower runs); scripts/setup.sh fetches 2.1.1 into "
                  "${FF_UNICORN_PREFIX}.")
endif()
message(STATUS "ff8diff: Unicorn ${FF_UNICORN_VERSION} (${FF_UNICORN_ORIGIN})")
