// Fused elementwise expressions through vka::Array, next to the roofline kernels in the same
// process: `c = 2a + b` and the 6-op chain sqrt(abs(2a+b)+1)*exp(-b)-a (one kernel each),
// GPU timestamps around batches of back-to-back evaluations. Also the first-use cost of a new
// fused kernel (generate + compile + pipeline) in this process.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "array/array.h"
#include "benchmarks/bench_util.h"
#include "device/stream.h"
#include "kernels/compile.h"
#include "runtime/realize.h"

namespace vka {
namespace {

struct Result {
  std::string name;
  double bytes_per_element;
  double ms;
  uint64_t kernels_per_eval;
};

// Median GPU time of one evaluation of `expr`, over `runs` batches of `batch` evaluations.
Result time_expression(const std::string& name, double bytes_per_element,
                       const std::function<Array()>& expr, Stream& s, int runs, int batch) {
  uint64_t k0 = realize_stats().kernels;
  expr().eval();  // first use: compiles; not timed
  s.finish();
  const uint64_t kernels_per_eval = realize_stats().kernels - k0;
  bench::warm_up(0.3, [&] {
    for (int i = 0; i < batch; ++i) expr().eval();
    s.finish();
  });
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    s.reset_timestamps();
    uint32_t t0 = s.timestamp();
    for (int i = 0; i < batch; ++i) expr().eval();
    uint32_t t1 = s.timestamp();
    s.finish();
    ms.push_back(s.elapsed_ns(t0, t1) * 1e-6 / batch);
  }
  return {name, bytes_per_element, bench::median(ms), kernels_per_eval};
}

}  // namespace
}  // namespace vka

int main(int argc, char** argv) {
  using namespace vka;
  const int64_t n = std::stoll(bench::flag(argc, argv, "elements", "268435456"));
  const int runs = std::stoi(bench::flag(argc, argv, "runs", "20"));
  const std::string out_path = bench::flag(argc, argv, "markdown", "");
  // Evaluations between two timestamps. Each writes a new array, so nothing orders them: the
  // GPU may overlap them, as it would in a program.
  const int batch = std::stoi(bench::flag(argc, argv, "batch", "10"));
  auto ctx = Context::create(bench::context_options(argc, argv));
  Stream& s = *ctx->replica(0).stream;

  std::vector<float> host(static_cast<size_t>(n));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto& x : host) x = u(rng);
  Array a = Array::from_host(host.data(), {n}, DType::kFloat32, ctx);
  for (auto& x : host) x = u(rng);
  Array b = Array::from_host(host.data(), {n}, DType::kFloat32, ctx);
  host = {};

  // First use of a kernel never compiled in this process: generate, compile, build pipeline.
  auto t0 = std::chrono::steady_clock::now();
  const uint64_t compiles0 = compile_count();
  (a * 3 - b * 0.25).eval();
  s.finish();
  const double first_use_ms = bench::seconds_since(t0) * 1e3;
  const uint64_t compiles = compile_count() - compiles0;

  // One second of work before anything is timed (the roofline does the same).
  bench::warm_up(1.0, [&] {
    for (int i = 0; i < 10; ++i) (2 * a + b).eval();
    s.finish();
  });

  std::vector<Result> rows;
  rows.push_back(time_expression(
      "c = 2*a + b", 12, [&] { return 2 * a + b; }, s, runs, batch));
  rows.push_back(time_expression(
      "sqrt(abs(2a+b)+1)*exp(-b)-a", 12, [&] { return sqrt(abs(2 * a + b) + 1) * exp(-b) - a; }, s,
      runs, batch));
  // The first expression again, after everything: a difference from its first time means the
  // timings were not steady.
  rows.push_back(time_expression(
      "c = 2*a + b (again, last)", 12, [&] { return 2 * a + b; }, s, runs, batch));
  // Check one result, so that a fast wrong kernel cannot pass for a fast one.
  Array c = 2 * a + b;
  std::vector<float> hc(static_cast<size_t>(n)), ha(hc.size()), hb(hc.size());
  c.read(hc.data(), hc.size() * 4);
  a.read(ha.data(), ha.size() * 4);
  b.read(hb.data(), hb.size() * 4);
  for (size_t i = 0; i < hc.size(); i += 997) {
    if (hc[i] != 2 * ha[i] + hb[i] && std::abs(hc[i] - (2 * ha[i] + hb[i])) > 1e-6f) {
      std::fprintf(stderr, "elementwise: wrong result at %zu\n", i);
      return 1;
    }
  }

  std::string md = bench::results_header("Fused elementwise kernels (vka::Array)", *ctx,
                                         bench::command_line(argc, argv));
  char line[256];
  std::snprintf(line, sizeof(line),
                "float32, %lld elements, median of %d runs of %d back-to-back evaluations, GPU "
                "timestamps, after 1 s of warm-up work and a 0.3 s warm-up per expression.\n\n"
                "| expression | kernels | time (ms) | effective GB/s |\n|---|---|---|---|\n",
                static_cast<long long>(n), runs, batch);
  md += line;
  for (const auto& r : rows) {
    std::snprintf(line, sizeof(line), "| `%s` | %llu | %.3f | %.0f |\n", r.name.c_str(),
                  static_cast<unsigned long long>(r.kernels_per_eval), r.ms,
                  r.bytes_per_element * n / (r.ms * 1e-3) / 1e9);
    md += line;
  }
  std::snprintf(line, sizeof(line),
                "\nFirst use of a new fused kernel in this process: %.1f ms (%llu shaderc "
                "compilation(s), pipeline creation, dispatch and wait).\n",
                first_use_ms, static_cast<unsigned long long>(compiles));
  md += line;
  std::cout << md;
  if (!out_path.empty()) std::ofstream(out_path) << md;
  return 0;
}
