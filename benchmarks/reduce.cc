// Reductions through vka::Array on one device, with a plain copy of the same array as the
// bandwidth limit (a reduction reads its bytes once): sum of 2^28 float32, row and column sums
// of a 16384² array, the fused sum(a*b), and max/argmax/mean/var of the 2^28 array. GPU
// timestamps around batches of back-to-back evaluations; every result is checked against a
// float64 host sum before its row is printed.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "array/array.h"
#include "array/reduce.h"
#include "array/views.h"
#include "benchmarks/bench_util.h"
#include "device/stream.h"
#include "runtime/realize.h"

namespace vka {
namespace {

struct Row {
  std::string name;
  double bytes;  // bytes the operation must read (and write)
  double ms;
  uint64_t kernels;
};

Row time_gpu(const std::string& name, double bytes, const std::function<void()>& work, Stream& s,
             int runs, int batch) {
  const bench::Timing t =
      bench::gpu_median(s, work, runs, batch, [] { return realize_stats().kernels; });
  return {name, bytes, t.ms, t.count};
}

// |got - want| within `rel` of the sum of magnitudes (the values are positive here).
bool close(double got, double want, double rel) {
  return std::abs(got - want) <= rel * std::abs(want) + 1e-30;
}

}  // namespace
}  // namespace vka

int main(int argc, char** argv) {
  using namespace vka;
  const int64_t n = std::stoll(bench::flag(argc, argv, "n", "268435456"));
  const int64_t side = std::stoll(bench::flag(argc, argv, "side", "16384"));
  const int runs = std::stoi(bench::flag(argc, argv, "runs", "20"));
  const int batch = std::stoi(bench::flag(argc, argv, "batch", "10"));
  const std::string out_path = bench::flag(argc, argv, "markdown", "");
  auto ctx = Context::create(bench::context_options(argc, argv));
  Stream& s = *ctx->replica(0).stream;
  std::vector<Row> rows;
  int failures = 0;
  auto check = [&](const char* what, double got, double want) {
    if (!close(got, want, 1e-5)) {
      std::fprintf(stderr, "reduce: wrong %s: %.9g, want %.9g\n", what, got, want);
      ++failures;
    }
  };

  const std::vector<float> ha = bench::uniform_floats(n, 1, 0, 1);
  const std::vector<float> hb = bench::uniform_floats(n, 2, 0, 1);
  Array a = Array::from_host(ha.data(), {n}, DType::kFloat32, ctx);
  Array b = Array::from_host(hb.data(), {n}, DType::kFloat32, ctx);
  double sa = 0, sab = 0;
  for (int64_t i = 0; i < n; ++i) {
    sa += ha[i];
    sab += static_cast<double>(ha[i]) * hb[i];
  }
  bench::warm_up(1.0, [&] {
    for (int i = 0; i < 10; ++i) copy(a).eval();
    s.finish();
  });
  const double bytes = 4.0 * n;
  rows.push_back(time_gpu(
      "copy(a), the limit (reads and writes 2^" + std::to_string(static_cast<int>(std::log2(n))) +
          " float32)",
      2 * bytes, [&] { copy(a).eval(); }, s, runs, batch));
  rows.push_back(time_gpu(
      "sum(a)", bytes, [&] { sum(a).eval(); }, s, runs, batch));
  check("sum(a)", sum(a).to_vector<float>()[0], sa);
  rows.push_back(time_gpu(
      "sum(a * b), fused", 2 * bytes, [&] { sum(a * b).eval(); }, s, runs, batch));
  check("sum(a*b)", sum(a * b).to_vector<float>()[0], sab);
  rows.push_back(time_gpu(
      "a * b then sum, unfused (a temporary, as CuPy's (a*b).sum())", 4 * bytes,
      [&] { sum((a * b).eval()).eval(); }, s, runs, batch));
  rows.push_back(time_gpu(
      "max(a)", bytes, [&] { max(a).eval(); }, s, runs, batch));
  rows.push_back(time_gpu(
      "argmax(a)", bytes, [&] { argmax(a).eval(); }, s, runs, batch));
  rows.push_back(time_gpu(
      "mean(a)", bytes, [&] { mean(a).eval(); }, s, runs, batch));
  rows.push_back(time_gpu(
      "var(a) (two reductions)", 2 * bytes, [&] { var(a).eval(); }, s, runs, batch));
  b = Array();

  Array A = reshape(a, {n / side, side});  // side columns, n / side rows
  const int64_t rows_n = n / side;
  rows.push_back(time_gpu(
      "sum(A, axis=0): column sums of " + std::to_string(rows_n) + "×" + std::to_string(side),
      bytes, [&] { sum(A, 0).eval(); }, s, runs, batch));
  rows.push_back(time_gpu(
      "sum(A, axis=1): row sums of " + std::to_string(rows_n) + "×" + std::to_string(side), bytes,
      [&] { sum(A, 1).eval(); }, s, runs, batch));
  {
    std::vector<float> c0 = sum(A, 0).to_vector<float>(), r1 = sum(A, 1).to_vector<float>();
    for (int64_t j = 0; j < side; j += 997) {
      double want = 0;
      for (int64_t i = 0; i < rows_n; ++i) want += ha[i * side + j];
      check("column sum", c0[j], want);
    }
    for (int64_t i = 0; i < rows_n; i += 991) {
      double want = 0;
      for (int64_t j = 0; j < side; ++j) want += ha[i * side + j];
      check("row sum", r1[i], want);
    }
  }
  if (failures) return 1;

  std::string md =
      bench::results_header("Reductions (vka::Array)", *ctx, bench::command_line(argc, argv));
  char line[512];
  std::snprintf(line, sizeof(line),
                "Median of %d runs of %d back-to-back evaluations (GPU timestamps), after 1 s of "
                "warm-up work and 0.3 s per row. GB/s counts the bytes each operation must move "
                "(a reduction: its input, read once); %% of limit compares with the copy's "
                "GB/s.\n\n| operation | kernels | time (ms) | GB/s | %% of limit |\n"
                "|---|---|---|---|---|\n",
                runs, batch);
  md += line;
  const double limit = rows[0].bytes / (rows[0].ms * 1e-3) / 1e9;
  for (const Row& r : rows) {
    const double gbs = r.bytes / (r.ms * 1e-3) / 1e9;
    std::snprintf(line, sizeof(line), "| `%s` | %llu | %.3f | %.0f | %.0f%% |\n", r.name.c_str(),
                  static_cast<unsigned long long>(r.kernels), r.ms, gbs, 100 * gbs / limit);
    md += line;
  }
  std::cout << md;
  if (!out_path.empty()) std::ofstream(out_path) << md;
  return 0;
}
