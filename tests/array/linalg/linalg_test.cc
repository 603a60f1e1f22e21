// vka::linalg's factorizations on small matrices whose results are known by hand.
#include "array/linalg/linalg.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/array/array_testing.h"

namespace vka {
namespace {

Array mat(std::vector<double> v, Shape shape, DType t = DType::kFloat64) {
  return Array::from_host(v.data(), shape, DType::kFloat64).astype(t);
}

void expect_near(const Array& a, const std::vector<double>& want, double tol = 1e-12) {
  std::vector<double> got = a.astype(DType::kFloat64).to_vector<double>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

TEST(Linalg, SolveTwoByTwo) {
  // 2x + y = 3, x + 3y = 5: x = 0.8, y = 1.4.
  expect_near(solve(mat({2, 1, 1, 3}, {2, 2}), mat({3, 5}, {2, 1})), {0.8, 1.4});
  expect_near(solve(mat({2, 1, 1, 3}, {2, 2}, DType::kFloat32), mat({3, 5}, {2, 1}, DType::kFloat32)),
              {0.8, 1.4}, 1e-6);
}

TEST(Linalg, LuPivotsTheLargerRow) {
  std::vector<Array> f = lu_factor(mat({1, 2, 3, 4}, {2, 2}));
  expect_near(f[0], {3, 4, 1.0 / 3, 2.0 / 3});
  EXPECT_EQ(f[1].to_vector<int32_t>(), (std::vector<int32_t>{1, 1}));
}

TEST(Linalg, InverseOfABatch) {
  // diag(2, 4) and [[0, 1], [1, 0]] (its own inverse, needs a row swap).
  expect_near(inv(mat({2, 0, 0, 4, 0, 1, 1, 0}, {2, 2, 2})), {0.5, 0, 0, 0.25, 0, 1, 1, 0});
}

TEST(Linalg, Cholesky) {
  // [[4, 2], [2, 5]] = L Lᵀ with L = [[2, 0], [1, 2]]; the upper triangle is not read.
  expect_near(cholesky(mat({4, 99, 2, 5}, {2, 2})), {2, 0, 1, 2});
}

TEST(Linalg, SingularAndIndefiniteRaise) {
  EXPECT_THROW(inv(mat({1, 2, 2, 4}, {2, 2})), LinAlgError);
  EXPECT_THROW(solve(mat({0, 0, 0, 0}, {2, 2}), mat({1, 1}, {2, 1})), LinAlgError);
  EXPECT_THROW(cholesky(mat({1, 2, 2, 1}, {2, 2})), LinAlgError);
  EXPECT_THROW(inv(mat({1, 2, 3, 4, 5, 6}, {2, 3})), LinAlgError);
  EXPECT_THROW(inv(mat({1, 2}, {2})), LinAlgError);
  EXPECT_THROW(inv(mat({1, 0, 0, 1}, {2, 2}, DType::kFloat16)), DTypeError);
}

TEST(Linalg, QrOfAColumn) {
  // Householder of (3, 4): beta = -5, so R = [[-5]] and Q's column is -(3, 4) / 5.
  std::vector<Array> f = qr(mat({3, 4}, {2, 1}), "reduced");
  expect_near(f[0], {-0.6, -0.8});
  expect_near(f[1], {-5});
  std::vector<Array> c = qr(mat({3, 4}, {2, 1}), "complete");
  EXPECT_EQ(c[0].shape(), (Shape{2, 2}));
  expect_near(c[1], {-5, 0});
}

TEST(Linalg, BlockedQrOfADiagonalMatrix) {
  // No reflector is needed (x = 0, alpha real: tau = 0), so R = A and Q = I exactly, across
  // the blocked factorization's panels (min(m, n) >= 128) and in a batch of two.
  const int64_t n = 130;
  std::vector<double> d(2 * n * n, 0.0), eye(2 * n * n, 0.0);
  for (int64_t b = 0; b < 2; ++b) {
    for (int64_t i = 0; i < n; ++i) {
      d[b * n * n + i * n + i] = (i % 3 == 0 ? -1.0 : 1.0) * static_cast<double>(i + 1 + b);
      eye[b * n * n + i * n + i] = 1.0;
    }
  }
  std::vector<Array> f = qr(mat(d, {2, n, n}), "reduced");
  expect_near(f[0], eye, 0);
  expect_near(f[1], d, 0);
}

TEST(Linalg, EighAndSvdOfKnownMatrices) {
  std::vector<Array> e = eigh(mat({2, 1, 1, 2}, {2, 2}));
  expect_near(e[0], {1, 3});
  std::vector<Array> s = svd(mat({3, 0, 0, -4}, {2, 2}), true, true);
  expect_near(s[1], {4, 3});
  // U diag(s) Vᵀ rebuilds the matrix: U[:, 0] * 4 * Vt[0, :] + U[:, 1] * 3 * Vt[1, :].
  std::vector<double> u = s[0].to_vector<double>(), vt = s[2].to_vector<double>();
  std::vector<double> want = {3, 0, 0, -4};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      EXPECT_NEAR(u[i * 2] * 4 * vt[j] + u[i * 2 + 1] * 3 * vt[2 + j], want[i * 2 + j], 1e-12);
    }
  }
}

}  // namespace
}  // namespace vka
