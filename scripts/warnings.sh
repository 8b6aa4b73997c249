#!/usr/bin/env bash
# Compiles ff8diff (libraries, CLI, stand-in, tests, benchmarks) in the
# build types scripts/test.sh does not, with warnings as errors
# (FF_WERROR=ON): Release with gcc (-O3 finds what -O2 does not) into
# build-release, and Debug with clang into build-clang. RelWithDebInfo
# (scripts/test.sh) and Debug with the sanitizers (FF_SANITIZE=1
# scripts/test.sh) complete the set. Compiles only: the test suite runs in
# those two.
# Arguments pick a subset: release, clang (default: both).
set -euo pipefail
cd "$(dirname "$0")/.."
which=("$@")
[ ${#which[@]} -gt 0 ] || which=(release clang)
for w in "${which[@]}"; do
  case "$w" in
  release) dir=build-release; cc=gcc; type=Release ;;
  clang) dir=build-clang; cc=clang; type=Debug ;;
  *) echo "warnings.sh: unknown build '$w' (release, clang)" >&2; exit 2 ;;
  esac
  command -v "$cc" >/dev/null || { echo "warnings.sh: $cc is needed (scripts/setup.sh)" >&2; exit 2; }
  echo "== $w: $cc, $type, FF_WERROR=ON -> $dir"
  cmake -S . -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE="$type" -DFF_WERROR=ON >/dev/null
  cmake --build "$dir" -j"$(nproc)"
done
