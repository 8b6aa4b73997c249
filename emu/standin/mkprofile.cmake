# emu/standin/mkprofile.cmake: writes the stand-in's profile from
# emu/profiles/standin.json.in: the SHA-256 of standin.exe and the first
# 8 bytes of its Field_Alloc as built. Then checks the result against the
# executables and fails the build when the profile would lie: every
# fingerprint must hold in standin.exe and in every variant (mutants and
# the faulty build run under this profile), every routine must sit at its
# address in standin.sym, and every routine's "callees" must be exactly
# the direct calls its code makes, in every variant. A variant whose
# routine calls otherwise on purpose (the x87 variant's helper-composed
# BuildBoneMatrices) names its calls in OWN_CALLS, and those are checked
# instead of the profile's.
#   cmake -DOBJDUMP=<objdump> -DEXE=<standin.exe> -DSYM=<standin.sym>
#         -DTEMPLATE=<standin.json.in> -DOUT=<standin.json> -DVARIANTS=<a.exe;...>
#         [-DOWN_CALLS=<exe name>|<routine>|<callee>,<callee>...;...]
#         -P mkprofile.cmake
cmake_minimum_required(VERSION 3.20)
foreach(var OBJDUMP EXE SYM TEMPLATE OUT)
  if(NOT ${var})
    message(FATAL_ERROR "mkprofile.cmake needs ${var}")
  endif()
endforeach()

