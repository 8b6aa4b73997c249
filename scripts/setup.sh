#!/usr/bin/env bash
# Installs the Debian 12 packages ff8diff needs, only those missing.
# Runs apt-get as root, or through sudo when not root.
set -euo pipefail

packages=(
  cmake make gcc pkg-config            # build
  libunicorn-dev libcapstone-dev       # emulation, disassembly
  libcriterion-dev                     # tests
  libcjson-dev liblz4-dev libssl-dev   # JSON, LZ4, SHA-256 (libcrypto)
  gcc-mingw-w64-i686                   # the stand-in engine (PE32)
  clang libclang-rt-14-dev             # fuzzers
  python3 python3-jsonschema           # report schema checks, examples
  chromium                             # the HTML report test (headless)
  valgrind                             # memcheck of a run
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
