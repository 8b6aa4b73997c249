#!/usr/bin/env bash
# The same commit against several Unicorn libraries, side by side: bench_emu,
# bench_pose and bench_harness figures, one column per library.
#
#   bench/unicorn_columns.sh [--preset vanilla|small] [--pose-on all|default|none]
#                            [--repeat N] [LIBDIR ...]
#
# Columns: "default" (the project-local Unicorn, .deps/unicorn, as
# scripts/setup.sh fetches it: a build with FF_SYSTEM_UNICORN=OFF), "system"
# (a build with FF_SYSTEM_UNICORN=ON: Debian 12's 2.0.1), then each LIBDIR
# given: a folder holding another libunicorn.so.2, run with the default
# build's binaries and LD_LIBRARY_PATH=LIBDIR (found before the RUNPATH).
# bench_harness runs the frame level (4 modes, no leaf level) with the
# stand-in, and with --pose-on the frame and pose levels with the x87
# stand-in (the default: on the default library only, since 2.0.1 takes
# about 20 minutes there). --repeat N: bench_harness's rounds (medians, see
# bench/harness/bench_harness.c; default 1). Builds go to build-bench-default and
# build-bench-system (RelWithDebInfo, no tests). Prints a Markdown table;
# the raw outputs stay in the folder it names. Needs nothing but the build.
set -euo pipefail
cd "$(dirname "$0")/.."

preset=vanilla
pose_on=default
repeat=1
libs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --preset) preset=$2; shift 2 ;;
    --pose-on) pose_on=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    -*) echo "unicorn_columns: unknown option $1" >&2; exit 2 ;;
    *) [ -f "$1/libunicorn.so.2" ] || { echo "unicorn_columns: no libunicorn.so.2 in $1" >&2; exit 2; }
       libs+=("$(cd "$1" && pwd)"); shift ;;
  esac
done

targets=(bench_emu bench_pose bench_harness ff8diff standin_variants)
build() { # dir, system(ON|OFF)
  cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFF_TESTS=OFF \
        -DFF_SYSTEM_UNICORN="$2" >/dev/null
  cmake --build "$1" -j"$(nproc)" --target "${targets[@]}" >/dev/null
}
build build-bench-default OFF
build build-bench-system ON

out=$(mktemp -d /tmp/ff8diff-unicorn-columns-XXXXXX)
corpus="$out/corpus"
build-bench-default/harness/ff8diff corpus synth --out "$corpus" --preset "$preset" --seed 1 >/dev/null

names=(default system)
dirs=(build-bench-default build-bench-system)
envs=("" "")
for l in "${libs[@]}"; do
  names+=("$(basename "$l")")
  dirs+=(build-bench-default)
  envs+=("$l")
done

run() { # index, name of the output, command...
  local i=$1 name=$2
  shift 2
  if [ -n "${envs[$i]}" ]; then
    LD_LIBRARY_PATH="${envs[$i]}" "$@" >"$out/${names[$i]}.$name" 2>&1
  else
    "$@" >"$out/${names[$i]}.$name" 2>&1
  fi
}

for i in "${!names[@]}"; do
  d=${dirs[$i]}
  echo "unicorn_columns: ${names[$i]} ..." >&2
  run "$i" version "$d/harness/ff8diff" --version
  run "$i" emu "$d/bench/emu/bench_emu"
  run "$i" pose "$d/bench/emu/bench_pose"
  run "$i" harness "$d/bench/harness/bench_harness" --corpus "$corpus" --no-leaf --repeat "$repeat"
  if [ "$pose_on" = all ] || { [ "$pose_on" = default ] && [ "$i" -eq 0 ]; }; then
    run "$i" harness_pose "$d/bench/harness/bench_harness" --corpus "$corpus" --no-leaf --pose \
        --repeat "$repeat" --standin "$d/emu/standin/standin_x87.exe"
  fi
done

# One figure of one output: file suffix, a line's pattern, the field after a
# word (awk: the number before "unit" or at column n).
fig() { # name, suffix, grep pattern, awk program
  local f="$out/$1.$2"
  [ -f "$f" ] || { echo "-"; return; }
  grep -m1 -E "$3" "$f" | awk "$4" || echo "-"
}
row() { # label, suffix, pattern, awk program
  local line="| $1 |"
  for n in "${names[@]}"; do line+=" $(fig "$n" "$2" "$3" "$4") |"; done
  echo "$line"
}
after() { echo "{for (i = 1; i < NF; i++) if (\$(i+1) == \"$1\") { print \$i; exit }}"; }
col() { echo "{print \$$1}"; }

head="| measured, same commit |"
sep="|---|"
for n in "${names[@]}"; do head+=" $n |"; sep+="---|"; done
echo
echo "$head"
echo "$sep"
row "Unicorn (store path)" version "^Unicorn" '{print $2, $3}'
row "bench_emu: 100-store loop, us" emu "100-store loop, no write hook" "$(after us/call)"
row "bench_emu: Battle_ReadAnimation tick, CPU us" emu "BuildBoneMatrices=ret: " \
    '{for (i = 1; i <= NF; i++) if ($i == "(CPU") { sub(/\)/, "", $(i+1)); print $(i+1); exit }}'
row "bench_pose: x87 BuildBoneMatrices, us" pose "standin_x87.exe +BuildBoneMatrices, unscaled, original" "$(after us/call)"
row "bench_harness frame: run --jobs 1, wall s" harness "^run --jobs 1 " "$(col 4)"
row "bench_harness frame: run --jobs 1, CPU s" harness "^run --jobs 1 " "$(col 5)"
row "bench_harness frame: run --jobs 2, wall s" harness "^run --jobs 2 " "$(col 4)"
row "bench_harness frame: emulated calls alone, CPU s" harness "^emulated calls alone" "$(col 5)"
row "bench_harness frame: overhead (jobs 1 / alone)" harness "^overhead" '{print $9, $10, $11, $12}'
row "bench_harness frame: speed-up with 2 jobs" harness "^speed-up" '{print $5}'
row "bench_harness frame+pose x87: run --jobs 2, wall s" harness_pose "^run --jobs 2 " "$(col 4)"
row "bench_harness frame+pose x87: overhead (jobs 1 / alone)" harness_pose "^overhead" '{print $9, $10, $11, $12}'
echo
echo "raw outputs: $out"
