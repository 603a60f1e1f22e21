// matmul on the device against products worked out on the host: exact for integers (with
// numpy's wrap-around) and bool, within the accumulation bound for floating point; numpy's
// operand rules and errors; operands read in place; every tiling gives the same results.
#include <cmath>
#include <complex>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "array/array.h"
#include "array/reduce.h"
#include "base/errors.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using testing::kernels;
using testing::random_floats;
using testing::random_ints;
using testing::upload;

// C = A @ B for row-major host matrices, in wrapping uint64 arithmetic.
std::vector<int64_t> host_matmul(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                 int64_t m, int64_t k, int64_t n) {
  std::vector<int64_t> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      uint64_t s = 0;
      for (int64_t p = 0; p < k; ++p) s += uint64_t(a[i * k + p]) * uint64_t(b[p * n + j]);
      c[i * n + j] = static_cast<int64_t>(s);
    }
  }
  return c;
}

// Shapes (m, k, n): single rows and columns, sizes off the tile multiples, several tiles.
const std::vector<std::array<int64_t, 3>> kShapes = {
    {1, 1, 1}, {1, 70, 1}, {70, 1, 70}, {1, 33, 65}, {65, 33, 1}, {33, 17, 45}, {130, 67, 129}};

TEST(MatmulTest, Int64IsExactAndWraps) {
  for (auto [m, k, n] : kShapes) {
    // Products and sums wrap around 2^64, as numpy's do.
    auto a = random_ints(m * k, -(int64_t{1} << 40), int64_t{1} << 40, 1);
    auto b = random_ints(k * n, -(int64_t{1} << 40), int64_t{1} << 40, 2);
    Array c = matmul(upload(a, {m, k}), upload(b, {k, n}));
    EXPECT_EQ(c.dtype(), DType::kInt64);
    EXPECT_EQ(c.shape(), (Shape{m, n}));
    EXPECT_EQ(c.to_vector<int64_t>(), host_matmul(a, b, m, k, n)) << m << "x" << k << "x" << n;
  }
}

TEST(MatmulTest, Float32WithinTheAccumulationBound) {
  for (auto [m, k, n] : kShapes) {
    auto a = random_floats(m * k, 3), b = random_floats(k * n, 4);
    std::vector<float> c = matmul(upload(a, {m, k}), upload(b, {k, n})).to_vector<float>();
    // docs/accuracy.md, "Matrix products": |c - exact| <= gamma_k * sum |a||b|, gamma_k =
    // k u / (1 - k u), u = 2^-24 (k products rounded once, k - 1 additions).
    const double u = std::ldexp(1.0, -24), gamma = k * u / (1 - k * u);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double exact = 0, mag = 0;
        for (int64_t p = 0; p < k; ++p) {
          exact += double(a[i * k + p]) * b[p * n + j];
          mag += std::abs(double(a[i * k + p]) * b[p * n + j]);
        }
        ASSERT_LE(std::abs(c[i * n + j] - exact), gamma * mag) << i << "," << j;
      }
    }
  }
}

// float16 operands, float32 accumulation (on cooperative matrices where the device has them:
// the GPU runs this test), against float64 sums of the float16 values.
TEST(MatmulTest, Float16WithinTheAccumulationBound) {
  const std::vector<std::array<int64_t, 3>> shapes = {{70, 50, 90}, {1, 33, 65}, {64, 32, 64}};
  for (auto [m, k, n] : shapes) {
    Array a = upload(random_floats(m * k, 21), {m, k}).astype(DType::kFloat16);
    Array b = upload(random_floats(k * n, 22), {k, n}).astype(DType::kFloat16);
    const std::vector<float> ha = a.astype(DType::kFloat32).to_vector<float>();
    const std::vector<float> hb = b.astype(DType::kFloat32).to_vector<float>();
    Array c = matmul(a, b);
    ASSERT_EQ(c.dtype(), DType::kFloat16);
    const std::vector<float> got = c.astype(DType::kFloat32).to_vector<float>();
    const double u = std::ldexp(1.0, -24), gamma = k * u / (1 - k * u);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double exact = 0, mag = 0;
        for (int64_t p = 0; p < k; ++p) {
          exact += double(ha[i * k + p]) * hb[p * n + j];
          mag += std::abs(double(ha[i * k + p]) * hb[p * n + j]);
        }
        const double bound =
            gamma * mag + std::ldexp(std::abs(exact), -11) + std::ldexp(1.0, -25);
        ASSERT_LE(std::abs(got[i * n + j] - exact), bound) << i << "," << j;
      }
    }
  }
}

