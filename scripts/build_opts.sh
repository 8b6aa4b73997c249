# Sourced by scripts/demo.sh and scripts/test.sh: the build folder and the
# CMake options both use, from the environment, so that the tests reuse what
# the demo built (same folder, same flags: nothing compiled twice).
#   FF_WERROR=1          warnings are errors (CI sets it; a user's build never)
#   FF_SANITIZE=1        -fsanitize=address,undefined, Debug, in build-asan
#   FF_SYSTEM_UNICORN=1  the system's Unicorn, in a folder of its own (-sysuc)
#   FF_CC=clang          another compiler, in a folder of its own (-clang)
#   FF_BUILD_TYPE=T      another build type (the default: RelWithDebInfo, Debug
#                        under the sanitizers), in a folder of its own
ff_build_dir=build
ff_build_type=RelWithDebInfo
ff_cmake_opts=()
if [ "${FF_SANITIZE:-0}" = 1 ]; then
  ff_build_dir=build-asan
  ff_build_type=Debug
  ff_cmake_opts+=(-DFF_SANITIZE=ON)
fi
if [ -n "${FF_BUILD_TYPE:-}" ] && [ "$FF_BUILD_TYPE" != "$ff_build_type" ]; then
  ff_build_type=$FF_BUILD_TYPE
  ff_build_dir=$ff_build_dir-$(echo "$FF_BUILD_TYPE" | tr '[:upper:]' '[:lower:]')
fi
if [ "${FF_SYSTEM_UNICORN:-0}" = 1 ]; then
  ff_build_dir=$ff_build_dir-sysuc
  ff_cmake_opts+=(-DFF_SYSTEM_UNICORN=ON)
fi
if [ -n "${FF_CC:-}" ] && [ "$FF_CC" != gcc ]; then
  ff_build_dir=$ff_build_dir-$FF_CC
  ff_cmake_opts+=(-DCMAKE_C_COMPILER="$FF_CC")
fi
ff_cmake_opts+=(-DCMAKE_BUILD_TYPE="$ff_build_type")
# Ninja where installed (setup.sh installs it): the test build's hundred-odd
# small targets took 50.7 s after the demo against 74.6 s with make's
# recursion, the demo's build 38.6 s against 50.8 s. A folder already
# configured keeps its generator (CMake refuses to switch one).
if [ ! -f "$ff_build_dir/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
  ff_cmake_opts+=(-G Ninja)
fi
if [ "${FF_WERROR:-0}" = 1 ]; then ff_cmake_opts+=(-DFF_WERROR=ON); else ff_cmake_opts+=(-DFF_WERROR=OFF); fi
