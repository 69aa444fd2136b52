#!/usr/bin/env bash
# Builds the libFuzzer targets (the "fuzz" CMake preset: clang, ASan + UBSan) and runs each for a
# bounded time, starting from its seed corpus. Exits non-zero when any target finds a crash, a
# sanitizer report or a failed check; the input is saved under build/<preset>/artifacts/<target>/.
#
#   tests/engine/fuzz/run.sh [target...]         targets: request snapshot decimal instant posix_tz
#   FUZZ_SECONDS=300 tests/engine/fuzz/run.sh    time per target (default: 10 when CI=true, else 60)
#   FUZZ_RUNS=10000000 tests/engine/fuzz/run.sh  stop each target after that many executions instead
#   FUZZ_PRESET=fuzz-throughput ...              the build without sanitizers (several times the
#                                                executions per second); its working corpus is then
#                                                replayed through the sanitizer build ("fuzz") as well
#
# Every crash becomes a regression: copy the artifact into tests/engine/fuzz/regressions/<target>/;
# each run executes those files and the seed corpus first (and ctest's fuzz_replay_<target> in a native
# build configured with -DLQ_FUZZ_REPLAY=ON, for a machine without clang's libFuzzer).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$root"

all_targets=(request snapshot decimal instant posix_tz)
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
if [[ "${CI:-}" == true ]]; then default_seconds=10; else default_seconds=60; fi
seconds=${FUZZ_SECONDS:-$default_seconds}
runs=${FUZZ_RUNS:-}
preset=${FUZZ_PRESET:-fuzz}
case $preset in
  fuzz | fuzz-throughput) ;;
  *) echo "fuzz: FUZZ_PRESET must be fuzz or fuzz-throughput, not $preset" >&2; exit 2 ;;
esac
if [[ -n "$runs" && ! "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz: FUZZ_RUNS must be a positive number of executions, not $runs" >&2
  exit 2
fi
if [[ -n "$runs" ]]; then budget="$runs executions"; else budget="${seconds}s"; fi

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (apt-get install -y clang-14 libclang-rt-14-dev)" >&2
  exit 1
fi
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' \
  >"$probe_dir/probe.cpp"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe_dir/probe.cpp" -o "$probe_dir/probe" 2>/dev/null; then
  echo "fuzz: clang++ cannot link -fsanitize=fuzzer (apt-get install -y libclang-rt-14-dev)" >&2
  exit 1
fi

jobs=$(nproc 2>/dev/null || echo 2)
presets=(fuzz)
[[ "$preset" == fuzz ]] || presets+=("$preset")
for p in "${presets[@]}"; do
  cmake --preset "$p" >/dev/null  # cheap when configured; repairs a half-configured tree
  cmake --build --preset "$p" --parallel "$jobs" >/dev/null
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
summary=()
for target in "${targets[@]}"; do
  binary=build/$preset/tests/engine/fuzz/lq_fuzz_$target
  seeds=tests/engine/fuzz/corpus/$target
  [[ -x "$binary" && -d "$seeds" ]] || { echo "fuzz: unknown target $target" >&2; exit 2; }
  work=build/$preset/corpus/$target        # grows across runs; seeds stay untouched
  artifacts=build/$preset/artifacts/$target/
  mkdir -p "$work" "$artifacts"
  options=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts")
  if [[ -n "$runs" ]]; then options+=(-runs="$runs"); else options+=(-max_total_time="$seconds"); fi
  case $target in
    request | snapshot) options+=(-dict=tests/engine/fuzz/json.dict); max_len=16384 ;;
    *) max_len=256 ;;
  esac
  inputs=("$work" "$seeds")
  # git keeps no empty folder, and libFuzzer stops at a missing one.
  [[ -d tests/engine/fuzz/regressions/$target ]] && inputs+=(tests/engine/fuzz/regressions/"$target")
  # libFuzzer runs every input given before it mutates: this is the one replay of the seeds and
  # the regressions npm test does. It cuts inputs to -max_len: never shorter than the longest one.
  longest=$(find "${inputs[@]}" -type f -printf '%s\n' | sort -n | tail -n 1)
  ((${longest:-0} <= max_len)) || max_len=$longest
  options+=(-max_len="$max_len")
  log=build/$preset/$target.log
  echo "fuzz: $target for $budget ($preset)"
  status=0
  started=$SECONDS
  "$binary" "${options[@]}" "${inputs[@]}" >"$log" 2>&1 || status=$?
  # A run without sanitizers sees no memory error that does not crash: its whole working corpus
  # (every input that reached new code) goes through the sanitizer build too.
  if ((status == 0)) && [[ "$preset" != fuzz ]]; then
    echo "fuzz: $target, its corpus under ASan + UBSan" >>"$log"
    build/fuzz/tests/engine/fuzz/lq_fuzz_$target -runs=0 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$artifacts" "$work" >>"$log" 2>&1 || status=$?
  fi
  wall=$((SECONDS - started))
  executed=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | head -1 | grep -oE '[0-9]+$' || echo '?')
  rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | head -1 | grep -oE '[0-9]+$' || echo '?')
  coverage=$(grep -E 'DONE' "$log" | head -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  corpus=$(find "$work" -type f | wc -l)
  figures="$executed execs, $rate exec/s, ${wall}s, $coverage, corpus $corpus"
  if grep -q 'libFuzzer: run interrupted' "$log"; then
    failed+=("$target")
    summary+=("$(printf '%-9s STOP  %s (interrupted, no finding)' "$target" "$figures")")
  elif ((status != 0)); then
    failed+=("$target")
    summary+=("$(printf '%-9s FAIL  %s; see %s' "$target" "$figures" "$log")")
    grep -E 'ERROR|fuzz check failed|runtime error|Test unit written' "$log" | head -20 >&2 || true
  else
    summary+=("$(printf '%-9s ok    %s' "$target" "$figures")")
  fi
done

echo "fuzz summary ($budget per target, $preset):"
printf '  %s\n' "${summary[@]}"
if ((${#failed[@]})); then
  echo "fuzz: findings (or an interrupted run) in ${failed[*]}; inputs under build/$preset/artifacts/" >&2
  exit 1
fi
