// Native side of the benchmarks (bench/run.mjs runs it): the engine through its face API on the
// workload files of bench/workloads.mjs, timed as medians of rounds.
//
//   lq_native_bench --snapshot S.snapshot.json --requests S.requests.jsonl [--rounds 15]
//       prints one JSON object: medians (elapsed time; --clock cpu for thread CPU time) in ns per
//       call (qualify, qualify_json, explain), the snapshot load in ms, and a digest of every
//       qualify_json answer (FNV-1a 32) so that the wasm bench can check it computed the same
//       answers from the same bytes.
//   lq_native_bench --snapshot ... --requests ... --callgrind qualify|qualify_json|explain|load
//                   [--calls 64]      (load: the snapshot itself, no --requests needed)
//       warms up, then makes the calls inside lq_bench_measured_calls, the one function that
//       valgrind --tool=callgrind --toggle-collect=lq_bench_measured_calls* counts.
//   lq_native_bench --snapshot ... --requests ... --print qualify_json|explain
//       prints the engine's JSON answer (or error body) to each request, one per line.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lq/qualifier.hpp"
#include "lq/render.hpp"

namespace {

// Elapsed time by default, like the JS side; --clock cpu for this thread's CPU time (less
// disturbed by a busy machine).
bool use_wall_clock = true;

double now_ns() {
  if (use_wall_clock) {
    return std::chrono::duration<double, std::nano>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "lq_native_bench: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::string all = read_file(path);
  size_t start = 0;
  while (start < all.size()) {
    size_t end = all.find('\n', start);
    if (end == std::string::npos) end = all.size();
    if (end > start) lines.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

uint32_t fnv1a(uint32_t hash, const std::string& text) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// explain_words: what the wasm face's explain() computes (the typed explanation, no JSON render).
enum class operation { qualify, qualify_json, explain, load, explain_words };

// The work of one call; the result is consumed so that nothing is optimised away.
size_t run_once(const lq::qualifier& engine, operation op, const std::string& request,
                lq::instant now) {
  switch (op) {
    case operation::qualify: {
      auto answer = engine.qualify(request, now);
      return answer ? answer->rewards.size() + answer->points_products.size() : 0;
    }
    case operation::qualify_json: {
      auto answer = engine.qualify_json(request, now);
      return answer ? answer->size() : 0;
    }
    case operation::explain: {
      auto answer = engine.explain_json(request, now);
      return answer ? answer->size() : 0;
    }
    case operation::explain_words: {
      auto answer = engine.explain(request, now);
      return answer ? answer->entries.size() : 0;
    }
    case operation::load: {  // `request` is a snapshot here
      lq::qualifier fresh;
      return fresh.set_snapshot(request) ? 0 : fresh.reward_count() + fresh.points_product_count();
    }
  }
  return 0;
}

// Median ns per call over `rounds` rounds of at least ~20 ms each.
double time_per_call(const lq::qualifier& engine, operation op,
                     const std::vector<std::string>& requests, lq::instant now, int rounds) {
  size_t sink = 0;
  size_t passes = 1;
  for (;;) {  // calibrate: passes over the request list per round
    const double start = now_ns();
    for (size_t p = 0; p < passes; ++p) {
      for (const std::string& r : requests) sink += run_once(engine, op, r, now);
    }
    if (now_ns() - start >= 20e6 || passes >= (1u << 20)) break;
    passes *= 2;
  }
  std::vector<double> per_call;
  for (int round = 0; round < rounds; ++round) {
    const double start = now_ns();
    for (size_t p = 0; p < passes; ++p) {
      for (const std::string& r : requests) sink += run_once(engine, op, r, now);
    }
    const double ns = now_ns() - start;
    per_call.push_back(ns / static_cast<double>(passes * requests.size()));
  }
  if (sink == 42) std::fputc(' ', stderr);  // keeps `sink` alive
  return median(per_call);
}

}  // namespace

/// The only code callgrind counts (see --toggle-collect in bench/callgrind.sh).
extern "C" __attribute__((noinline)) size_t lq_bench_measured_calls(
    const lq::qualifier& engine, int op, const std::vector<std::string>& requests, size_t calls,
    lq::instant now) {
  size_t sink = 0;
  for (size_t i = 0; i < calls; ++i) {
    sink += run_once(engine, static_cast<operation>(op), requests[i % requests.size()], now);
  }
  return sink;
}

int main(int argc, char** argv) {
  std::string snapshot_path, requests_path, callgrind_op, print_op;
  int rounds = 15;
  size_t calls = 64;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "lq_native_bench: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--snapshot") {
      snapshot_path = value();
    } else if (arg == "--requests") {
      requests_path = value();
    } else if (arg == "--rounds") {
      rounds = std::max(1, std::atoi(value().c_str()));
    } else if (arg == "--callgrind") {
      callgrind_op = value();
    } else if (arg == "--clock") {
      use_wall_clock = value() != "cpu";
    } else if (arg == "--print") {
      print_op = value();
    } else if (arg == "--calls") {
      calls = static_cast<size_t>(std::max(1, std::atoi(value().c_str())));
    } else {
      std::fprintf(
          stderr,
          "usage: lq_native_bench --snapshot FILE [--requests FILE.jsonl] [--rounds N] "
          "[--clock cpu|wall]\n"
          "       [--callgrind qualify|qualify_json|explain|explain_words|load [--calls N]]\n"
          "       [--print qualify_json|explain]\n");
      return 2;
    }
  }
  if (snapshot_path.empty()) {
    std::fprintf(stderr, "lq_native_bench: --snapshot is required\n");
    return 2;
  }
  const std::string snapshot_json = read_file(snapshot_path);
  const std::vector<std::string> requests =
      requests_path.empty() ? std::vector<std::string>{} : read_lines(requests_path);
  const lq::instant now{1795526100, 0};  // 2026-11-24T13:15:00Z (bench/workloads.mjs NOW_MS)

  lq::qualifier engine;
  if (auto error = engine.set_snapshot(snapshot_json)) {
    std::fprintf(stderr, "lq_native_bench: snapshot refused: %s\n", error->message.c_str());
    return 1;
  }

  if (!print_op.empty()) {  // each answer (or error body) on a line:
                            // tests/package/engine/explain_typed.test.js
    if (print_op != "qualify_json" && print_op != "explain") {
      std::fprintf(stderr, "lq_native_bench: --print qualify_json|explain\n");
      return 2;
    }
    for (const std::string& r : requests) {
      const auto answer =
          print_op == "explain" ? engine.explain_json(r, now) : engine.qualify_json(r, now);
      const std::string line = answer ? *answer : lq::render_error(answer.err());
      std::fwrite(line.data(), 1, line.size(), stdout);
      std::fputc('\n', stdout);
    }
    return 0;
  }

  if (!callgrind_op.empty()) {
    const int op = callgrind_op == "qualify"         ? 0
                   : callgrind_op == "qualify_json"  ? 1
                   : callgrind_op == "explain"       ? 2
                   : callgrind_op == "load"          ? 3
                   : callgrind_op == "explain_words" ? 4
                                                     : -1;
    if (op < 0 || (op != 3 && requests.empty())) {
      std::fprintf(stderr, "lq_native_bench: --callgrind needs an operation and --requests\n");
      return 2;
    }
    if (op == 3) {
      const std::vector<std::string> snapshots{snapshot_json};
      const size_t loaded = lq_bench_measured_calls(engine, op, snapshots, calls, now);
      std::printf("{\"operation\":\"load\",\"calls\":%zu,\"sink\":%zu}\n", calls, loaded);
      return 0;
    }
    // Warm-up: every request once, so caches and scratch buffers are as in steady state.
    size_t sink = lq_bench_measured_calls(engine, op, requests, 0, now);
    for (const std::string& r : requests)
      sink += run_once(engine, static_cast<operation>(op), r, now);
    sink += lq_bench_measured_calls(engine, op, requests, calls, now);
    std::printf("{\"operation\":\"%s\",\"calls\":%zu,\"sink\":%zu}\n", callgrind_op.c_str(), calls,
                sink);
    return 0;
  }

  // Snapshot load: median of rounds (each a fresh parse and index).
  std::vector<double> load_ms;
  for (int round = 0; round < std::max(3, rounds / 2); ++round) {
    lq::qualifier fresh;
    const double start = now_ns();
    const auto error = fresh.set_snapshot(snapshot_json);
    load_ms.push_back((now_ns() - start) / 1e6);
    if (error) return 1;
  }
  std::printf("{\"rewards\":%zu,\"points_products\":%zu,\"load_ms\":%.4f",
              size_t{engine.reward_count()}, size_t{engine.points_product_count()},
              median(load_ms));
  if (!requests.empty()) {
    uint32_t digest = 2166136261u;
    size_t refused = 0;
    for (const std::string& r : requests) {
      const auto answer = engine.qualify_json(r, now);
      if (answer) {
        digest = fnv1a(digest, *answer);
      } else {
        ++refused;
        digest = fnv1a(digest, lq::render_error(answer.err()));
      }
      digest = fnv1a(digest, "\n");
    }
    std::printf(",\"requests\":%zu,\"refused\":%zu,\"digest\":\"%08x\"", requests.size(), refused,
                digest);
    std::printf(",\"qualify_ns\":%.1f",
                time_per_call(engine, operation::qualify, requests, now, rounds));
    std::printf(",\"qualify_json_ns\":%.1f",
                time_per_call(engine, operation::qualify_json, requests, now, rounds));
    std::printf(",\"explain_ns\":%.1f",
                time_per_call(engine, operation::explain, requests, now, rounds));
    std::printf(",\"explain_words_ns\":%.1f",
                time_per_call(engine, operation::explain_words, requests, now, rounds));
  }
  std::printf("}\n");
  return 0;
}
