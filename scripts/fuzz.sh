#!/usr/bin/env bash
# Short libFuzzer runs of every parser, as npm test makes them: 10 s per target unless FUZZ_SECONDS
# says otherwise (tests/fuzz/run.sh alone defaults to 60 s for deeper local runs).
set -euo pipefail
export FUZZ_SECONDS=${FUZZ_SECONDS:-10}
exec "$(dirname "${BASH_SOURCE[0]}")/../tests/fuzz/run.sh" "$@"
