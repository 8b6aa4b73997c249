#!/usr/bin/env bash
# The same commit on every engine, side by side: bench_harness on Unicorn
# (the project-local 2.1.1, "unicorn"), on Debian 12's Unicorn 2.0.1 (a
# build with FF_SYSTEM_UNICORN=ON, "2.0.1"; the frame level only: its pose
# level takes about 20 minutes) and on the native engine (the original's
# 32-bit code on this CPU), one column each, and the ratio unicorn / native.
#
#   bench/engine_columns.sh [--preset vanilla|small] [--repeat N] [--no-system]
#
# Two workloads: the frame level (4 modes, no leaf level) with the stand-in,
# and the frame and pose levels with the x87 stand-in. Each is bench_harness's
# four phases (bench/harness/bench_harness.c): run --jobs 1, the emulated
# calls alone, run --jobs 2 (natively, the second worker's engine in an
# engine process of its own, harness/run/remote.h), and two --jobs 1 runs
# at once (the machine's 2-core ceiling, what the speed-up is measured
# against). --repeat N: N rounds,
# taken in turn (round 1 on every engine, then round 2, ...), so that a
# machine whose speed drifts moves every column alike; each cell is the
# median over the rounds, each ratio the median of the rounds' own ratios.
# --no-system: leave the 2.0.1 column out. Builds build-bench-default
# (RelWithDebInfo, no tests) and, for 2.0.1, build-bench-system. Prints a
# Markdown table; the raw outputs stay in the folder it names. Needs nothing
# but the build and a machine that runs native code (ff8diff --version says
# whether it does).
set -euo pipefail
cd "$(dirname "$0")/.."

preset=vanilla
rounds=1
system=1
while [ $# -gt 0 ]; do
  case "$1" in
    --preset) preset=$2; shift 2 ;;
    --repeat) rounds=$2; shift 2 ;;
    --no-system) system=0; shift ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "engine_columns: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$rounds" in ''|*[!0-9]*|0) echo "engine_columns: --repeat needs a count >= 1" >&2; exit 2 ;; esac

d=build-bench-default
s=build-bench-system
cmake -S . -B "$d" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFF_TESTS=OFF >/dev/null
cmake --build "$d" -j"$(nproc)" --target bench_harness ff8diff standin standin_variants >/dev/null
if [ "$system" = 1 ]; then
  cmake -S . -B "$s" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFF_TESTS=OFF -DFF_SYSTEM_UNICORN=ON >/dev/null
  cmake --build "$s" -j"$(nproc)" --target bench_harness >/dev/null
fi
if "$d/harness/ff8diff" --version | grep -q "^engine: native.*cannot run"; then
  echo "engine_columns: $("$d/harness/ff8diff" --version | grep '^engine: native')" >&2
  exit 2
fi

out=$(mktemp -d /tmp/ff8diff-engine-columns-XXXXXX)
corpus="$out/corpus"
"$d/harness/ff8diff" corpus synth --out "$corpus" --preset "$preset" --seed 1 >/dev/null
"$d/harness/ff8diff" --version >"$out/version" 2>&1

# Rounds in turn: every engine's workloads in round 1, then round 2, ...
for r in $(seq "$rounds"); do
  if [ "$system" = 1 ]; then
    echo "engine_columns: round $r: 2.0.1 ..." >&2
    "$s/bench/harness/bench_harness" --engine unicorn --corpus "$corpus" --no-leaf \
        >"$out/2.0.1.frame.$r" 2>&1
  fi
  for e in unicorn native; do
    echo "engine_columns: round $r: $e ..." >&2
    "$d/bench/harness/bench_harness" --engine "$e" --corpus "$corpus" --no-leaf \
        >"$out/$e.frame.$r" 2>&1
    "$d/bench/harness/bench_harness" --engine "$e" --corpus "$corpus" --no-leaf --pose \
        --standin "$d/emu/standin/standin_x87.exe" >"$out/$e.pose.$r" 2>&1
  done
done

# The median of the numbers on stdin ("-" when none).
med() {
  sort -g | awk '{ a[NR] = $1 } END {
    if (NR == 0) { print "-"; exit }
    if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
# Field n (x and commas dropped) of the first line matching pattern in one round's output.
one() { # engine workload round pattern field
  local f="$out/$1.$2.$3"
  [ -f "$f" ] && grep -m1 -E "$4" "$f" | awk "{ print \$$5 }" | tr -d 'x,' || true
}
# Its median over the rounds.
fig() { # engine workload pattern field
  local r
  for r in $(seq "$rounds"); do one "$1" "$2" "$r" "$3" "$4"; done | med
}
# The median over the rounds of each round's unicorn / native.
ratio() { # workload pattern field
  local r u n
  for r in $(seq "$rounds"); do
    u=$(one unicorn "$1" "$r" "$2" "$3")
    n=$(one native "$1" "$r" "$2" "$3")
    awk -v a="$u" -v b="$n" 'BEGIN { if (b > 0) printf "%.2f\n", a / b }'
  done | med
}
x() { [ "$1" = - ] && echo - || echo "$1x"; }
row() { # label workload pattern field
  echo "| $1 | $(fig unicorn "$2" "$3" "$4") | $(fig 2.0.1 "$2" "$3" "$4") |" \
       "$(fig native "$2" "$3" "$4") | $(x "$(ratio "$2" "$3" "$4")") |"
}
times() { # label workload pattern field: a row of ratios already
  echo "| $1 | $(x "$(fig unicorn "$2" "$3" "$4")") | $(x "$(fig 2.0.1 "$2" "$3" "$4")") |" \
       "$(x "$(fig native "$2" "$3" "$4")") | |"
}

echo
echo "$rounds round(s), medians; the ratio is the median of each round's own ratio"
echo
echo "| measured, same commit | unicorn 2.1.1 | 2.0.1 | native | unicorn / native |"
echo "|---|---|---|---|---|"
for w in frame pose; do
  label=$([ "$w" = frame ] && echo "frame" || echo "frame+pose x87")
  row "$label: run --jobs 1, CPU s" "$w" "^run --jobs 1 " 5
  row "$label: run --jobs 1, wall s" "$w" "^run --jobs 1 " 4
  row "$label: emulated calls alone, CPU s" "$w" "^emulated calls alone" 5
  row "$label: run --jobs 2, wall s" "$w" "^run --jobs 2 " 4
  times "$label: speed-up with 2 jobs" "$w" "^speed-up" 5
  times "$label: 2-core ceiling (two --jobs 1 at once)" "$w" "^2-core ceiling" 3
  times "$label: overhead (run / calls alone), CPU" "$w" "^overhead" 11
done
echo
echo "raw outputs: $out"
