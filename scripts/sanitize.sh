#!/usr/bin/env bash
# The native tests (the Catch2 suites of the engine, the service core and the store hub, property test)
# built by the "asan" CMake preset: Debug, AddressSanitizer + UndefinedBehaviorSanitizer, no
# recovery. Any report fails. The fuzz corpus and crash inputs are replayed by scripts/fuzz.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset asan >/dev/null  # cheap when configured; repairs a half-configured tree
cmake --build --preset asan --parallel "$jobs"
ctest --preset asan