// A (batch, rows, cols) float16 view of `v` (row-major logical values) stored as `how`:
// 0 row-major, 1 transposed (the other axis stride 1), 2 every other column of a wider array,
// 3 one row into a taller array (an offset that is no multiple of 8 when cols is not).
Array f16_view(const std::vector<int64_t>& v, int64_t batch, int64_t rows, int64_t cols,
               int how) {
  const int64_t wide = how == 2 ? 2 * cols : cols, tall = how == 3 ? rows + 1 : rows;
  std::vector<int64_t> st(static_cast<size_t>(batch * tall * wide), 7);
  for (int64_t z = 0; z < batch; ++z) {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t x = v[(z * rows + r) * cols + c];
        if (how == 1) {
          st[(z * cols + c) * rows + r] = x;
        } else {
          st[(z * tall + r + (how == 3)) * wide + c * (how == 2 ? 2 : 1)] = x;
        }
      }
    }
  }
  Array base = upload(st, how == 1 ? Shape{batch, cols, rows} : Shape{batch, tall, wide})
                   .astype(DType::kFloat16);
  base.eval();
  if (how == 1) return swapaxes(base, -1, -2);
  if (how == 2) return base[{all(), all(), range(0, std::nullopt, 2)}];
  if (how == 3) return base[{all(), range(1, std::nullopt), all()}];
  return base;
}

// float16 products of small integers (exact: float32 sums below 2048, exact in float16) for
// every operand layout, batches, and sizes on and off the cooperative kernels' tiles (128 x 128
// and 64 x 64 tiles, K slices of 32, 16-byte aligned rows or not), under each cooperative-matrix
// kernel where the device has them; elsewhere under the pipelined kernel with emulated
// cooperative matrices (its real indexing, shared-memory pipeline, aliased 16-byte views of
// the operands and fragment stores) and the generic kernel.
// One float16 product of f16_view operands (layouts ha, hb) against the exact host result.
void expect_f16_product(const std::array<int64_t, 4>& shape, int ha, int hb,
                        const std::string& what) {
  const auto [batch, m, k, n] = shape;
  const auto a = random_ints(batch * m * k, -2, 2, 40);
  const auto b = random_ints(batch * k * n, -2, 2, 41);
  std::vector<float> want(static_cast<size_t>(batch * m * n));
  for (int64_t z = 0; z < batch; ++z) {
    const std::vector<int64_t> c = host_matmul(
        std::vector<int64_t>(a.begin() + z * m * k, a.begin() + (z + 1) * m * k),
        std::vector<int64_t>(b.begin() + z * k * n, b.begin() + (z + 1) * k * n), m, k, n);
    for (int64_t i = 0; i < m * n; ++i) want[z * m * n + i] = static_cast<float>(c[i]);
  }
  Array c = matmul(f16_view(a, batch, m, k, ha), f16_view(b, batch, k, n, hb));
  ASSERT_EQ(c.dtype(), DType::kFloat16);
  ASSERT_EQ(c.shape(), (Shape{batch, m, n}));
  ASSERT_EQ(c.astype(DType::kFloat32).to_vector<float>(), want)
      << what << " " << batch << "x" << m << "x" << k << "x" << n << " layouts " << ha << ","
      << hb;
}

