// Elementwise epilogues fused into the GEMM kernel: relu(A @ B + bias) and
// alpha * A @ B + beta * C run as one kernel; products read by anything else are written
// first. Values against host products of small integers (exact in every dtype used).
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "array/array.h"
#include "array/reduce.h"
#include "array/views.h"
#include "schedule/gemm.h"
#include "schedule/schedule.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using testing::kernels;

// Small integers in [lo, hi], as doubles (exact in float16 products of short sums too).
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

// Row-major (batch, m, k) @ (batch, k, n) on the host.
std::vector<double> host_matmul(const std::vector<double>& a, const std::vector<double>& b,
                                int64_t batch, int64_t m, int64_t k, int64_t n) {
  std::vector<double> c(static_cast<size_t>(batch * m * n), 0.0);
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t p = 0; p < k; ++p)
          c[(z * m + i) * n + j] += a[(z * m + i) * k + p] * b[(z * k + p) * n + j];
  return c;
}

std::vector<double> values(const Array& x) { return x.astype(DType::kFloat64).to_vector<double>(); }

// The schedule alone (no device): the epilogue's tape, bindings and slots.
TEST(EpilogueSchedule, ReaderBecomesTheEpilogue) {
  Graph g;
  auto leaf = [&g](Shape s) {
    return g.buffer(std::make_shared<BufferRef>(), DType::kFloat32, View::contiguous(s));
  };
  GemmSpec tiling;
  tiling.bm = tiling.bn = 32;
  tiling.bk = 8;
  tiling.tm = tiling.tn = 4;
  tiling.vec4 = true;
  NodePtr a = leaf({1, 6, 4}), b = leaf({1, 4, 5}), bias = leaf({5});
  NodePtr p = g.matmul(a, b, {6, 5}, MatmulInfo{tiling.a_m_fast, tiling.b_n_fast});
  Limits limits;
  limits.gemm_tiling = [&tiling](DType, MatmulInfo) { return tiling; };
  NodePtr y = g.elementwise(Op::kMaximum, DType::kFloat32,
                            {g.elementwise(Op::kAdd, DType::kFloat32, {p, bias}),
                             g.full(Scalar::of_double(0).astype(DType::kFloat32), {6, 5})});
  Schedule s = schedule({y}, limits);
  ASSERT_EQ(s.kernels.size(), 1u) << s.to_string();
  const ScheduledKernel& k = s.kernels[0];
  EXPECT_EQ(k.spec.kind, KernelKind::kGemm);
  EXPECT_EQ(k.spec.gemm, tiling);
  ASSERT_EQ(k.inputs.size(), 3u);  // A, B, bias
  EXPECT_EQ(k.inputs[0], a);
  EXPECT_EQ(k.inputs[1], b);
  EXPECT_EQ(k.inputs[2], bias);
  EXPECT_EQ(k.outputs, std::vector<NodePtr>{y});
  int products = 0;
  for (const TapeEntry& e : k.spec.tape) products += e.op == Op::kMatmul;
  EXPECT_EQ(products, 1);
  EXPECT_EQ(k.spec.slots.size(), 6u);  // 5 GEMM slots, then the constant 0
  EXPECT_NE(k.spec.name().find("_ep"), std::string::npos);

  // The epilogue stages one register row of the tile (8 x 32 floats) beside the tiles.
  EXPECT_EQ(gemm_shared_bytes(k.spec), 8u * (36 + 36) * 4 + 8 * 32 * 4);
  EXPECT_EQ(gemm_shared_bytes(gemm_kernel(p, tiling).spec), 8u * (36 + 36) * 4);
  // A device whose shared memory holds the tiles but not the staged row: not fused.
  Limits small = limits;
  small.max_shared_bytes = gemm_shared_bytes(gemm_kernel(p, tiling).spec);
  Schedule apart = schedule({y}, small);
  ASSERT_EQ(apart.kernels.size(), 2u) << apart.to_string();
  EXPECT_TRUE(apart.kernels[0].spec.tape.empty());

  // Requested itself, the product is written and its reader runs after it.
  Schedule both = schedule({p, y}, limits);
  ASSERT_EQ(both.kernels.size(), 2u) << both.to_string();
  EXPECT_TRUE(both.kernels[0].spec.tape.empty());
  EXPECT_EQ(both.kernels[1].spec.kind, KernelKind::kElementwise);
}

