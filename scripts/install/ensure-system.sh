#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those missing (apt-get update first).
set -euo pipefail

packages=(emscripten nlohmann-json3-dev catch2 libcpp-httplib-dev libsqlite3-dev tzdata chromium
  cmake g++ make clang-14 libclang-rt-14-dev sqlite3 valgrind dpkg-dev tcl)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  [[ "$status" == installed ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "ensure-system: all system packages present"
  exit 0
fi

echo "ensure-system: installing ${missing[*]}"
sudo=()
if ((EUID != 0)); then
  if command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "ensure-system: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y "${missing[@]}" </dev/null
