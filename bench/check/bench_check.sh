#!/usr/bin/env bash
# bench/check/bench_check.sh [FF8DIFF] [JOBS] [ROUNDS]: reading traces.
# Records golden traces of the synthetic vanilla-preset corpus (all 4 modes,
# frame level, on the stand-in engine), copies them into a folder without a
# manifest (a decoder's folder), then times `ff8diff check --traces GOLDEN
# --against COPY` ROUNDS times (default 5) and prints each wall time and the
# median: the cost of reading, checking and comparing Trace JSON Lines on
# both sides. Not a test: nothing is asserted.
set -euo pipefail
ff=${1:-build-rel/harness/ff8diff}
jobs=${2:-2}
rounds=${3:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/ff8bench-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
export FF8DIFF_CACHE_DIR="$work/cache"

# Corpus and golden traces are made before any timing.
"$ff" corpus synth --preset vanilla --seed 1 --out "$work/corpus" >/dev/null
"$ff" record -q --corpus "$work/corpus" --modes all --jobs "$jobs" --out "$work/golden" \
  >/dev/null
mkdir "$work/cand"
cp "$work/golden"/*.jsonl "$work/cand"/
echo "traces: $(ls "$work/golden"/*.jsonl | wc -l) files, $(du -sm "$work/golden" | cut -f1) MB a side"

times=()
for i in $(seq "$rounds"); do
  t0=$(date +%s.%N)
  "$ff" check -q --corpus "$work/corpus" --modes all --jobs "$jobs" --traces "$work/golden" \
    --against "$work/cand" --out "$work/rep" >/dev/null
  t1=$(date +%s.%N)
  rm -rf "$work/rep"
  t=$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')
  times+=("$t")
  printf 'round %d: %.2f s\n' "$i" "$t"
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
printf 'check, golden against themselves, --jobs %s: median %.2f s of %d rounds\n' "$jobs" \
  "$median" "$rounds"