# Sets out to the len bytes at address va of exe: "8B 44 24 04".
function(read_bytes exe va len out)
  math(EXPR stop "${va} + ${len}" OUTPUT_FORMAT HEXADECIMAL)
  execute_process(COMMAND "${OBJDUMP}" -s "--start-address=${va}" "--stop-address=${stop}"
                          "${exe}"
                  OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mkprofile.cmake: ${OBJDUMP} failed on ${exe}")
  endif()
  string(REPLACE "\n" ";" lines "${text}")
  set(hex "")
  foreach(line IN LISTS lines)
    # " 5082b0 8b442404 8b15c499   .D$....." : four groups of hex, then text
    if(line MATCHES "^ [0-9a-f]+ (.*)$")
      string(SUBSTRING "${CMAKE_MATCH_1}" 0 35 groups)
      string(REPLACE " " "" groups "${groups}")
      string(APPEND hex "${groups}")
    endif()
  endforeach()
  string(TOUPPER "${hex}" hex)
  string(REGEX REPLACE "([0-9A-F][0-9A-F])" "\\1 " hex "${hex}")
  string(STRIP "${hex}" hex)
  string(LENGTH "${hex}" got)
  math(EXPR want "${len} * 3 - 1")
  if(NOT got EQUAL want)
    message(FATAL_ERROR "mkprofile.cmake: cannot read ${len} bytes at ${va} in ${exe}")
  endif()
  set(${out} "${hex}" PARENT_SCOPE)
endfunction()

list(REMOVE_ITEM VARIANTS "")
file(SHA256 "${EXE}" STANDIN_SHA256)
read_bytes("${EXE}" 0x5082B0 8 STANDIN_FIELD_ALLOC_BYTES)
configure_file("${TEMPLATE}" "${OUT}.tmp" @ONLY)
file(READ "${OUT}.tmp" json)

# Fingerprints hold in every executable the profile is meant for.
string(JSON nfp LENGTH "${json}" fingerprints)
math(EXPR last "${nfp} - 1")
foreach(i RANGE ${last})
  string(JSON addr GET "${json}" fingerprints ${i} address)
  string(JSON bytes GET "${json}" fingerprints ${i} bytes)
  string(TOUPPER "${bytes}" bytes)
  string(REPLACE " " "" compact "${bytes}")
  string(LENGTH "${compact}" n)
  math(EXPR n "${n} / 2")
  foreach(exe IN LISTS EXE VARIANTS)
    read_bytes("${exe}" ${addr} ${n} got)
    if(NOT got STREQUAL bytes)
      message(FATAL_ERROR
        "mkprofile.cmake: fingerprint at ${addr} is '${bytes}' but ${exe} has '${got}'")
    endif()
  endforeach()
endforeach()

# Routines sit where the profile says.
file(STRINGS "${SYM}" symlines)
string(JSON nr LENGTH "${json}" routines)
math(EXPR last "${nr} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" routines ${i} name)
  string(JSON addr GET "${json}" routines ${i} address)
  string(TOUPPER "${addr}" addr)
  string(REPLACE "0X" "0x" addr "${addr}")
  if(NOT "${name} ${addr}" IN_LIST symlines)
    message(FATAL_ERROR "mkprofile.cmake: ${name} is not at ${addr} in ${SYM}")
  endif()
endforeach()

# Direct calls of each routine, from the disassembly: sets
# calls_<routine> to the sorted names (or 0x addresses) it calls.
function(read_calls exe)
  execute_process(COMMAND "${OBJDUMP}" -d --no-show-raw-insn "${exe}"
                  OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mkprofile.cmake: ${OBJDUMP} -d failed on ${exe}")
  endif()
  string(REPLACE ";" "," text "${text}")
  # Only the lines of labels and calls matter: picked out in one regex pass, whole (a
  # loop over every line of the disassembly took most of this script's time).
  string(REGEX MATCHALL "\n[0-9a-f]+ <[^\n]*|\tcall [^\n]*" lines "${text}")
  set(current "")
  set(names "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^\n" "" line "${line}")
    if(line MATCHES "^[0-9a-f]+ <_([A-Za-z0-9_]+)>:$")
      set(current "${CMAKE_MATCH_1}")
      list(APPEND names "${current}")
      set(calls_${current} "")
    elseif(current AND line MATCHES "\tcall +([0-9a-f]+)( <_?([A-Za-z0-9_]+)>)?$")
      if(CMAKE_MATCH_3)
        set(target "${CMAKE_MATCH_3}")
      else()
        math(EXPR target "0x${CMAKE_MATCH_1}" OUTPUT_FORMAT HEXADECIMAL)
      endif()
      list(APPEND calls_${current} "${target}")
    endif()
  endforeach()
  foreach(name IN LISTS names)
    list(REMOVE_DUPLICATES calls_${name})
    list(SORT calls_${name})
    set(calls_${name} "${calls_${name}}" PARENT_SCOPE)
  endforeach()
endfunction()

# The calls OWN_CALLS gives exe's routine: sets found (0/1) and calls.
function(own_calls exe routine found_out calls_out)
  get_filename_component(exe_name "${exe}" NAME)
  set(${found_out} 0 PARENT_SCOPE)
  foreach(entry IN LISTS OWN_CALLS)
    string(REPLACE "|" ";" parts "${entry}")
    list(LENGTH parts n)
    if(NOT n EQUAL 3)
      message(FATAL_ERROR "mkprofile.cmake: OWN_CALLS entry '${entry}' is not exe|routine|calls")
    endif()
    list(GET parts 0 e)
    list(GET parts 1 r)
    list(GET parts 2 c)
    if(e STREQUAL exe_name AND r STREQUAL routine)
      string(REPLACE "," ";" c "${c}")
      set(${found_out} 1 PARENT_SCOPE)
      set(${calls_out} "${c}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

set(own_used 0)
foreach(exe IN LISTS EXE VARIANTS)
  read_calls("${exe}")
  foreach(i RANGE ${last})
    string(JSON name GET "${json}" routines ${i} name)
    string(JSON ncallees LENGTH "${json}" routines ${i} callees)
    set(want "")
    if(ncallees GREATER 0)
      math(EXPR lastc "${ncallees} - 1")
      foreach(k RANGE ${lastc})
        string(JSON callee GET "${json}" routines ${i} callees ${k})
        list(APPEND want "${callee}")
      endforeach()
    endif()
    own_calls("${exe}" "${name}" own own_want)
    if(own)
      set(want "${own_want}")
      math(EXPR own_used "${own_used} + 1")
    endif()
    list(SORT want)
    if(NOT "${want}" STREQUAL "${calls_${name}}")
      message(FATAL_ERROR "mkprofile.cmake: ${name} in ${exe} calls [${calls_${name}}], "
                          "the profile says [${want}]")
    endif()
  endforeach()
endforeach()

# Every OWN_CALLS entry named a variant's routine that was checked.
list(LENGTH OWN_CALLS nown)
if(NOT own_used EQUAL nown)
  message(FATAL_ERROR "mkprofile.cmake: ${nown} OWN_CALLS entries, ${own_used} matched a variant's routine")
endif()

file(RENAME "${OUT}.tmp" "${OUT}")
