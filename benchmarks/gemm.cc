// Matrix products through vka::matmul on one device: TFLOP/s of float32 and float16 (float32
// accumulation; each cooperative-matrix kernel of --coop) 4096³ and 8192³, and
// relu(A @ B + bias) (float32 4096³; the kernel count shows that the epilogue ran inside the
// GEMM kernel: 1 kernel per product). GPU timestamps around batches of back-to-back products;
// sampled elements of every result are checked against a float64 host sum (within the bound of
// docs/accuracy.md, "Matrix products") before a row is printed.
//
// --sizes 4096,8192 (the default) changes the sizes (float32 and float16 at each, the relu
// epilogue at the smallest).
// --coop old,new,128x128x32x4x2 (the default): where the device has float16 cooperative
// matrices, float16 runs under each of these cooperative-matrix kernels in turn (as
// $VKA_GEMM_COOP: "old" the 64 x 64 kernel, "new" the default pipelined tiling, or a tiling
// "bm x bn x bk x fm x fn"), one row each.
// --split-k 0 leaves out the few-tile, long-K products (split-K: the device's choice of
// split and none, float64 and float32 (4000, 2000).T @ (4000, 2000), float32 256 x 65536 @
// 65536 x 256); --split-k-div D divides their extents by D; --split-k-force S adds a row per
// product split into S ranges.
// The relu epilogue also runs unfused (the product, then its epilogue: 2 kernels).
// --sweep CONFIGS (comma-separated "bm x bn x bk x tm x tn", or "default" for a built-in list):
// times float32 --sweep-n³ under each tiling instead, one row each, best first, so that the
// tiling to record for the device can be chosen (VKA_GEMM_CONFIG sets it for later runs).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "array/array.h"
#include "base/errors.h"
#include "benchmarks/bench_util.h"
#include "device/stream.h"
#include "runtime/realize.h"

