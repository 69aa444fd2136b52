#!/usr/bin/env bash
# libFuzzer runs of every parser (npm run fuzz).
#
#   scripts/fuzz.sh [target...]          what npm test runs: 10 s per target (FUZZ_SECONDS=N)
#   scripts/fuzz.sh --long [target...]   10 million executions per target (FUZZ_RUNS=N), counted
#                                        rather than timed, on the build without sanitizers; each
#                                        target's corpus is then replayed under ASan + UBSan
#
# tests/engine/fuzz/run.sh alone defaults to 60 s per target; tests/engine/fuzz/README.md tells the rest.
set -euo pipefail
if [[ "${1:-}" == --long ]]; then
  shift
  export FUZZ_RUNS=${FUZZ_RUNS:-10000000}
  export FUZZ_PRESET=${FUZZ_PRESET:-fuzz-throughput}
else
  export FUZZ_SECONDS=${FUZZ_SECONDS:-10}
fi
exec "$(dirname "${BASH_SOURCE[0]}")/../tests/engine/fuzz/run.sh" "$@"
