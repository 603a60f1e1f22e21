// Views, writes and gathers through vka::Array, with a plain copy of the same array in the same
// process as the bandwidth limit: a strided slice feeding an elementwise kernel
// (A[::2, 1::2] + 1), one jacobi-2d step written with slices and assignment, and a gather of
// random int32 indices (the kernel alone, and take() with its bounds check). GPU timestamps
// around batches of back-to-back evaluations; the checked take is wall clock (it waits for a
// one-byte readback by design).
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
#include "runtime/realize.h"

namespace vka {
namespace {

struct Row {
  std::string name;
  double bytes;  // bytes the operation must move (reads + writes of the elements it uses)
  double ms;
  uint64_t kernels;
  std::string clock = "GPU";
};

uint64_t kernels() { return realize_stats().kernels; }

Row time_gpu(const std::string& name, double bytes, const std::function<void()>& work, Stream& s,
             int runs, int batch) {
  const bench::Timing t = bench::gpu_median(s, work, runs, batch, kernels);
  return {name, bytes, t.ms, t.count};
}

// Wall clock, for work that waits for the device itself.
Row time_wall(const std::string& name, double bytes, const std::function<void()>& work,
              Stream& s, int runs) {
  const bench::Timing t = bench::wall_median(s, work, runs, 0, kernels);
  return {name, bytes, t.ms, t.count, "wall"};
}

Array random_floats(int64_t n, Shape shape, uint32_t seed, const std::shared_ptr<Context>& ctx) {
  const std::vector<float> h = bench::uniform_floats(n, seed);
  return Array::from_host(h.data(), shape, DType::kFloat32, ctx);
}

}  // namespace
}  // namespace vka