TEST(MatmulTest, Float16LayoutsAndEdgesOnEveryCooperativeKernel) {
  const std::vector<std::array<int64_t, 4>> shapes = {
      {1, 130, 72, 136}, {2, 64, 64, 64}, {1, 1, 1, 1}, {2, 129, 40, 17}, {1, 7, 9, 300},
      {1, 200, 33, 128}};
  const std::shared_ptr<Context>& ctx = Context::default_context();
  if (gemm_uses_cooperative_matrix(ctx, DType::kFloat16)) {
    for (const char* coop : {"new", "old", "32x32x16x1x1", "64x48x48x2x3", "128x128x32x4x2"}) {
      set_gemm_coop(parse_gemm_coop(coop));
      ASSERT_EQ(gemm_coop_kernel(ctx), to_string(parse_gemm_coop(coop)));
      for (const auto& shape : shapes) {
        for (int ha = 0; ha < 4; ++ha) {
          for (int hb = 0; hb < 4; ++hb) expect_f16_product(shape, ha, hb, coop);
        }
      }
    }
  } else {
    // No cooperative matrices: the pipelined kernel with emulated fragments (slow: small
    // sizes, still crossing 32 x 32 tiles, with whole and partial fragments, 16-byte aligned
    // rows (K = 24, N = 40) and misaligned ones (K = 20)), in tilings that fit lavapipe's 32
    // KiB of shared memory (each emulated variant takes lavapipe seconds to compile: few of
    // them); then, emulation off, the generic kernel on every shape.
    set_gemm_coop_emulation(true);
    const std::vector<std::array<int64_t, 4>> small = {{2, 40, 24, 40}, {1, 33, 20, 50}};
    for (const char* coop : {"32x32x16x1x1", "128x64x32x4x2"}) {
      set_gemm_coop(parse_gemm_coop(coop));
      ASSERT_EQ(gemm_coop_kernel(ctx), to_string(parse_gemm_coop(coop)));
      // every layout pair for the first tiling, the (ha, hb) = (0, 0), (1, 2), (2, 1), (3, 3)
      // for the others
      const bool all = std::string(coop) == "32x32x16x1x1";
      for (const auto& shape : small) {
        for (int ha = 0; ha < 4; ++ha) {
          for (int hb = 0; hb < 4; ++hb) {
            if (all || (ha + hb) % 3 == 0) expect_f16_product(shape, ha, hb, coop);
          }
        }
      }
      expect_f16_product({1, 1, 1, 1}, 0, 0, coop);
    }
    set_gemm_coop_emulation(false);
    set_gemm_coop(std::nullopt);
    ASSERT_FALSE(gemm_uses_cooperative_matrix(ctx, DType::kFloat16));
    for (const auto& shape : shapes) {
      for (int ha = 0; ha < 4; ++ha) {
        for (int hb = 0; hb < 4; ++hb) expect_f16_product(shape, ha, hb, "generic");
      }
    }
  }
  set_gemm_coop(std::nullopt);
  EXPECT_THROW(parse_gemm_coop("128x128x32"), ShapeError);
  EXPECT_THROW(parse_gemm_coop("100x128x32x4x4"), ShapeError);
  EXPECT_EQ(to_string(parse_gemm_coop("old")), "old");
  EXPECT_EQ(to_string(parse_gemm_coop("new")), to_string(GemmCoopConfig{}));
}

TEST(MatmulTest, TransposedAndSlicedOperandsAreReadInPlace) {
  const int64_t m = 37, k = 29, n = 41;
  auto at = random_ints(k * m, -50, 50, 5);       // A stored transposed: (k, m)
  auto b2 = random_ints(2 * k * n * 2, -50, 50, 6);  // B inside a (2k, 2n) array
  std::vector<int64_t> a(m * k), b(k * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) a[i * k + p] = at[p * m + i];
  // b = b2[::2, ::-2]
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j) b[p * n + j] = b2[(2 * p) * (2 * n) + (2 * n - 1 - 2 * j)];
  Array ta = upload(at, {k, m}), tb = upload(b2, {2 * k, 2 * n});
  ta.eval();
  tb.eval();
  Array av = transpose(ta);
  Array bv = tb[{range(0, std::nullopt, 2), range(std::nullopt, std::nullopt, -2)}];
  const uint64_t before = kernels();
  Array c = matmul(av, bv);
  c.eval();
  EXPECT_EQ(kernels() - before, 1u) << "views are read through their strides: one kernel";
  EXPECT_EQ(c.to_vector<int64_t>(), host_matmul(a, b, m, k, n));
}

TEST(MatmulTest, OneDimensionalOperandsFollowNumpy) {
  auto a = random_ints(6, -9, 9, 7), b = random_ints(6 * 4, -9, 9, 8);
  Array va = upload(a, {6}), mb = upload(b, {6, 4});
  Array r = matmul(va, mb);
  EXPECT_EQ(r.shape(), (Shape{4}));
  EXPECT_EQ(r.to_vector<int64_t>(), host_matmul(a, b, 1, 6, 4));
  Array bt = transpose(mb);  // (4, 6) @ (6,) -> (4,)
  Array s = matmul(bt, va);
  EXPECT_EQ(s.shape(), (Shape{4}));
  Array d = matmul(va, va);
  EXPECT_EQ(d.shape(), (Shape{}));
  int64_t dot = 0;
  for (int64_t x : a) dot += x * x;
  EXPECT_EQ(d.to_vector<int64_t>()[0], dot);
}

