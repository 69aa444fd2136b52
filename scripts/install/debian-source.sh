# shellcheck shell=bash
# Debian's source packages for the build, as scripts/httplib-source.sh and scripts/sqlite-source.sh
# fetch them (both source this file): apt-get source with a private sources list (deb-src of
# bookworm) and package lists under build/deb-src/apt, so that the machine's apt configuration and
# state are left as they are and no root is needed. apt checks the index against the system's
# Debian archive keys; deb_src_verify checks a file against a pinned SHA-256.
#   deb_src_tools NAME HINT TOOL...   exits naming the first TOOL not found (HINT: its packages)
#   deb_src_index NAME PACKAGE        the private package lists, updated (NAME: the caller's prefix)
#   deb_src_fetch PACKAGE[=VERSION]   apt-get source into the current directory (its status)
#   deb_src_verify NAME FILE SHA256   exits unless FILE has the SHA-256

deb_src_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Where the source packages go (build/deb-src/) and the one suite both are pinned to.
deb_src_dest=$deb_src_root/build/deb-src
deb_src_suite=bookworm
deb_src_apt=()

deb_src_tools() {
  local name=$1 hint=$2 tool
  shift 2
  for tool in "$@"; do
    if ! command -v "$tool" >/dev/null; then
      echo "$name: $tool not found ($hint)" >&2
      exit 1
    fi
  done
}

deb_src_index() {
  local name=$1 package=$2 lists=$deb_src_dest/apt
  mkdir -p "$lists/lists/partial"
  echo "deb-src http://deb.debian.org/debian $deb_src_suite main" >"$lists/sources.list"
  deb_src_apt=(apt-get -o "Dir::Etc::SourceList=$lists/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$lists/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)
  echo "$name: Debian's source package $package ($deb_src_suite) into ${deb_src_dest#"$deb_src_root"/}"
  if ! "${deb_src_apt[@]}" update --error-on=any; then
    echo "$name: cannot fetch Debian's $deb_src_suite source index from deb.debian.org" >&2
    exit 1
  fi
}

deb_src_fetch() {
  "${deb_src_apt[@]}" source "$1"
}

deb_src_verify() {
  local name=$1 file=$2 sha256=$3
  if ! echo "$sha256  $file" | sha256sum --check --status; then
    echo "$name: $file does not have the pinned SHA-256 $sha256" >&2
    exit 1
  fi
}
