#!/usr/bin/env bash
# The main job on a fresh Debian 12: set up what the demo needs, build ff8diff
# and the stand-in engine (nothing else), and run ff8diff on the stand-in
# engine over the synthetic corpus (all modes). Prints where the report is.
# Extra arguments go to `ff8diff run` (e.g. --preset vanilla). The build
# folder and its flags are scripts/test.sh's too: the tests reuse this build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --demo
source scripts/build_opts.sh
cmake -S . -B "$ff_build_dir" "${ff_cmake_opts[@]}" >/dev/null
cmake --build "$ff_build_dir" -j"$(nproc)" --target ff8diff standin
exec "$ff_build_dir/harness/ff8diff" run "$@"
