// cumsum of a large float32 array through vka::Array, against a plain copy of the same array
// in the same process (the bandwidth roofline for its bytes: n read + n written). GPU
// timestamps around batches of back-to-back evaluations. The scan is reduce-then-scan (3n
// elements of traffic), so its ceiling is 2/3 of the copy's rate in GB/s of 2n bytes.
// --elements 1048576 runs it on lavapipe.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "array/array.h"
#include "benchmarks/bench_util.h"
#include "device/stream.h"

namespace vka {
namespace {

struct Row {
  std::string name;
  double ms;
  uint64_t kernels;
};

// Counting the stream's dispatches: the scan's library kernels are not lazy kernels.
Row time_gpu(const std::string& name, const std::function<void()>& work, Stream& s, int runs,
             int batch) {
  const bench::Timing t =
      bench::gpu_median(s, work, runs, batch, [&s] { return s.stats().dispatches; });
  return {name, t.ms, t.count};
}

}  // namespace
}  // namespace vka

int main(int argc, char** argv) {
  using namespace vka;
  const int64_t n = std::stoll(bench::flag(argc, argv, "elements", "268435456"));
  const int runs = std::stoi(bench::flag(argc, argv, "runs", "20"));
  const int batch = std::stoi(bench::flag(argc, argv, "batch", "10"));
  const std::string out_path = bench::flag(argc, argv, "markdown", "");
  auto ctx = Context::create(bench::context_options(argc, argv));
  Stream& s = *ctx->replica(0).stream;

  const std::vector<float> h = bench::uniform_floats(n, 1);
  Array A = Array::from_host(h.data(), {n}, DType::kFloat32, ctx);
  {  // Check the values once: a fast wrong kernel must not pass for a fast one. The bound is a
     // sequential float32 sum's: (i + 1) eps sum |x_j|.
    std::vector<float> got = cumsum(A).to_vector<float>();
    double exact = 0, abs_sum = 0;
    const double eps = 1.0 / (1 << 23);
    for (int64_t i = 0; i < n; ++i) {
      exact += h[i];
      abs_sum += std::fabs(h[i]);
      if (!(std::fabs(got[i] - exact) <= double(i + 1) * eps * abs_sum)) {
        std::fprintf(stderr, "cumulative: wrong cumsum at %lld: %g, exact %g\n",
                     static_cast<long long>(i), got[i], exact);
        return 1;
      }
    }
  }
  bench::warm_up(1.0, [&] {
    for (int i = 0; i < 10; ++i) copy(A).eval();
    s.finish();
  });
  std::vector<Row> rows;
  rows.push_back(time_gpu("copy(A), the limit", [&] { copy(A).eval(); }, s, runs, batch));
  rows.push_back(time_gpu(
      "cumsum(A)", [&] { cumsum(A).eval(); }, s, runs, batch));

  const double bytes = 8.0 * static_cast<double>(n);  // n float32 read + n written
  std::string md = bench::results_header("cumsum of float32 (vka::Array)", *ctx,
                                         bench::command_line(argc, argv));
  char line[512];
  std::snprintf(line, sizeof(line),
                "%lld float32 elements. Median of %d runs of %d back-to-back evaluations (GPU "
                "timestamps), after 1 s of warm-up work and 0.3 s per row. GB/s counts 2n "
                "elements (read n, write n) for both rows.\n\n| operation | dispatches | time (ms) "
                "| GB/s | of the copy's rate |\n|---|---|---|---|---|\n",
                static_cast<long long>(n), runs, batch);
  md += line;
  for (const Row& r : rows) {
    std::snprintf(line, sizeof(line), "| `%s` | %llu | %.3f | %.0f | %.0f%% |\n", r.name.c_str(),
                  static_cast<unsigned long long>(r.kernels), r.ms, bytes / (r.ms * 1e-3) / 1e9,
                  100.0 * rows[0].ms / r.ms);
    md += line;
  }
  std::cout << md;
  if (!out_path.empty()) std::ofstream(out_path) << md;
  return 0;
}
