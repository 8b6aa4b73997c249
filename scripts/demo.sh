#!/usr/bin/env bash
# The main job on a fresh Debian 12: set up, build, and run ff8diff on the
# stand-in engine over the synthetic corpus (all modes). Prints where the
# report is. Extra arguments go to `ff8diff run` (e.g. --preset vanilla).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
exec build/harness/ff8diff run "$@"
