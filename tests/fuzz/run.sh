#!/usr/bin/env bash
# Builds the libFuzzer targets (the "fuzz" CMake preset: clang, ASan + UBSan) and runs each for a
# bounded time, starting from its seed corpus. Exits non-zero when any target finds a crash, a
# sanitizer report or a failed check; the input is saved under build/fuzz/artifacts/<target>/.
#
#   tests/fuzz/run.sh [target...]         targets: request snapshot decimal instant posix_tz
#   FUZZ_SECONDS=300 tests/fuzz/run.sh    time per target (default: 10 when CI=true, else 60)
#
# Every crash becomes a regression: copy the artifact into tests/fuzz/regressions/<target>/;
# ctest (fuzz_replay_<target>) replays those files and the seed corpus in every native build.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

all_targets=(request snapshot decimal instant posix_tz)
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
if [[ "${CI:-}" == true ]]; then default_seconds=10; else default_seconds=60; fi
seconds=${FUZZ_SECONDS:-$default_seconds}

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
cmake --preset fuzz >/dev/null  # cheap when configured; repairs a half-configured tree
cmake --build --preset fuzz --parallel "$jobs" >/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
summary=()
for target in "${targets[@]}"; do
  binary=build/fuzz/tests/fuzz/lq_fuzz_$target
  seeds=tests/fuzz/corpus/$target
  [[ -x "$binary" && -d "$seeds" ]] || { echo "fuzz: unknown target $target" >&2; exit 2; }
  work=build/fuzz/corpus/$target           # grows across runs; seeds stay untouched
  artifacts=build/fuzz/artifacts/$target/
  mkdir -p "$work" "$artifacts"
  options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
    -artifact_prefix="$artifacts")
  case $target in
    request | snapshot) options+=(-dict=tests/fuzz/json.dict -max_len=16384) ;;
    *) options+=(-max_len=256) ;;
  esac
  log=build/fuzz/$target.log
  echo "fuzz: $target for ${seconds}s"
  status=0
  inputs=("$work" "$seeds")
  # git keeps no empty folder, and libFuzzer stops at a missing one.
  [[ -d tests/fuzz/regressions/$target ]] && inputs+=(tests/fuzz/regressions/"$target")
  "$binary" "${options[@]}" "${inputs[@]}" >"$log" 2>&1 || status=$?
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
  coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
  corpus=$(find "$work" -type f | wc -l)
  if ((status != 0)); then
    failed+=("$target")
    summary+=("$(printf '%-9s FAIL  %s execs, %s, corpus %s; see %s' "$target" "$runs" "$coverage" "$corpus" "$log")")
    grep -E 'ERROR|fuzz check failed|runtime error|Test unit written' "$log" | head -20 >&2 || true
  else
    summary+=("$(printf '%-9s ok    %s execs, %s, corpus %s' "$target" "$runs" "$coverage" "$corpus")")
  fi
done

echo "fuzz summary (${seconds}s per target):"
printf '  %s\n' "${summary[@]}"
if ((${#failed[@]})); then
  echo "fuzz: crashes in ${failed[*]}; inputs under build/fuzz/artifacts/" >&2
  exit 1
fi
