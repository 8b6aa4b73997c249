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
  libassimp-dev                        # check-gltf reads viewers' glTF files
)

# The npm packages of the tests (glTF-Validator, three.js), from the
# committed lockfile, installed into tests/js/node_modules.
npm_install() {
  local dir
  dir="$(cd "$(dirname "$0")/.." && pwd)/tests/js"
  if ! command -v npm >/dev/null 2>&1; then
    # Debian's node and npm, unless a node with its own npm is installed already.
    echo "setup: installing nodejs npm"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm
  fi
  if [ ! -d "$dir/node_modules/gltf-validator" ] || [ ! -d "$dir/node_modules/three" ]; then
    echo "setup: npm ci in tests/js"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  npm_install
  exit 0
fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
npm_install
