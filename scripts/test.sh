#!/usr/bin/env bash
# Builds ff8diff and passes the test suite (Criterion suites through CTest).
# Reuses scripts/demo.sh's build folder and flags (scripts/build_opts.sh), so
# after the demo only the suites and what the demo did not need are compiled.
# With FF_SANITIZE=1 in the environment, builds into build-asan with
# -fsanitize=address,undefined; leaks fail the run. FF_WERROR=1 makes warnings
# errors (CI sets it). FF_SYSTEM_UNICORN=1 builds against the system's Unicorn
# (Debian 12: 2.0.1) instead of the project-local 2.1.1, FF_CC=clang with
# clang, each into a build folder of its own. Extra arguments go to ctest
# (e.g. -R test_cli_run, or -L hostile for the hostile-input suites).
# FF_BENCH=1 builds the bench programs too (CI, for their warnings).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/build_opts.sh
if [ "${FF_SANITIZE:-0}" = 1 ]; then
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
  export LSAN_OPTIONS="exitcode=23:${LSAN_OPTIONS:-}"
fi
cmake -S . -B "$ff_build_dir" "${ff_cmake_opts[@]}" -DFF_TESTS=ON >/dev/null
targets=(all)
[ "${FF_BENCH:-0}" = 1 ] && targets+=(benches)
cmake --build "$ff_build_dir" -j"$(nproc)" --target "${targets[@]}"
# Each suite declares the processes it keeps busy (CTest's PROCESSORS): -j
# at the number of cores never runs more at once.
ctest --test-dir "$ff_build_dir" --output-on-failure -j"$(nproc)" "$@"
