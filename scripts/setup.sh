#!/usr/bin/env bash
# Installs the Debian 12 packages ff8diff needs, only those missing, then
# puts a fast Unicorn (Debian 13's 2.1.1) into the project-local prefix
# .deps/unicorn, unless the machine's own Unicorn is already a fast one.
# Runs apt-get as root, or through sudo when not root.
#
# Why 2.1.1: Debian 12's Unicorn 2.0.1 takes a slow path on every emulated
# store (about 0.1-0.2 us each); 2.1.0 and 2.1.1 do not, and 2.1.2-2.1.4
# take it again for a 32-bit guest without paging (bench/README.md). Debian
# 13's binary packages need only libc6 >= 2.34, so they run on Debian 12.
# They are fetched with `apt-get download` from a private source list (the
# machine's own Debian mirror, suite trixie, Debian's archive keyring: apt
# checks the signatures) and unpacked with dpkg-deb; the system's apt
# sources and installed packages are not touched. Without network access the
# build falls back to the system's Unicorn, and this script says so.
#
# `setup.sh --demo` installs only what building and running ff8diff and the
# stand-in engine need (scripts/demo.sh); plain `setup.sh` adds what the
# tests need: Criterion, clang, python3, chromium, valgrind, lld, and the npm
# packages of the browser tests (scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

demo_only=0
case "${1:-}" in
  --demo) demo_only=1 ;;
  "") ;;
  *) echo "usage: scripts/setup.sh [--demo]" >&2; exit 2 ;;
esac

packages=(
  cmake make ninja-build gcc pkg-config   # build (Ninja: scripts/build_opts.sh)
  libunicorn-dev libcapstone-dev       # emulation (the system's, fallback), disassembly
  libcjson-dev libyajl-dev liblz4-dev libssl-dev   # JSON tree, JSON streaming, LZ4, SHA-256
  gcc-mingw-w64-i686                   # the stand-in engine (PE32)
  debian-archive-keyring               # fetching the fast Unicorn (below)
  libassimp-dev                        # check-gltf reads viewers' glTF files
)
if [ "$demo_only" = 0 ]; then
  packages+=(
    libcriterion-dev                   # tests
    clang libclang-rt-14-dev           # fuzzers, the clang build
    python3 python3-jsonschema         # report schema checks, examples
    chromium                           # the HTML report test (headless)
    valgrind                           # memcheck of a run
    lld                                # links the suites' hundred-odd programs fast (FF_LINKER)
  )
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# The npm packages of the tests (glTF-Validator, three.js, Ajv), from the
# committed lockfile, installed into tests/js/node_modules.
npm_install() {
  local dir="$PWD/tests/js"
  if ! command -v npm >/dev/null 2>&1; then
    # Debian's node and npm, unless a node with its own npm is installed already.
    echo "setup: installing nodejs npm"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm
  fi
  # Again whenever package.json names a package node_modules lacks.
  if ! (cd "$dir" && node -e 'const fs = require("fs"), d = require("./package.json").dependencies;
      process.exit(Object.keys(d).every((k) => fs.existsSync("node_modules/" + k)) ? 0 : 1)'); then
    echo "setup: npm ci in tests/js"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[ "$demo_only" = 1 ] || npm_install
scripts/fetch_unicorn.sh
