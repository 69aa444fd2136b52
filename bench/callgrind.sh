#!/usr/bin/env bash
# Native instruction count per call (valgrind callgrind), counting only lq_bench_measured_calls,
# i.e. the calls themselves: no start-up, no snapshot load, no warm-up.
#
#   bench/callgrind.sh [workload] [operation] [calls]
#     workload: S, M, L or load (the 5,000-reward snapshot; default L)
#     operation: qualify, qualify_json, explain, explain_words (what the wasm explain computes:
#                parse + lq::explain, no JSON), load (default qualify)
#   env LQ_BENCH_DIR (default build/bench: workload files), LQ_NATIVE_BENCH (default the Release
#   build npm run bench makes: build/bench/native/bench/lq_native_bench)
#
# Prints one JSON line {"workload","operation","calls","instructions_per_call","profile"};
# the profile (callgrind_annotate, inclusive, top functions) is written beside the raw output.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
workload=${1:-L}
operation=${2:-qualify}
calls=${3:-64}
dir=${LQ_BENCH_DIR:-$root/build/bench}
binary=${LQ_NATIVE_BENCH:-$root/build/bench/native/bench/lq_native_bench}

command -v valgrind >/dev/null || { echo "callgrind: valgrind is not installed" >&2; exit 1; }
[[ -x "$binary" ]] || { echo "callgrind: $binary not built" >&2; exit 1; }
[[ -f "$dir/$workload.snapshot.json" ]] || node "$root/bench/workloads.mjs" "$dir" >/dev/null

out=$dir/callgrind.$workload.$operation.out
profile=$dir/callgrind.$workload.$operation.txt
inputs=(--snapshot "$dir/$workload.snapshot.json")
[[ "$operation" == load ]] || inputs+=(--requests "$dir/$workload.requests.jsonl")
valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
  --toggle-collect='lq_bench_measured_calls*' \
  "$binary" "${inputs[@]}" --callgrind "$operation" --calls "$calls" \
  >/dev/null 2>"$dir/callgrind.$workload.$operation.log"
total=$(awk '/^(summary|totals):/ { print $2; exit }' "$out")
[[ -n "$total" ]] || { echo "callgrind: no totals in $out" >&2; exit 1; }
callgrind_annotate --inclusive=yes --threshold=98 "$out" 2>/dev/null | head -60 >"$profile" || true
printf '{"workload":"%s","operation":"%s","calls":%s,"instructions_per_call":%s,"profile":"%s"}\n' \
  "$workload" "$operation" "$calls" "$((total / calls))" "$profile"
