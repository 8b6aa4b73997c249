#!/usr/bin/env bash
# Builds ff8diff and passes the test suite (Criterion suites through CTest).
# With FF_SANITIZE=1 in the environment, builds into build-asan with
# -fsanitize=address,undefined; leaks fail the run. Warnings are errors here
# (FF_WERROR=ON), as in CI. With FF_SYSTEM_UNICORN=1, builds against the
# system's Unicorn (Debian 12: 2.0.1) instead of the project-local 2.1.1, into
# a build folder of its own (build-sysuc, or build-asan-sysuc).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
dir=build
opts=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DFF_WERROR=ON)
if [ "${FF_SANITIZE:-0}" = 1 ]; then
  dir=build-asan
  opts=(-DCMAKE_BUILD_TYPE=Debug -DFF_SANITIZE=ON -DFF_WERROR=ON)
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
  export LSAN_OPTIONS="exitcode=23:${LSAN_OPTIONS:-}"
fi
if [ "${FF_SYSTEM_UNICORN:-0}" = 1 ]; then
  dir=$dir-sysuc
  opts+=(-DFF_SYSTEM_UNICORN=ON)
fi
cmake -S . -B "$dir" "${opts[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
