// Split-K GEMM launches (runtime/gemm_split.h): the split count (override, variable, heuristic,
// caps), the K ranges, and products split into ranges against host products of small
// integers (exact in every dtype used), with their kernel counts.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "array/array.h"
#include "base/errors.h"
#include "runtime/gemm_split.h"
#include "schedule/gemm.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using testing::kernels;

std::vector<double> ints(int64_t n, int lo, int hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<double> v(static_cast<size_t>(n));
  for (auto& x : v) x = dist(gen);
  return v;
}

Array upload(const std::vector<double>& v, Shape shape, DType t) {
  return Array::from_host(v.data(), shape, DType::kFloat64).astype(t).eval();
}

KernelSpec spec_of(DType t) {
  KernelSpec s;
  s.kind = KernelKind::kGemm;
  s.inputs = {Accessor{t, Layout::kContiguous}, Accessor{t, Layout::kContiguous}};
  s.outputs = {Accessor{t, Layout::kContiguous}};
  s.gemm.bm = s.gemm.bn = 32;
  s.gemm.bk = 8;
  s.gemm.tm = s.gemm.tn = 4;
  return s;
}

struct SplitOverride {
  explicit SplitOverride(std::optional<int> s) { set_gemm_split(s); }
  ~SplitOverride() { set_gemm_split(std::nullopt); }
};

TEST(GemmSplitTest, Counts) {
  auto ctx = Context::default_context();
  const KernelSpec f32 = spec_of(DType::kFloat32);
  const Caps& caps = ctx->device(0).caps();
  if (caps.is_cpu) {  // lavapipe: the heuristic never splits on a CPU device
    EXPECT_EQ(gemm_splits(ctx, f32, 64, 64, 1 << 20, 1), 1);
  } else {
    // 4 tiles of 32 x 32 and K = 2^20: about 4 workgroups per compute unit, at most
    // kMaxSplits ranges of at least kMinSplitK.
    const int64_t units = caps.sm_count > 0 ? caps.sm_count : kAssumedComputeUnits;
    EXPECT_EQ(gemm_splits(ctx, f32, 64, 64, 1 << 20, 1), std::min<int64_t>(units, kMaxSplits));
    EXPECT_EQ(gemm_splits(ctx, f32, 64, 64, 1000, 1), 1000 / kMinSplitK);
    EXPECT_EQ(gemm_splits(ctx, f32, 64, 64, kMinSplitK, 1), 1);  // K too short to split
    EXPECT_EQ(gemm_splits(ctx, f32, 32 * 64, 32 * 64, 1 << 20, 1), 1);  // tiles enough
  }
  {
    SplitOverride o(5);
    EXPECT_EQ(gemm_splits(ctx, f32, 64, 64, 3, 2), 5);  // K < S: empty ranges are kept
    // At most 2^31 - 1 partial elements, and one binding's worth of bytes.
    const uint64_t range = ctx->device(0).caps().max_storage_buffer_range;
    const int64_t fit = static_cast<int64_t>(range / (uint64_t{4096} * 4096 * 4));
    EXPECT_EQ(gemm_splits(ctx, f32, 4096, 4096, 4, 1),
              std::max<int64_t>(1, std::min<int64_t>(5, fit)));
    EXPECT_EQ(gemm_splits(ctx, spec_of(DType::kInt8), 32768, 32768, 4, 1), 1);  // 2^30 each
    const int64_t big = static_cast<int64_t>(range / 8 / 3);  // complex128 partials: 16 bytes
    EXPECT_EQ(gemm_splits(ctx, spec_of(DType::kComplex128), big, 1, 4, 1), 1);
    KernelSpec coop = f32;
    coop.gemm.coop = true;
    EXPECT_EQ(gemm_splits(ctx, coop, 64, 64, 4096, 1), 1);
  }
  setenv("VKA_GEMM_SPLIT", "3", 1);
  EXPECT_EQ(gemm_splits(ctx, f32, 64, 64, 100, 1), 3);
  {
    SplitOverride o(1);  // the call wins over the variable
    EXPECT_EQ(gemm_splits(ctx, f32, 64, 64, 100, 1), 1);
  }
  setenv("VKA_GEMM_SPLIT", "x3", 1);
  EXPECT_THROW(gemm_splits(ctx, f32, 64, 64, 100, 1), ShapeError);
  unsetenv("VKA_GEMM_SPLIT");
  EXPECT_THROW(set_gemm_split(0), ShapeError);
  EXPECT_THROW(set_gemm_split(65537), ShapeError);
  // Ranges: ceil(K / S) rounded up to whole K slices.
  EXPECT_EQ(gemm_split_range(100, 3, 8), 40);
  EXPECT_EQ(gemm_split_range(1, 7, 8), 8);
  EXPECT_EQ(gemm_split_range(4000, 5, 8), 800);
}

TEST(GemmSplitTest, ProductsAndEpilogues) {
  for (DType t :
       {DType::kFloat32, DType::kInt8, DType::kUInt64, DType::kComplex128, DType::kBool}) {
    for (int s : {2, 9}) {
      const int64_t batch = 2, m = 35, k = 50, n = 33;
      const int lo = t == DType::kBool || t == DType::kUInt64 ? 0 : -3;
      const auto a = ints(batch * m * k, lo, 3, 1), b = ints(k * n, lo, 3, 2);
      const auto bias = ints(n, lo, 3, 3);
      const Array A = upload(a, {batch, m, k}, t), B = upload(b, {k, n}, t);
      const Array Bias = upload(bias, {n}, t);
      SplitOverride o(s);
      uint64_t before = kernels();
      Array p = matmul(A, B);
      p.eval();
      EXPECT_EQ(kernels() - before, 2u);
      before = kernels();
      Array y = t == DType::kBool ? logical_xor(matmul(A, B), Bias) : matmul(A, B) + Bias;
      y.eval();
      EXPECT_EQ(kernels() - before, 2u);  // the epilogue runs in the combining kernel
      const std::vector<double> gp = p.astype(DType::kFloat64).to_vector<double>();
      const std::vector<double> gy = y.astype(DType::kFloat64).to_vector<double>();
      for (int64_t z = 0; z < batch; ++z)
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double c = 0;
            for (int64_t q = 0; q < k; ++q) c += a[(z * m + i) * k + q] * b[q * n + j];
            double want = c, want_y = c + bias[j];
            if (t == DType::kInt8) {
              want = static_cast<int8_t>(static_cast<int64_t>(c));
              want_y = static_cast<int8_t>(static_cast<int64_t>(want + bias[j]));
            }
            if (t == DType::kBool) {
              want = c != 0;
              want_y = (c != 0) != (bias[j] != 0);
            }
            const int64_t at = (z * m + i) * n + j;
            ASSERT_EQ(gp[at], want) << name(t) << " s=" << s << " " << z << " " << i << " " << j;
            ASSERT_EQ(gy[at], want_y) << name(t) << " s=" << s << " " << z << " " << i;
          }
    }
  }
}

}  // namespace
}  // namespace vka
