#!/usr/bin/env bash
# Puts Debian 13's Unicorn 2.1.1 (libunicorn2t64, libunicorn-dev) into
# .deps/unicorn, the prefix CMake looks in first (FF_SYSTEM_UNICORN=OFF).
# Does nothing when it is already there, or when the system's Unicorn is
# itself 2.1.0 or 2.1.1 (fast stores already). Without network access it says
# what it could not fetch and exits 0: the build then uses the system's
# Unicorn and warns. FF_UNICORN_SUITE picks another Debian suite (default
# trixie); FF_UNICORN_VERSION pins the package version (default 2.1.1-2+b2);
# FF_UNICORN_MIRROR replaces the mirror read from the apt sources.
set -euo pipefail
cd "$(dirname "$0")/.."

suite=${FF_UNICORN_SUITE:-trixie}
version=${FF_UNICORN_VERSION:-2.1.1-2+b2}
prefix=.deps/unicorn
stamp="$prefix/VERSION"
arch=$(dpkg --print-architecture)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ]; then
  echo "setup: Unicorn $version in $prefix"
  exit 0
fi
sys=$(pkg-config --modversion unicorn 2>/dev/null || true)
case "$sys" in
  2.1.0|2.1.1)
    echo "setup: the system's Unicorn $sys has the fast store path; nothing to fetch"
    exit 0 ;;
esac

# The machine's own Debian mirror: the first deb.debian.org-style URI of its
# sources that serves the main archive (not -security).
mirror=$(grep -hE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
           /etc/apt/sources.list.d/*.sources 2>/dev/null \
         | grep -oE 'https?://[^ ]+' | grep -v -- '-security' | grep -m1 '/debian/\?$' || true)
mirror=${FF_UNICORN_MIRROR:-${mirror:-http://deb.debian.org/debian}}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/dl"
echo "deb [signed-by=$keyring] $mirror $suite main" > "$work/sources.list"
: > "$work/status"
apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
          -o "Dir::State::Lists=$work/lists" -o "Dir::State::Status=$work/status"
          -o "Dir::Cache=$work/cache" -o "Debug::NoLocking=1"
          -o "APT::Sandbox::User=root" -o "APT::Architecture=$arch")
warn_fallback() {
  echo "setup: WARNING: could not fetch Unicorn $version ($1) from $mirror $suite." >&2
  echo "setup: WARNING: the build uses the system's Unicorn ${sys:-(none)}; on 2.0.x every" >&2
  echo "setup: WARNING: emulated store takes a slow path (runs about 10x slower)." >&2
  exit 0
}
apt-get "${apt_opts[@]}" -qq update >"$work/log" 2>&1 || warn_fallback "apt-get update: $(tail -n1 "$work/log")"
(cd "$work/dl" && apt-get "${apt_opts[@]}" -qq download \
   "libunicorn2t64=$version" "libunicorn-dev=$version") >>"$work/log" 2>&1 \
   || warn_fallback "apt-get download: $(tail -n1 "$work/log")"

rm -rf "$prefix"
mkdir -p "$prefix"
for deb in "$work"/dl/*.deb; do
  dpkg-deb -x "$deb" "$prefix"
done
echo "$version" > "$stamp"
echo "setup: Unicorn $version unpacked into $prefix (apt checked its signature)"