TEST(EpilogueTest, ReluOfProductPlusBiasIsOneKernel) {
  for (DType t : {DType::kFloat32, DType::kFloat64, DType::kFloat16, DType::kInt32}) {
    const int64_t m = 33, k = 17, n = 45;
    const auto a = ints(m * k, -3, 3, 1), b = ints(k * n, -3, 3, 2), bias = ints(n, -20, 20, 3);
    const Array A = upload(a, {m, k}, t), B = upload(b, {k, n}, t), Bias = upload(bias, {n}, t);
    const uint64_t before = kernels();
    Array y = maximum(matmul(A, B) + Bias, 0);
    y.eval();
    // float16 products on cooperative matrices are not fused (docs/user_guide.md).
    const bool coop = t == DType::kFloat16 && A.context()->device(0).caps().cooperative_matrix_f16;
    EXPECT_EQ(kernels() - before, coop ? 2u : 1u) << name(t);
    EXPECT_EQ(y.dtype(), t);
    const auto c = host_matmul(a, b, 1, m, k, n);
    const auto got = values(y);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        ASSERT_EQ(got[i * n + j], std::max(0.0, c[i * n + j] + bias[j])) << name(t) << i << j;
  }
}

TEST(EpilogueTest, AlphaProductPlusBetaCIsOneKernel) {
  const int64_t m = 70, k = 9, n = 65;
  const auto a = ints(m * k, -4, 4, 4), b = ints(k * n, -4, 4, 5), c0 = ints(m * n, -9, 9, 6);
  const Array A = upload(a, {m, k}, DType::kFloat64), B = upload(b, {k, n}, DType::kFloat64);
  // C read through a transposed view: a strided epilogue operand.
  std::vector<double> ct(c0.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) ct[j * m + i] = c0[i * n + j];
  const Array C = transpose(upload(ct, {n, m}, DType::kFloat64));
  const uint64_t before = kernels();
  Array y = 2.5 * matmul(A, B) + (-0.5) * C;
  y.eval();
  EXPECT_EQ(kernels() - before, 1u);
  const auto p = host_matmul(a, b, 1, m, k, n);
  const auto got = values(y);
  for (size_t i = 0; i < p.size(); ++i) ASSERT_EQ(got[i], 2.5 * p[i] - 0.5 * c0[i]) << i;
}

TEST(EpilogueTest, BatchedTransposedOperandsAndBroadcastEpilogueInputs) {
  const int64_t batch = 3, m = 9, k = 5, n = 11;
  // A stored as (batch, k, m) and read transposed; B (k, n) broadcast over the batch.
  const auto at = ints(batch * k * m, -5, 5, 7), b = ints(k * n, -5, 5, 8);
  const auto bias = ints(batch * n, -9, 9, 9);
  const Array A = permute_dims(upload(at, {batch, k, m}, DType::kInt64), {0, 2, 1});
  const Array B = upload(b, {k, n}, DType::kInt64);
  const Array Bias = upload(bias, {batch, 1, n}, DType::kInt64);
  const uint64_t before = kernels();
  Array y = matmul(A, B) * 3 - Bias;
  y.eval();
  EXPECT_EQ(kernels() - before, 1u);
  ASSERT_EQ(y.shape(), (Shape{batch, m, n}));
  std::vector<double> a(at.size()), bb;
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p) a[(z * m + i) * k + p] = at[(z * k + p) * m + i];
  for (int64_t z = 0; z < batch; ++z) bb.insert(bb.end(), b.begin(), b.end());
  const auto c = host_matmul(a, bb, batch, m, k, n);
  const auto got = values(y);
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t at_ = (z * m + i) * n + j;
        ASSERT_EQ(got[at_], 3 * c[at_] - bias[z * n + j]) << z << " " << i << " " << j;
      }
}

