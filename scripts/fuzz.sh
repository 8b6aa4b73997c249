#!/usr/bin/env bash
# Runs the libFuzzer targets (tests/fuzz/, docs/fuzzing.md) one after the
# other: configures a clang build with FF_FUZZ=ON in $FUZZ_BUILD (default
# build-fuzz), writes the seed corpora, replays the saved reproducers, then
# fuzzes each target and prints its executions and time. Exits 1 when a
# target finds anything (crash, leak, timeout, out-of-memory, broken
# contract); the reproducer is copied to tests/fuzz/regressions/<target>/.
#
# Environment:
#   FUZZ_SECONDS  time per target (default 60), -max_total_time
#   FUZZ_RUNS     stop a target after this many executions (-runs), e.g.
#                 10000000 for the long runs; the first limit reached wins
#   FUZZ_TARGETS  targets to run (default: fuzz_dat fuzz_archive fuzz_pe fuzz_trace
#                 fuzz_zzz fuzz_lz4f)
#   FUZZ_BUILD    build folder (default build-fuzz)
#   FUZZ_ARGS     more libFuzzer flags
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${FUZZ_BUILD:-build-fuzz}
seconds=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:-}
targets=${FUZZ_TARGETS:-fuzz_dat fuzz_archive fuzz_pe fuzz_trace fuzz_zzz fuzz_lz4f}

command -v clang >/dev/null || { echo "fuzz: clang is needed (scripts/setup.sh)" >&2; exit 2; }
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DFF_FUZZ=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzzers

export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
work="$build/tests/fuzz"
seeds_of() { case "$1" in fuzz_dat) echo dat;; fuzz_archive) echo archive;;
                          fuzz_pe) echo pe;; fuzz_trace) echo trace;;
                          fuzz_zzz) echo zzz;; fuzz_lz4f) echo lz4f;; esac; }
stat_of() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }

failed=()
summary=()
for t in $targets; do
  bin="$work/$t"
  sub=$(seeds_of "$t")
  [ -x "$bin" ] && [ -n "$sub" ] || { echo "fuzz: unknown target $t" >&2; exit 2; }
  corpus="$work/corpus/$t"
  artifacts="$work/artifacts/$t"
  regress="$root/tests/fuzz/regressions/$t"
  log="$work/logs/$t.log"
  mkdir -p "$corpus" "$artifacts" "$regress" "$(dirname "$log")"
  rm -f "$artifacts"/*

  # Saved reproducers first: each must run clean.
  mapfile -t saved < <(find "$regress" -maxdepth 1 -type f ! -name 'README*' | sort)
  if [ ${#saved[@]} -gt 0 ] && ! "$bin" "${saved[@]}" >"$log.replay" 2>&1; then
    echo "fuzz: $t: a saved reproducer fails again (see $log.replay)" >&2
    failed+=("$t")
    continue
  fi

  args=(-max_total_time="$seconds" -print_final_stats=1 -timeout=25
        -artifact_prefix="$artifacts/")
  [ -n "$runs" ] && args+=(-runs="$runs")
  echo "=== $t: up to ${seconds}s${runs:+ or $runs executions}"
  start=$(date +%s%N)
  set +e
  # shellcheck disable=SC2086
  "$bin" "${args[@]}" ${FUZZ_ARGS:-} "$corpus" "$work/seeds/$sub" >"$log" 2>&1
  rc=$?
  set -e
  secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
  execs=$(stat_of number_of_executed_units "$log")
  rate=$(stat_of average_exec_per_sec "$log")
  units=$(find "$corpus" -type f | wc -l)
  found=$(find "$artifacts" -type f | wc -l)
  line=$(printf '%-13s executions %-10s seconds %-8s exec/s %-7s corpus %-5s' \
         "$t" "${execs:-?}" "$secs" "${rate:-?}" "$units")
  if [ "$rc" -ne 0 ] || [ "$found" -gt 0 ]; then
    cp "$artifacts"/* "$regress"/ 2>/dev/null || true
    echo "$line FINDING (exit $rc), reproducer(s) saved in tests/fuzz/regressions/$t/:"
    ls "$artifacts" | sed 's/^/    /'
    grep -m5 -E 'ERROR|runtime error|broken contract|SUMMARY' "$log" | sed 's/^/    /' || true
    failed+=("$t")
  else
    echo "$line no finding"
  fi
  summary+=("$line")
done

echo
echo "=== fuzz summary (FUZZ_SECONDS=$seconds${runs:+, FUZZ_RUNS=$runs})"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in: ${failed[*]}" >&2
  exit 1
fi
