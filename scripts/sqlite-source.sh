#!/usr/bin/env bash
# SQLite's amalgamation (sqlite3.c, sqlite3.h) for the emulator's wasm build, from Debian's source
# package sqlite3 3.40.1-2+deb12u2: the very SQLite (version and Debian's patches) that the native
# service and hub link (libsqlite3-dev, libsqlite3.a), so both runtimes answer from one SQLite.
# Emscripten's own SQLite port would be downloaded, which cannot be done here (docs/decisions.md,
# "The emulator's SQLite"). Fetched as scripts/install/debian-source.sh fetches (apt-get source,
# checked against the system's Debian archive keys; no root, the machine's apt left as it is); the
# orig tarball is then checked against the SHA-256 pinned below, and its amalgamation made by
# SQLite's own build (configure; make sqlite3.c: cc and tclsh).
# Idempotent: does nothing when build/deb-src/sqlite3-amalgamation/sqlite3.c is there.
set -euo pipefail

version=3.40.1-2+deb12u2
orig=sqlite3_3.40.1.orig.tar.xz
orig_sha256=aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/install/debian-source.sh
source "$root/scripts/install/debian-source.sh"
dest=$deb_src_dest
out=$dest/sqlite3-amalgamation

if [[ -f $out/sqlite3.c && -f $out/sqlite3.h ]]; then
  echo "sqlite-source: $out/sqlite3.c present"
  exit 0
fi

deb_src_tools sqlite-source "Debian's apt, dpkg-dev, gcc, make, tcl" apt-get dpkg-source cc make tclsh sha256sum
deb_src_index sqlite-source "sqlite3=$version"
work=$(mktemp -d "$dest/sqlite-fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
# The exact version only: another SQLite than the native one would break the runtimes' parity.
if ! deb_src_fetch "sqlite3=$version"; then
  echo "sqlite-source: sqlite3=$version is not in $deb_src_suite any more; pin the suite's current" \
    "version here and in CMake's native check (the native SQLite must be the same)" >&2
  exit 1
fi
deb_src_verify sqlite-source "$orig" "$orig_sha256"
tree=$(find . -mindepth 1 -maxdepth 1 -type d -name 'sqlite3-*' | head -n 1)
mkdir "$work/build"
cd "$work/build"
# Only the amalgamation: SQLite's configure, then its make target that writes sqlite3.c.
"../$tree/configure" --disable-tcl --disable-readline >configure.log 2>&1 ||
  { tail -n 20 configure.log >&2; exit 1; }
make sqlite3.c >make.log 2>&1 || { tail -n 20 make.log >&2; exit 1; }
grep -q '^#define SQLITE_VERSION  *"3.40.1"' sqlite3.h ||
  { echo "sqlite-source: the amalgamation is not SQLite 3.40.1" >&2; exit 1; }
rm -rf "$out.partial"
mkdir -p "$out.partial"
cp sqlite3.c sqlite3.h "$out.partial/"
echo "sqlite3=$version $orig sha256:$orig_sha256" >"$out.partial/SOURCE"
rm -rf "$out"
mv "$out.partial" "$out"
echo "sqlite-source: $out/sqlite3.c (SQLite 3.40.1, Debian $version)"