TEST(EpilogueTest, SmallIntegersWrapBeforeTheEpilogue) {
  // int8 products wrap to int8 (numpy's), then the epilogue adds in int8 and wraps again.
  const int64_t m = 7, k = 30, n = 6;
  const auto a = ints(m * k, -100, 100, 10), b = ints(k * n, -100, 100, 11);
  const auto bias = ints(n, -100, 100, 12);
  const Array A = upload(a, {m, k}, DType::kInt8), B = upload(b, {k, n}, DType::kInt8);
  const Array Bias = upload(bias, {n}, DType::kInt8);
  const uint64_t before = kernels();
  Array y = matmul(A, B) + Bias;
  Array positive = matmul(A, B) > 0;  // a bool epilogue output
  eval(y, positive);
  EXPECT_EQ(kernels() - before, 1u);  // one GEMM, two epilogue outputs
  const auto c = host_matmul(a, b, 1, m, k, n);
  const auto got = values(y), pos = values(positive);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int8_t p = static_cast<int8_t>(static_cast<int64_t>(c[i * n + j]));
      ASSERT_EQ(got[i * n + j], static_cast<int8_t>(p + static_cast<int8_t>(bias[j])));
      ASSERT_EQ(pos[i * n + j], p > 0 ? 1.0 : 0.0);
    }
}

TEST(EpilogueTest, ProductUsedTwiceIsWrittenOnce) {
  const int64_t m = 12, k = 8, n = 10;
  const auto a = ints(m * k, -3, 3, 13), b = ints(k * n, -3, 3, 14);
  const Array A = upload(a, {m, k}, DType::kFloat64), B = upload(b, {k, n}, DType::kFloat64);
  const Array P = matmul(A, B);
  Array y = P + sum(P);
  y.eval();
  const auto c = host_matmul(a, b, 1, m, k, n);
  double total = 0;
  for (double v : c) total += v;
  const auto got = values(y);
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(got[i], c[i] + total) << i;
}

TEST(EpilogueTest, ProductsThatDoNotFuse) {
  const int64_t m = 6, k = 4, n = 5;
  const auto a = ints(m * k, -3, 3, 15), b = ints(k * n, -3, 3, 16);
  const Array A = upload(a, {m, k}, DType::kFloat32), B = upload(b, {k, n}, DType::kFloat32);
  const auto c = host_matmul(a, b, 1, m, k, n);
  // A reader of a larger (broadcast) shape: the product is written, the reader runs after.
  const Array ones2 = full({2, m, n}, Scalar::of_double(1).astype(DType::kFloat32));
  Array wide = matmul(A, B) + ones2;
  uint64_t before = kernels();
  wide.eval();
  EXPECT_EQ(kernels() - before, 2u);
  const auto got = values(wide);
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], c[i % c.size()] + 1) << i;
  // A product that is itself requested is written, and its reader computed from it.
  Array p = matmul(A, B);
  Array q = p * 2;
  before = kernels();
  eval(p, q);
  EXPECT_EQ(kernels() - before, 2u);
  const auto gp = values(p), gq = values(q);
  for (size_t i = 0; i < c.size(); ++i) {
    ASSERT_EQ(gp[i], c[i]);
    ASSERT_EQ(gq[i], 2 * c[i]);
  }
  // A plain product is one kernel; a view of a lazy product computes it once.
  Array v = matmul(A, B);
  before = kernels();
  Array vt = transpose(v);
  EXPECT_EQ(kernels() - before, 1u);
  const auto gv = values(vt);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) ASSERT_EQ(gv[j * m + i], c[i * n + j]);
}

TEST(EpilogueTest, VectorOperandsAndScalarResults) {
  const int64_t k = 13, n = 7;
  const auto a = ints(k, -3, 3, 17), b = ints(k * n, -3, 3, 18);
  const Array A = upload(a, {k}, DType::kFloat32), B = upload(b, {k, n}, DType::kFloat32);
  const uint64_t before = kernels();
  Array row = matmul(A, B) - 1;  // (n,)
  Array dot = matmul(A, A) * 2;  // 0-d
  eval(row, dot);
  // Matrix-vector products are fused reductions sum(A * x) (array/matmul.cc), not GEMMs:
  // their elementwise consumers run as one more kernel each.
  EXPECT_EQ(kernels() - before, 4u);
  const auto c = host_matmul(a, b, 1, 1, k, n);
  const auto got = values(row);
  for (int64_t j = 0; j < n; ++j) ASSERT_EQ(got[j], c[j] - 1);
  double s = 0;
  for (double x : a) s += x * x;
  ASSERT_EQ(dot.ndim(), 0);
  EXPECT_EQ(values(dot)[0], 2 * s);
}

}  // namespace
}  // namespace vka
