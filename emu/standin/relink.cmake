# emu/standin/relink.cmake (included by CMakeLists.txt after the base
# build): the stand-in linked again as other builds of the engine, for the
# locator's tests (ff8diff identify --locate). Target `standin_relinked`
# (ALL) builds, in this binary dir:
#   standin_relinked.exe   the objects of standin.exe laid out by
#                          standin_relinked.ld (mkrelink.cmake, seed "fr"):
#                          every routine and table moved, by a different
#                          amount each, in another order, other padding, the
#                          Field_Alloc cursor inside a NOLOAD .bss
#   standin_relinked.sym   its symbols (mksym.cmake): where things really are
#   standin_nobbm.exe      the same kind of build (seed "de") in which
#                          BuildBoneMatrices is removed: a routine of that
#                          name that does nothing (no_bone_matrices.c)
#   standin_nobbm.sym
#   standin_calls_relinked.exe  standin_calls.exe's objects (another call
#                          structure) laid out the same way (seed "es")
#   standin_calls_relinked.sym
# Variables for the rest of the build (parent scope and internal cache):
# FF_STANDIN_RELINKED, FF_STANDIN_RELINKED_SYM, FF_STANDIN_NOBBM,
# FF_STANDIN_CALLS_RELINKED, FF_STANDIN_CALLS_RELINKED_SYM.

set(_rl_nobbm_src "${_sa_src}/no_bone_matrices.c")
set(_rl_nobbm_obj "${_sa_out}/obj-relink/no_bone_matrices.o")
file(MAKE_DIRECTORY "${_sa_out}/obj-relink")
add_custom_command(OUTPUT "${_rl_nobbm_obj}"
  COMMAND "${FF_MINGW_CC}" ${_sa_cflags} -c "${_rl_nobbm_src}" -o "${_rl_nobbm_obj}"
  DEPENDS "${_rl_nobbm_src}"
  COMMENT "standin (relink): no_bone_matrices.c"
  VERBATIM)

# Links the base objects (build_bone_matrices.o replaced by `swap` when
# given, and the objects of the sources mentioning `macro` by those of the
# variant `variant` when given) with a script generated for `seed`; writes
# <name>.exe and <name>.sym.
function(_rl_link name seed swap)
  set(variant "${ARGV3}")
  set(own "")
  if(ARGV4)
    _sa_sources_using(${ARGV4} own)
  endif()
  set(script "${_sa_out}/${name}.ld")
  add_custom_command(OUTPUT "${script}"
    COMMAND "${CMAKE_COMMAND}" "-DSCRIPT=${_sa_script}" "-DOUT=${script}" "-DSEED=${seed}"
            -DCODE_BASE=0x6E3000 -DDATA_BASE=0xA41000 -DBSS_SIZE=0x1214000
            -P "${_sa_src}/mkrelink.cmake"
    DEPENDS "${_sa_script}" "${_sa_src}/mkrelink.cmake"
    COMMENT "standin: linker script of ${name}"
    VERBATIM)
  set(objs "")
  foreach(src IN LISTS _sa_sources)
    get_filename_component(stem "${src}" NAME_WE)
    if(swap AND stem STREQUAL "build_bone_matrices")
      list(APPEND objs "${swap}")
    elseif(src IN_LIST own)
      list(APPEND objs "${_sa_out}/obj-${variant}/${stem}.o")
    else()
      list(APPEND objs "${_sa_out}/obj-base/${stem}.o")
    endif()
  endforeach()
  # The generated data of the base build (its sine table) moves with the rest.
  list(APPEND objs "${_sa_out}/obj-base/sine_table.o")
  set(exe "${_sa_out}/${name}.exe")
  string(REPLACE "-Wl,-T,${_sa_script}" "-Wl,-T,${script}" ldflags "${_sa_ldflags}")
  add_custom_command(OUTPUT "${exe}"
    COMMAND "${FF_MINGW_CC}" ${ldflags} -o "${exe}" ${objs} -lkernel32
    DEPENDS ${objs} "${script}"
    COMMENT "standin: linking ${name}"
    VERBATIM)
  add_custom_command(OUTPUT "${_sa_out}/${name}.sym"
    COMMAND "${CMAKE_COMMAND}" "-DNM=${FF_MINGW_NM}" "-DEXE=${exe}"
            "-DOUT=${_sa_out}/${name}.sym" -P "${_sa_src}/mksym.cmake"
    DEPENDS "${exe}" "${_sa_src}/mksym.cmake"
    COMMENT "standin: symbols of ${name}"
    VERBATIM)
endfunction()

_rl_link(standin_relinked "fr" "")
_rl_link(standin_nobbm "de" "${_rl_nobbm_obj}")
_rl_link(standin_calls_relinked "es" "" calls FF_VARIANT_CALLS)
add_custom_target(standin_relinked ALL DEPENDS
  "${_sa_out}/standin_relinked.exe" "${_sa_out}/standin_relinked.sym"
  "${_sa_out}/standin_nobbm.exe" "${_sa_out}/standin_nobbm.sym"
  "${_sa_out}/standin_calls_relinked.exe" "${_sa_out}/standin_calls_relinked.sym")
# Its links read the base and calls objects those targets make (CMakeLists.txt says why).
add_dependencies(standin_relinked standin standin_variants)

foreach(pair
    "FF_STANDIN_RELINKED;${_sa_out}/standin_relinked.exe"
    "FF_STANDIN_RELINKED_SYM;${_sa_out}/standin_relinked.sym"
    "FF_STANDIN_NOBBM;${_sa_out}/standin_nobbm.exe"
    "FF_STANDIN_CALLS_RELINKED;${_sa_out}/standin_calls_relinked.exe"
    "FF_STANDIN_CALLS_RELINKED_SYM;${_sa_out}/standin_calls_relinked.sym")
  list(GET pair 0 name)
  list(GET pair 1 value)
  set(${name} "${value}" PARENT_SCOPE)
  set(${name} "${value}" CACHE INTERNAL "relinked stand-in")
endforeach()
