#!/usr/bin/env bash
# The same commit on every engine, side by side in one run: bench_harness on
# Unicorn (the project-local 2.1.1, "unicorn"), on Debian 12's Unicorn 2.0.1
# (a build with FF_SYSTEM_UNICORN=ON, "2.0.1"; the frame level only: its pose
# level takes about 20 minutes) and on the native engine (the original's
# 32-bit code on this CPU), one column each, and the ratio unicorn / native.
#
#   bench/engine_columns.sh [--preset vanilla|small] [--repeat N]
#
# Two workloads: the frame level (4 modes, no leaf level) with the stand-in,
# and the frame and pose levels with the x87 stand-in. Each is bench_harness's
# three phases (bench/harness/bench_harness.c): run --jobs 1, the emulated
# calls alone, run --jobs 2 (natively, the second worker's engine in an
# engine process of its own, harness/run/remote.h). CPU seconds are the
# phase's process and its children (engine processes included). --repeat N:
# bench_harness's rounds (medians; default 1). Builds build-bench-default
# (RelWithDebInfo, no tests). Prints a Markdown table; the raw outputs stay
# in the folder it names. Needs nothing but the build and a machine that
# runs native code (ff8diff --version says whether it does).
set -euo pipefail
cd "$(dirname "$0")/.."

preset=vanilla
repeat=1
while [ $# -gt 0 ]; do
  case "$1" in
    --preset) preset=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "engine_columns: unknown option $1" >&2; exit 2 ;;
  esac
done

d=build-bench-default
s=build-bench-system
cmake -S . -B "$d" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFF_TESTS=OFF >/dev/null
cmake --build "$d" -j"$(nproc)" --target bench_harness ff8diff standin >/dev/null
cmake -S . -B "$s" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFF_TESTS=OFF -DFF_SYSTEM_UNICORN=ON >/dev/null
cmake --build "$s" -j"$(nproc)" --target bench_harness >/dev/null
if "$d/harness/ff8diff" --version | grep -q "^engine: native.*cannot run"; then
  echo "engine_columns: $("$d/harness/ff8diff" --version | grep '^engine: native')" >&2
  exit 2
fi

out=$(mktemp -d /tmp/ff8diff-engine-columns-XXXXXX)
corpus="$out/corpus"
"$d/harness/ff8diff" corpus synth --out "$corpus" --preset "$preset" --seed 1 >/dev/null
"$d/harness/ff8diff" --version >"$out/version" 2>&1

echo "engine_columns: 2.0.1 ..." >&2
"$s/bench/harness/bench_harness" --engine unicorn --corpus "$corpus" --no-leaf \
    --repeat "$repeat" >"$out/2.0.1.frame" 2>&1
engines=(unicorn native)
for e in "${engines[@]}"; do
  echo "engine_columns: $e ..." >&2
  "$d/bench/harness/bench_harness" --engine "$e" --corpus "$corpus" --no-leaf \
      --repeat "$repeat" >"$out/$e.frame" 2>&1
  "$d/bench/harness/bench_harness" --engine "$e" --corpus "$corpus" --no-leaf --pose \
      --repeat "$repeat" --standin "$d/emu/standin/standin_x87.exe" >"$out/$e.pose" 2>&1
done

# column n of the first line of output (engine, workload) matching pattern; "-" when none
fig() { [ -f "$out/$1.$2" ] && grep -m1 -E "$3" "$out/$1.$2" | awk "{print \$$4}" || echo -; }
row() { # label, workload, pattern, column
  local u n o
  u=$(fig unicorn "$2" "$3" "$4")
  o=$(fig 2.0.1 "$2" "$3" "$4")
  n=$(fig native "$2" "$3" "$4")
  echo "| $1 | $u | $o | $n | $(awk -v a="$u" -v b="$n" 'BEGIN { if (b > 0) printf "%.2fx", a / b }') |"
}
speed() { [ -f "$out/$1.$2" ] && grep -m1 -E "^speed-up" "$out/$1.$2" | awk '{print $5}' || echo -; }
over() { [ -f "$out/$1.$2" ] && grep -m1 -E "^overhead" "$out/$1.$2" | awk '{print $11}' || echo -; }

echo
echo "| measured, same commit | unicorn 2.1.1 | 2.0.1 | native | unicorn / native |"
echo "|---|---|---|---|---|"
for w in frame pose; do
  label=$([ "$w" = frame ] && echo "frame" || echo "frame+pose x87")
  row "$label: run --jobs 1, CPU s" "$w" "^run --jobs 1 " 5
  row "$label: run --jobs 1, wall s" "$w" "^run --jobs 1 " 4
  row "$label: emulated calls alone, CPU s" "$w" "^emulated calls alone" 5
  row "$label: run --jobs 2, wall s" "$w" "^run --jobs 2 " 4
  echo "| $label: speed-up with 2 jobs | $(speed unicorn "$w") | $(speed 2.0.1 "$w") | $(speed native "$w") | |"
  echo "| $label: overhead (run / calls alone), CPU | $(over unicorn "$w") | $(over 2.0.1 "$w") | $(over native "$w") | |"
done
echo
echo "raw outputs: $out"