namespace vka {
namespace {

struct Row {
  std::string name;
  double flops;
  double ms;
  uint64_t kernels;
};

Row time_gpu(const std::string& name, double flops, const std::function<void()>& work,
             Stream& s, int runs, int batch) {
  const bench::Timing t =
      bench::gpu_median(s, work, runs, batch, [] { return realize_stats().kernels; });
  return {name, flops, t.ms, t.count};
}

// 64 sampled elements of c = f(a @ b) against float64 host sums; false (and a message) when
// one is outside gamma_k * sum |a||b| (+ the result's rounding for float16).
bool check(const char* what, const Array& c, const std::vector<float>& ha,
           const std::vector<float>& hb, int64_t n, bool half, const std::vector<float>* bias) {
  std::vector<float> got = (half ? c.astype(DType::kFloat32) : c).to_vector<float>();
  std::mt19937 gen(7);
  std::uniform_int_distribution<int64_t> pick(0, n - 1);
  const double u = std::ldexp(1.0, -24), gamma = n * u / (1 - n * u);
  for (int s = 0; s < 64; ++s) {
    const int64_t i = pick(gen), j = pick(gen);
    double exact = 0, mag = 0;
    for (int64_t k = 0; k < n; ++k) {
      const double p = double(ha[i * n + k]) * hb[k * n + j];
      exact += p;
      mag += std::abs(p);
    }
    double bound = gamma * mag;
    if (bias) {
      exact = std::max(0.0, exact + (*bias)[j]);
      bound += u * std::abs(exact) + 1e-30;
    }
    if (half) bound += std::ldexp(std::abs(exact), -11) + std::ldexp(1.0, -24);
    if (std::abs(got[i * n + j] - exact) > bound) {
      std::fprintf(stderr, "gemm: wrong %s at (%lld, %lld): %.9g, want %.9g (bound %.3g)\n",
                   what, static_cast<long long>(i), static_cast<long long>(j), got[i * n + j],
                   exact, bound);
      return false;
    }
  }
  return true;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// 64 sampled elements of c = x @ y against float64 host sums, x(i, q) and y(q, j) giving
// the operands' elements: false (and a message) when one is outside gamma_k * sum |x||y| for
// unit roundoff u (the unsplit bound, which covers split-K's, docs/accuracy.md).
bool check_general(const std::string& what, const Array& c, int64_t m, int64_t k, int64_t n,
                   const std::function<double(int64_t, int64_t)>& x,
                   const std::function<double(int64_t, int64_t)>& y, double u) {
  const std::vector<double> got = c.astype(DType::kFloat64).to_vector<double>();
  std::mt19937 gen(11);
  std::uniform_int_distribution<int64_t> pick_i(0, m - 1), pick_j(0, n - 1);
  const double gamma = k * u / (1 - k * u);
  for (int s = 0; s < 64; ++s) {
    const int64_t i = pick_i(gen), j = pick_j(gen);
    double exact = 0, mag = 0;
    for (int64_t q = 0; q < k; ++q) {
      const double p = x(i, q) * y(q, j);
      exact += p;
      mag += std::abs(p);
    }
    if (std::abs(got[i * n + j] - exact) > gamma * mag + 1e-300) {
      std::fprintf(stderr, "gemm: wrong %s at (%lld, %lld): %.17g, want %.17g\n", what.c_str(),
                   static_cast<long long>(i), static_cast<long long>(j), got[i * n + j], exact);
      return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace vka

int main(int argc, char** argv) {
  using namespace vka;
  const int runs = std::stoi(bench::flag(argc, argv, "runs", "10"));
  const int batch = std::stoi(bench::flag(argc, argv, "batch", "3"));
  const std::string out_path = bench::flag(argc, argv, "markdown", "");
  const std::string sweep = bench::flag(argc, argv, "sweep", "");
  const int64_t sweep_n = std::stoll(bench::flag(argc, argv, "sweep-n", "4096"));
  std::vector<int64_t> sizes;  // relu(A @ B + bias) runs at the smallest
  const std::vector<std::string> coop_kernels =
      split(bench::flag(argc, argv, "coop", "old,new,128x128x32x4x2"));
  for (const std::string& v : split(bench::flag(argc, argv, "sizes", "4096,8192"))) {
    sizes.push_back(std::stoll(v));
  }
  auto ctx = Context::create(bench::context_options(argc, argv));
  Stream& s = *ctx->replica(0).stream;
  std::vector<Row> rows;
  int failures = 0;

  auto operands = [&](int64_t n, std::vector<float>& ha, std::vector<float>& hb) {
    ha = bench::uniform_floats(n * n, 1, -1, 1);
    hb = bench::uniform_floats(n * n, 2, -1, 1);
    return std::make_pair(Array::from_host(ha.data(), {n, n}, DType::kFloat32, ctx),
                          Array::from_host(hb.data(), {n, n}, DType::kFloat32, ctx));
  };
  std::string title = "Matrix products (vka::matmul)";
  if (!sweep.empty()) {
    title = "GEMM tiling sweep, float32 " + std::to_string(sweep_n) + "³";
    const std::vector<std::string> configs =
        sweep == "default"
            ? std::vector<std::string>{"128x128x8x8x8", "128x128x16x8x8", "128x64x8x8x4",
                                       "64x128x8x4x8", "64x64x8x4x4", "64x64x16x4x4",
                                       "128x128x8x4x8", "256x128x8x8x8", "128x256x8x8x8",
                                       "128x128x32x8x8", "32x32x8x2x2"}
            : split(sweep);
    std::vector<float> ha, hb;
    auto [a, b] = operands(sweep_n, ha, hb);
    const double flops = 2.0 * sweep_n * sweep_n * sweep_n;
    for (const std::string& text : configs) {
      try {
        set_gemm_config(parse_gemm_config(text));
        Row r = time_gpu(text, flops, [&] { matmul(a, b).eval(); }, s, runs, batch);
        if (!check(text.c_str(), matmul(a, b), ha, hb, sweep_n, false, nullptr)) ++failures;
        rows.push_back(r);
      } catch (const Error& e) {
        std::fprintf(stderr, "gemm: tiling %s skipped: %s\n", text.c_str(), e.what());
      }
    }
    set_gemm_config(std::nullopt);
    std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.ms < y.ms; });
  } else {
    for (int64_t n : sizes) {
      std::vector<float> ha, hb;
      auto [a, b] = operands(n, ha, hb);
      const double flops = 2.0 * n * n * n;
      const std::string dims = std::to_string(n) + "³";
      bench::warm_up(1.0, [&] {
        matmul(a, b).eval();
        s.finish();
      });
      rows.push_back(time_gpu("float32 " + dims + " (tiling " +
                                  to_string(gemm_config(ctx, DType::kFloat32)) + ")",
                              flops, [&] { matmul(a, b).eval(); }, s, runs, batch));
      if (!check("float32", matmul(a, b), ha, hb, n, false, nullptr)) ++failures;
      {
        Array a16 = a.astype(DType::kFloat16).eval(), b16 = b.astype(DType::kFloat16).eval();
        // The host reference uses the float16-rounded operands.
        std::vector<float> ra = a16.astype(DType::kFloat32).to_vector<float>();
        std::vector<float> rb = b16.astype(DType::kFloat32).to_vector<float>();
        const bool coop = gemm_uses_cooperative_matrix(ctx, DType::kFloat16);
        // Each cooperative-matrix kernel of --coop in turn (where the device has them).
        for (const std::string& kernel : coop ? coop_kernels : std::vector<std::string>{""}) {
          std::string how = "tiling " + to_string(gemm_config(ctx, DType::kFloat16));
          try {
            if (coop) {
              set_gemm_coop(parse_gemm_coop(kernel));
              how = "cooperative matrices, kernel " + gemm_coop_kernel(ctx);
            }
            bench::warm_up(0.5, [&] {
              matmul(a16, b16).eval();
              s.finish();
            });
            rows.push_back(time_gpu("float16 " + dims + ", float32 accumulation (" + how + ")",
                                    flops, [&] { matmul(a16, b16).eval(); }, s, runs, batch));
            if (!check(("float16 " + how).c_str(), matmul(a16, b16), ra, rb, n, true,
                       nullptr)) {
              ++failures;
            }
          } catch (const Error& e) {
            std::fprintf(stderr, "gemm: float16 kernel %s skipped: %s\n", kernel.c_str(),
                         e.what());
          }
        }
        set_gemm_coop(std::nullopt);
      }
      if (n == sizes.front()) {
        std::vector<float> hbias = bench::uniform_floats(n, 3, -1, 1);
        Array bias = Array::from_host(hbias.data(), {n}, DType::kFloat32, ctx);
        rows.push_back(time_gpu("relu(A @ B + bias) (fused epilogue), float32 " + dims, flops,
                                [&] { maximum(matmul(a, b) + bias, 0.0f).eval(); }, s, runs,
                                batch));
        if (!check("relu(A@B+bias)", maximum(matmul(a, b) + bias, 0.0f), ha, hb, n, false,
                   &hbias)) {
          ++failures;
        }
        // The same as two kernels: the product written, then relu(P + bias) over it.
        rows.push_back(time_gpu("relu(A @ B + bias) (unfused: product, then epilogue), float32 " +
                                    dims,
                                flops,
                                [&] {
                                  Array p = matmul(a, b).eval();
                                  maximum(p + bias, 0.0f).eval();
                                },
                                s, runs, batch));
      }
    }
  }
  // Few output tiles and a long K (split-K, runtime/gemm_split.h): correlation's
  // centred.T @ centred with centred (4000, 2000), and 256 x 65536 @ 65536 x 256, each with
  // the device's choice of split and with set_gemm_split(1) (never split). A split product
  // shows 2 kernels.
  if (sweep.empty() && bench::flag(argc, argv, "split-k", "1") == "1") {
    struct Case {
      std::string name;
      DType t;
      int64_t m, k, n;
      bool transposed;  // A is the (k, m) array read transposed
    };
    // --split-k-div D divides every extent by D (a quick run on a CPU driver).
    const int64_t d = std::stoll(bench::flag(argc, argv, "split-k-div", "1"));
    const int force = std::stoi(bench::flag(argc, argv, "split-k-force", "0"));
    const int64_t w = 2000 / d, h = 4000 / d, e = 256 / d, l = 65536 / d;
    auto text = [](int64_t v) { return std::to_string(v); };
    const std::string tall = "(" + text(h) + ", " + text(w) + ")";
    const std::vector<Case> cases = {
        {"float64 " + tall + ".T @ " + tall, DType::kFloat64, w, h, w, true},
        {"float32 " + tall + ".T @ " + tall, DType::kFloat32, w, h, w, true},
        {"float32 " + text(e) + " x " + text(l) + " @ " + text(l) + " x " + text(e),
         DType::kFloat32, e, l, e, false}};
    for (const Case& c : cases) {
      const std::vector<float> fa = bench::uniform_floats(c.m * c.k, 4, -1, 1);
      const std::vector<float> fb = bench::uniform_floats(c.k * c.n, 5, -1, 1);
      const Array a32 = c.transposed
                            ? Array::from_host(fa.data(), {c.k, c.m}, DType::kFloat32, ctx)
                            : Array::from_host(fa.data(), {c.m, c.k}, DType::kFloat32, ctx);
      const Array a = a32.astype(c.t).eval();
      // centred.T @ centred reads one array twice; the other case has its own B.
      const Array b = c.transposed
                          ? a
                          : Array::from_host(fb.data(), {c.k, c.n}, DType::kFloat32, ctx)
                                .astype(c.t)
                                .eval();
      const Array lhs = c.transposed ? transpose(a) : a;
      auto x = [&](int64_t i, int64_t q) -> double {
        return c.transposed ? fa[q * c.m + i] : fa[i * c.k + q];
      };
      auto y = [&](int64_t q, int64_t j) -> double {
        return c.transposed ? fa[q * c.n + j] : fb[q * c.n + j];
      };
      const double flops = 2.0 * c.m * c.k * c.n;
      const double u = std::ldexp(1.0, c.t == DType::kFloat64 ? -53 : -24);
      // 0: the device's choice; then none (1), then --split-k-force's count if given.
      std::vector<int> choices = {0, 1};
      if (force > 1) choices.push_back(force);
      for (int choice : choices) {
        if (choice > 0) set_gemm_split(choice);
        const std::string name = c.name + (choice == 0   ? " (device's split)"
                                           : choice == 1 ? " (no split)"
                                                         : " (split " + text(choice) + ")");
        bench::warm_up(0.5, [&] {
          matmul(lhs, b).eval();
          s.finish();
        });
        rows.push_back(time_gpu(name, flops, [&] { matmul(lhs, b).eval(); }, s, runs, batch));
        if (!check_general(name, matmul(lhs, b), c.m, c.k, c.n, x, y, u)) ++failures;
        set_gemm_split(std::nullopt);
      }
    }
  }
  if (failures) return 1;

  std::string md = bench::results_header(title, *ctx, bench::command_line(argc, argv));
  char line[512];
  std::snprintf(line, sizeof(line),
                "Median of %d runs of %d back-to-back products (GPU timestamps), after warm-up. "
                "TFLOP/s counts 2mkn operations.\n\n| operation | kernels | time (ms) | "
                "TFLOP/s |\n|---|---|---|---|\n",
                runs, batch);
  md += line;
  for (const Row& r : rows) {
    std::snprintf(line, sizeof(line), "| `%s` | %llu | %.3f | %.2f |\n", r.name.c_str(),
                  static_cast<unsigned long long>(r.kernels), r.ms,
                  r.flops / (r.ms * 1e-3) / 1e12);
    md += line;
  }
  std::cout << md;
  if (!out_path.empty()) std::ofstream(out_path) << md;
  return 0;
}