TEST(MatmulTest, BatchDimensionsBroadcast) {
  // (2, 1, 3, 4) @ (3, 4, 5) -> (2, 3, 3, 5)
  auto a = random_ints(2 * 3 * 4, -20, 20, 9), b = random_ints(3 * 4 * 5, -20, 20, 10);
  Array c = matmul(upload(a, {2, 1, 3, 4}), upload(b, {3, 4, 5}));
  ASSERT_EQ(c.shape(), (Shape{2, 3, 3, 5}));
  std::vector<int64_t> got = c.to_vector<int64_t>();
  for (int64_t x = 0; x < 2; ++x) {
    for (int64_t y = 0; y < 3; ++y) {
      std::vector<int64_t> am(a.begin() + x * 12, a.begin() + x * 12 + 12);
      std::vector<int64_t> bm(b.begin() + y * 20, b.begin() + y * 20 + 20);
      std::vector<int64_t> want = host_matmul(am, bm, 3, 4, 5);
      std::vector<int64_t> have(got.begin() + (x * 3 + y) * 15, got.begin() + (x * 3 + y + 1) * 15);
      EXPECT_EQ(have, want) << x << "," << y;
    }
  }
}

// More matrices than a dispatch's z dimension takes (maxComputeWorkGroupCount[2] is 65535 on
// lavapipe and NVIDIA): the workgroups loop over the rest.
TEST(MatmulTest, BatchesBeyondTheDispatchLimit) {
  const int64_t batch = 65535 + 1000;
  auto a = random_ints(batch * 2, -9, 9, 31), b = random_ints(batch * 2, -9, 9, 32);
  // (batch, 1, 2) @ (batch, 2, 1) -> (batch, 1, 1)
  std::vector<int64_t> got =
      matmul(upload(a, {batch, 1, 2}), upload(b, {batch, 2, 1})).to_vector<int64_t>();
  for (int64_t z = 0; z < batch; ++z) {
    ASSERT_EQ(got[z], a[2 * z] * b[2 * z] + a[2 * z + 1] * b[2 * z + 1]) << z;
  }
}

TEST(MatmulTest, EmptyAndZeroLengthProducts) {
  Array z = matmul(zeros({5, 0}, DType::kFloat32), zeros({0, 3}, DType::kFloat32));
  EXPECT_EQ(z.shape(), (Shape{5, 3}));
  EXPECT_EQ(z.to_vector<float>(), std::vector<float>(15, 0.0f));
  EXPECT_EQ(matmul(zeros({0, 4}), zeros({4, 3})).shape(), (Shape{0, 3}));
  EXPECT_EQ(matmul(zeros({2, 0, 4}), zeros({4, 3})).shape(), (Shape{2, 0, 3}));
}

TEST(MatmulTest, SmallDtypesWrapAndBoolIsOrOfAnd) {
  // int8: 100 * 100 * 3 = 30000 wraps to 48 (mod 256, signed).
  std::vector<int8_t> a(3, 100), b(3, 100);
  Array c = matmul(upload(a, {1, 3}), upload(b, {3, 1}));
  EXPECT_EQ(c.dtype(), DType::kInt8);
  EXPECT_EQ(c.to_vector<int8_t>()[0], static_cast<int8_t>(30000 & 0xff));
  // int8 @ uint8 -> int16 (numpy's promotion)
  std::vector<uint8_t> ub(3, 200);
  EXPECT_EQ(matmul(upload(a, {1, 3}), upload(ub, {3, 1})).dtype(), DType::kInt16);
  std::vector<uint8_t> ba = {1, 0, 0, 0, 1, 0}, bb = {0, 1, 1, 0, 0, 0};  // bool (2,3) @ (3,2)
  Array x = Array::from_host(ba.data(), {2, 3}, DType::kBool);
  Array y = Array::from_host(bb.data(), {3, 2}, DType::kBool);
  Array r = matmul(x, y);
  EXPECT_EQ(r.dtype(), DType::kBool);
  std::vector<uint8_t> got(4);
  r.read(got.data(), 4);
  EXPECT_EQ(got, (std::vector<uint8_t>{0, 1, 1, 0}));
}

TEST(MatmulTest, ComplexProducts) {
  using C = std::complex<float>;
  std::vector<C> a = {{1, 2}, {3, -1}}, b = {{0, 1}, {2, 2}};
  Array x = Array::from_host(a.data(), {1, 2}, DType::kComplex64);
  Array y = Array::from_host(b.data(), {2, 1}, DType::kComplex64);
  C c;
  matmul(x, y).read(&c, sizeof(C));
  EXPECT_EQ(c, a[0] * b[0] + a[1] * b[1]);  // small integers: exact
}

