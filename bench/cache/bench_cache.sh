#!/usr/bin/env bash
# bench/cache/bench_cache.sh [FF8DIFF] [JOBS]: the results cache's effect.
# Runs `ff8diff run` twice over the synthetic vanilla-preset corpus, all 4
# modes, on the stand-in engine, with an empty cache folder of its own: the
# first run emulates (and fills the cache), the second compares against the
# cache. Prints both wall times, the emulated calls and where the clips'
# original side came from. Not a test: nothing is asserted.
set -euo pipefail
ff=${1:-build-rel/harness/ff8diff}
jobs=${2:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/ff8bench-cache.XXXXXX")
trap 'rm -rf "$work"' EXIT
export FF8DIFF_CACHE_DIR="$work/cache"

# The corpus is generated before any timing.
"$ff" corpus synth --preset vanilla --seed 1 --out "$work/corpus" >/dev/null

field() { # field NAME report.json: first number after "NAME":
  grep -o "\"$1\":[0-9][0-9.e+]*" "$2" | head -1 | cut -d: -f2
}

one_run() { # one_run LABEL
  local out="$work/rep-$1" t0 t1
  t0=$(date +%s.%N)
  "$ff" run -q --corpus "$work/corpus" --modes all --jobs "$jobs" --out "$out" >/dev/null ||
    [ $? -eq 1 ]
  t1=$(date +%s.%N)
  local rep
  rep=$(ls -d "$out"/*/report.json)
  printf '%-7s wall %6.2f s   run.seconds %6.2f   emulated_calls %8s   comparisons %s' \
    "$1" "$(awk "BEGIN { print $t1 - $t0 }")" "$(field seconds "$rep")" \
    "$(field emulated_calls "$rep")" "$(field comparisons "$rep")"
  printf '   sources: emulated %s, deduplicated %s, cache %s\n' \
    "$(field emulated "$rep")" "$(field deduplicated "$rep")" "$(field cache "$rep")"
}

echo "ff8diff run, vanilla preset (seed 1), 4 modes, --jobs $jobs, stand-in engine"
one_run first
one_run second
"$ff" cache stats | sed 's/^/  /'