int main(int argc, char** argv) {
  using namespace vka;
  const int64_t side = std::stoll(bench::flag(argc, argv, "side", "16384"));
  const int64_t jside = std::stoll(bench::flag(argc, argv, "jacobi-side", "8192"));
  const int64_t gather_src = std::stoll(bench::flag(argc, argv, "gather-source", "268435456"));
  const int64_t gather_n = std::stoll(bench::flag(argc, argv, "gather-count", "67108864"));
  const int runs = std::stoi(bench::flag(argc, argv, "runs", "20"));
  const int batch = std::stoi(bench::flag(argc, argv, "batch", "10"));
  const std::string out_path = bench::flag(argc, argv, "markdown", "");
  auto ctx = Context::create(bench::context_options(argc, argv));
  Stream& s = *ctx->replica(0).stream;
  std::vector<Row> rows;

  Array A = random_floats(side * side, {side, side}, 1, ctx);
  bench::warm_up(1.0, [&] {
    for (int i = 0; i < 10; ++i) copy(A).eval();
    s.finish();
  });
  const double full = 4.0 * side * side;
  rows.push_back(time_gpu("copy(A), the limit: plain copy of the " + std::to_string(side) + "² "
                          "float32 array", 2 * full, [&] { copy(A).eval(); }, s, runs, batch));
  // A[::2, 1::2] + 1: reads a quarter of the elements, writes a quarter.
  Array view = A[{range({}, {}, 2), range(1, {}, 2)}];
  rows.push_back(time_gpu("A[::2, 1::2] + 1", 2 * full / 4, [&] { (view + 1).eval(); }, s, runs,
                          batch));
  {  // Check the values once: a fast wrong kernel must not pass for a fast one.
    std::vector<float> ha = A.to_vector<float>(), hr = (view + 1).to_vector<float>();
    for (int64_t i = 0; i < side / 2; i += 97) {
      for (int64_t j = 0; j < side / 2; j += 89) {
        if (hr[i * (side / 2) + j] != ha[(2 * i) * side + 2 * j + 1] + 1) {
          std::fprintf(stderr, "indexing: wrong strided result at (%lld, %lld)\n",
                       static_cast<long long>(i), static_cast<long long>(j));
          return 1;
        }
      }
    }
  }
  A = Array();

  // One jacobi-2d step: reads A once, writes B's interior.
  Array JA = random_floats(jside * jside, {jside, jside}, 2, ctx);
  Array JB = random_floats(jside * jside, {jside, jside}, 3, ctx);
  JB[{0}].eval();  // B becomes storage before timing
  auto in = range(1, -1);
  auto step = [&] {
    JB.set({in, in}, 0.2f * (JA[{in, in}] + JA[{in, range({}, -2)}] + JA[{in, range(2, {})}] +
                             JA[{range(2, {}), in}] + JA[{range({}, -2), in}]));
  };
  const double jbytes = 4.0 * jside * jside + 4.0 * (jside - 2) * (jside - 2);
  rows.push_back(time_gpu("copy(A), the limit: plain copy of the " + std::to_string(jside) +
                              "² float32 array",
                          8.0 * jside * jside, [&] { copy(JA).eval(); }, s, runs, batch));
  rows.push_back(time_gpu("jacobi-2d step B[1:-1,1:-1] = 0.2*(5 slices of A)", jbytes, step, s,
                          runs, batch));
  {
    Array fa = reshape(JA, {-1});
    Array fb = reshape(JB, {-1});
    rows.push_back(time_gpu("B.ravel()[1:-1] = A.ravel()[2:] (1-d, misaligned: 4-byte accesses)", jbytes,
                            [&] { fb.set({range(1, -1)}, fa[{range(2, {})}] * 1.0f); }, s, runs,
                            batch));
  }
  rows.push_back(time_gpu("B[1:-1,1:-1] = A[1:-1,1:-1]", jbytes,
                          [&] { JB.set({in, in}, JA[{in, in}] * 1.0f); }, s, runs, batch));
  rows.push_back(time_gpu("B[1:-1,1:-1] = A[1:-1,:-2] + A[1:-1,2:]", jbytes,
                          [&] { JB.set({in, in}, JA[{in, range({}, -2)}] + JA[{in, range(2, {})}]); },
                          s, runs, batch));
  rows.push_back(time_gpu("B[1:-1,1:-1] = A[2:,1:-1] + A[:-2,1:-1]", jbytes,
                          [&] { JB.set({in, in}, JA[{range(2, {}), in}] + JA[{range({}, -2), in}]); },
                          s, runs, batch));
  JA = Array();
  JB = Array();

  // Gather: gather_n random int32 indices into gather_src float32 elements.
  Array X = random_floats(gather_src, {gather_src}, 4, ctx);
  std::vector<int32_t> hidx(static_cast<size_t>(gather_n));
  std::mt19937 rng(5);
  std::uniform_int_distribution<int32_t> pick(0, static_cast<int32_t>(gather_src - 1));
  for (auto& i : hidx) i = pick(rng);
  Array I = Array::from_host(hidx.data(), {gather_n}, DType::kInt32, ctx);
  const double gbytes = 12.0 * gather_n;  // index read, element read, result write
  rows.push_back(time_gpu("gather X[I] (kernel only, bounds already known)", gbytes,
                          [&] { gather(X, {I}, {0}, 0, /*checked=*/true).eval(); }, s, runs,
                          batch));
  rows.push_back(time_wall("take(X, I): bounds check + readback + gather", gbytes,
                           [&] { take(X, I).eval(); }, s, runs));
  {
    std::vector<float> hx = X.to_vector<float>(), hg = take(X, I).to_vector<float>();
    for (int64_t k = 0; k < gather_n; k += 1009) {
      if (hg[k] != hx[hidx[k]]) {
        std::fprintf(stderr, "indexing: wrong gather at %lld\n", static_cast<long long>(k));
        return 1;
      }
    }
  }

  std::string md = bench::results_header("Views, writes and gathers (vka::Array)", *ctx,
                                         bench::command_line(argc, argv));
  char line[512];
  std::snprintf(line, sizeof(line),
                "Median of %d runs of %d back-to-back evaluations (GPU timestamps), after 1 s of "
                "warm-up work and 0.3 s per row; `wall`: wall clock per call, including the "
                "wait.\n\n| operation | kernels | clock | time (ms) | GB/s of the bytes it "
                "must move |\n|---|---|---|---|---|\n",
                runs, batch);
  md += line;
  for (const Row& r : rows) {
    std::snprintf(line, sizeof(line), "| `%s` | %llu | %s | %.3f | %.0f |\n", r.name.c_str(),
                  static_cast<unsigned long long>(r.kernels), r.clock.c_str(), r.ms,
                  r.bytes / (r.ms * 1e-3) / 1e9);
    md += line;
  }
  std::cout << md;
  if (!out_path.empty()) std::ofstream(out_path) << md;
  return 0;
}