TEST(MatmulTest, ErrorsNameTheOperandsAndSizes) {
  Array a = zeros({3, 4}), b = zeros({3, 5}), s = zeros({});
  try {
    matmul(a, b);
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("(size 3 is different from 4)"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(matmul(s, a), ShapeError);
  EXPECT_THROW(matmul(a, s), ShapeError);
  EXPECT_THROW(matmul(zeros({2, 3, 4}), zeros({3, 4, 5})), ShapeError);
}

TEST(MatmulTest, EveryTilingGivesTheSameResults) {
  const int64_t m = 45, k = 37, n = 51;
  auto a = random_ints(m * k, -1000, 1000, 11), b = random_ints(k * n, -1000, 1000, 12);
  const std::vector<int64_t> want = host_matmul(a, b, m, k, n);
  for (const char* config : {"8x8x4x1x1", "16x32x8x2x4", "64x16x16x8x2", "32x32x3x4x4"}) {
    set_gemm_config(parse_gemm_config(config));
    EXPECT_EQ(to_string(gemm_config(Context::default_context(), DType::kInt64)), config);
    EXPECT_EQ(matmul(upload(a, {m, k}), upload(b, {k, n})).to_vector<int64_t>(), want) << config;
  }
  set_gemm_config(parse_gemm_config("16x16x8x3x4"));  // 16 is not a multiple of 3
  EXPECT_THROW(matmul(upload(a, {m, k}), upload(b, {k, n})), ShapeError);
  set_gemm_config(parse_gemm_config("1024x1024x8x1x1"));  // too many invocations
  EXPECT_THROW(matmul(upload(a, {m, k}), upload(b, {k, n})), ShapeError);
  set_gemm_config(std::nullopt);
  EXPECT_THROW(parse_gemm_config("128x128"), ShapeError);
}

TEST(ProductsTest, TensordotDotOuterKron) {
  // tensordot of (3, 4, 5) and (5, 4, 2) over a's (1, 2) and b's (1, 0): (3, 2)
  auto a = random_ints(60, -30, 30, 13), b = random_ints(40, -30, 30, 14);
  Array ta = upload(a, {3, 4, 5}), tb = upload(b, {5, 4, 2});
  Array t = tensordot(ta, tb, {1, 2}, {1, 0});
  ASSERT_EQ(t.shape(), (Shape{3, 2}));
  std::vector<int64_t> want(6, 0);
  for (int i = 0; i < 3; ++i)
    for (int l = 0; l < 2; ++l)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 5; ++k) want[i * 2 + l] += a[i * 20 + j * 5 + k] * b[k * 8 + j * 2 + l];
  EXPECT_EQ(t.to_vector<int64_t>(), want);
  EXPECT_THROW(tensordot(ta, tb, {1}, {0}), ShapeError);  // extents 4 and 5
  EXPECT_THROW(tensordot(ta, tb, {3}, {0}), AxisError);
  // dot: (3, 4, 5) . (5, 4, 2)'s second-to-last axis is 4: mismatch; with (2, 5, 3) it is 5.
  EXPECT_THROW(dot(ta, tb), ShapeError);
  EXPECT_EQ(dot(ta, upload(random_ints(30, -3, 3, 15), {2, 5, 3})).shape(), (Shape{3, 4, 2, 3}));
  EXPECT_EQ(dot(ta, full({}, Scalar::of_int(2))).to_vector<int64_t>()[7], a[7] * 2);
  // outer and kron
  std::vector<int64_t> x = {1, 2, 3}, y = {10, 20};
  EXPECT_EQ(outer(upload(x, {3}), upload(y, {2})).to_vector<int64_t>(),
            (std::vector<int64_t>{10, 20, 20, 40, 30, 60}));
  Array k = kron(upload(x, {3}), upload(y, {1, 2}));
  EXPECT_EQ(k.shape(), (Shape{1, 6}));
  EXPECT_EQ(k.to_vector<int64_t>(), (std::vector<int64_t>{10, 20, 20, 40, 30, 60}));
  // inner of N-d operands: a matrix product over the last axes
  Array in = inner(upload(x, {1, 3}), upload(x, {3}));
  EXPECT_EQ(in.shape(), (Shape{1}));
  EXPECT_EQ(in.to_vector<int64_t>()[0], 14);
}

}  // namespace
}  // namespace vka
