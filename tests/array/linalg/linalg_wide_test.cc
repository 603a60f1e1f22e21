// The wide mode of the Jacobi svd and eigh (array/linalg/wide.h), forced by VKA_JACOBI=wide:
// it launches one sweep at a time and stops once every matrix has converged.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "array/linalg/launch.h"
#include "array/linalg/linalg.h"
#include "array/linalg/wide.h"
#include "device/stream.h"
#include "kernels/lib/linalg.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

class LinalgWide : public ::testing::Test {
 protected:
  void SetUp() override { setenv("VKA_JACOBI", "wide", 1); }
  void TearDown() override { unsetenv("VKA_JACOBI"); }
};

// Dispatches recorded on replica 0 while `fn` runs, after `a` is on the device.
template <typename Fn>
uint64_t dispatches(Array a, Fn fn) {
  a.eval();
  Stream& stream = *a.context()->replica(0).stream;
  const uint64_t before = stream.stats().dispatches;
  fn();
  return stream.stats().dispatches - before;
}

Array eye64() { return vka::eye(64, 64, 0, DType::kFloat64); }

// The launches of svd/eigh's copy of `a` into their working buffer.
uint64_t copy_in(const Array& a) {
  return dispatches(a, [&] { linalg_detail::copy_in(a, a.dtype()); });
}

Array random64(unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> dist;
  std::vector<double> v(64 * 64);
  for (double& x : v) x = dist(gen);
  return Array::from_host(v.data(), {64, 64}, DType::kFloat64);
}

TEST_F(LinalgWide, ModeSelection) {
  Array a = eye64();
  EXPECT_TRUE(linalg_detail::use_wide_jacobi(a, 1, 2));
  setenv("VKA_JACOBI", "single", 1);
  EXPECT_FALSE(linalg_detail::use_wide_jacobi(a, 1, 1024));
}

TEST_F(LinalgWide, SvdStopsLaunchingOnceConverged) {
  // The copy-in, then init + one sweep (63 rounds and its end) + norms + results: an already
  // diagonal matrix converges in its first sweep.
  Array e = eye64();
  const uint64_t copy = copy_in(e);
  const uint64_t one = dispatches(e, [&] { svd(e, false, false)[0].eval(); });
  EXPECT_EQ(one, copy + 1 + 64 + 2);
  // A random matrix: whole sweeps of 64 launches, fewer than the limit.
  Array r = random64(1);
  const uint64_t many = dispatches(r, [&] { svd(r, false, false)[0].eval(); });
  ASSERT_GT(many, one);
  EXPECT_EQ((many - one) % 64, 0u);
  EXPECT_LT((many - one) / 64, static_cast<uint64_t>(kJacobiSweeps - 1));
}

TEST_F(LinalgWide, EighStopsLaunchingOnceConverged) {
  // init + one sweep (63 rounds of 2 launches and its end) + results.
  Array e = eye64();
  const uint64_t copy = copy_in(e);
  const uint64_t one = dispatches(e, [&] { eigh(e, false)[0].eval(); });
  EXPECT_EQ(one, copy + 1 + 127 + 1);
  Array r = random64(2);
  Array h = r + matrix_transpose(r);
  h.eval();
  const uint64_t many = dispatches(h, [&] { eigh(h, false)[0].eval(); });
  ASSERT_GT(many, one);
  EXPECT_EQ((many - one) % 127, 0u);
}

}  // namespace
}  // namespace vka
