#!/usr/bin/env bash
# Fetches Debian's source package of cpp-httplib (0.11.4+ds-1+deb12u1, Debian's patches applied by
# apt-get source) into build/deb-src/ for its single header httplib.h, which the static service
# (loyalty_service_portable) compiles: Debian's libcpp-httplib-dev ships a split header and a .so.
# Idempotent: does nothing when build/deb-src/cpp-httplib/httplib.h is there. A private sources list
# and package lists under build/deb-src/apt: the machine's apt configuration and state are left as
# they are, and no root is needed. apt checks the index against the system's Debian archive keys.
set -euo pipefail

version=0.11.4+ds-1+deb12u1
suite=bookworm
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=$root/build/deb-src
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

for tool in apt-get dpkg-source; do
  if ! command -v "$tool" >/dev/null; then
    echo "httplib-source: $tool not found (Debian's apt and dpkg-dev)" >&2
    exit 1
  fi
done

mkdir -p "$dest"
lists=$dest/apt
mkdir -p "$lists/lists/partial"
echo "deb-src http://deb.debian.org/debian $suite main" >"$lists/sources.list"
apt=(apt-get -o "Dir::Etc::SourceList=$lists/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$lists/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)

echo "httplib-source: Debian's source package cpp-httplib ($suite) into ${dest#"$root"/}"
if ! "${apt[@]}" update --error-on=any; then
  echo "httplib-source: cannot fetch Debian's $suite source index from deb.debian.org" >&2
  exit 1
fi
work=$(mktemp -d "$dest/fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
if ! "${apt[@]}" source "cpp-httplib=$version"; then
  echo "httplib-source: cpp-httplib=$version is gone from $suite; taking the suite's current version" >&2
  "${apt[@]}" source cpp-httplib
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
