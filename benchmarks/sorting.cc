// sort and argsort of random float32 keys (default 2^26) through vka::sort / vka::argsort:
// wall-clock median per call including the waits (the radix sort reads back the key bits that
// vary once per sort, so calls cannot be batched), after warm-up; the values are checked once
// against std::stable_sort.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "array/array.h"
#include "array/sort.h"
#include "benchmarks/bench_util.h"
#include "device/stream.h"
#include "runtime/realize.h"

namespace vka {
namespace {

struct Row {
  std::string name;
  double ms;
  uint64_t kernels;
};

Row time_wall(const std::string& name, const std::function<void()>& work, Stream& s, int runs) {
  const bench::Timing t =
      bench::wall_median(s, work, runs, 0.5, [] { return realize_stats().kernels; });
  return {name, t.ms, t.count};
}

}  // namespace
}  // namespace vka

int main(int argc, char** argv) {
  using namespace vka;
  const int64_t n = std::stoll(bench::flag(argc, argv, "n", "67108864"));
  const int runs = std::stoi(bench::flag(argc, argv, "runs", "10"));
  const std::string out_path = bench::flag(argc, argv, "markdown", "");
  auto ctx = Context::create(bench::context_options(argc, argv));
  Stream& s = *ctx->replica(0).stream;

  const std::vector<float> h = bench::uniform_floats(n, 7);
  Array A = Array::from_host(h.data(), {n}, DType::kFloat32, ctx);
  A.eval();
  s.finish();

  std::vector<Row> rows;
  rows.push_back(time_wall("copy(A), the bandwidth reference", [&] { copy(A).eval(); }, s, runs));
  rows.push_back(time_wall("sort(A)", [&] { sort(A).eval(); }, s, runs));
  rows.push_back(time_wall("argsort(A)", [&] { argsort(A).eval(); }, s, runs));
  {  // Check once: a fast wrong sort must not pass for a fast one.
    std::vector<int64_t> want(static_cast<size_t>(n));
    std::iota(want.begin(), want.end(), 0);
    std::stable_sort(want.begin(), want.end(), [&](int64_t i, int64_t j) { return h[i] < h[j]; });
    std::vector<int64_t> got = argsort(A).to_vector<int64_t>();
    std::vector<float> sorted = sort(A).to_vector<float>();
    for (int64_t k = 0; k < n; ++k) {
      if (got[k] != want[k] || sorted[k] != h[want[k]]) {
        std::fprintf(stderr, "sorting: wrong result at %lld\n", static_cast<long long>(k));
        return 1;
      }
    }
  }

  std::string md = bench::results_header("Sorting (vka::sort, vka::argsort)", *ctx,
                                         bench::command_line(argc, argv));
  char line[512];
  std::snprintf(line, sizeof(line),
                "%lld random float32 keys. Median of %d calls, wall clock per call including "
                "the waits, after 0.5 s of warm-up per row.\n\n| operation | lazy kernels (library dispatches not counted) | time (ms) "
                "| keys/s (G) |\n|---|---|---|---|\n",
                static_cast<long long>(n), runs);
  md += line;
  for (const Row& r : rows) {
    std::snprintf(line, sizeof(line), "| `%s` | %llu | %.3f | %.2f |\n", r.name.c_str(),
                  static_cast<unsigned long long>(r.kernels), r.ms,
                  static_cast<double>(n) / (r.ms * 1e-3) / 1e9);
    md += line;
  }
  std::cout << md;
  if (!out_path.empty()) std::ofstream(out_path) << md;
  return 0;
}
