#!/usr/bin/env bash
# Fetches Debian's source package of cpp-httplib (0.11.4+ds-1+deb12u1, Debian's patches applied by
# apt-get source) into build/deb-src/ for its single header httplib.h, which the static service
# (loyalty_service_portable) compiles: Debian's libcpp-httplib-dev ships a split header and a .so.
# Idempotent: does nothing when build/deb-src/cpp-httplib/httplib.h is there. Fetched as
# scripts/install/debian-source.sh fetches (no root; the machine's apt left as it is).
set -euo pipefail

version=0.11.4+ds-1+deb12u1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/install/debian-source.sh
source "$root/scripts/install/debian-source.sh"
dest=$deb_src_dest
link=$dest/cpp-httplib

if [[ -f $link/httplib.h ]]; then
  echo "httplib-source: $link/httplib.h present"
  exit 0
fi
# Two trees configured at once (npm test's native and sanitizer trees) fetch it once.
mkdir -p "$dest"
exec 9>"$dest/.fetch-lock"
flock 9
if [[ -f $link/httplib.h ]]; then
  echo "httplib-source: $link/httplib.h present"
  exit 0
fi

deb_src_tools httplib-source "Debian's apt and dpkg-dev" apt-get dpkg-source
deb_src_index httplib-source cpp-httplib
work=$(mktemp -d "$dest/fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
if ! deb_src_fetch "cpp-httplib=$version"; then
  echo "httplib-source: cpp-httplib=$version is gone from $deb_src_suite; taking the suite's current version" >&2
  deb_src_fetch cpp-httplib
fi
unpacked=$(find . -mindepth 2 -maxdepth 2 -name httplib.h -printf '%h\n' | head -n 1)
if [[ -z $unpacked ]]; then
  echo "httplib-source: Debian's cpp-httplib source has no httplib.h" >&2
  exit 1
fi
name=$(basename "$unpacked")
rm -rf "${dest:?}/$name"
mv "$unpacked" "$dest/$name"
ln -sfn "$name" "$link"
echo "httplib-source: $link/httplib.h from $name"
