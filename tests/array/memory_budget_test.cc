// Arrays running out of device memory: OutOfMemory naming the op, inputs intact after a lazy
// expression cannot be stored, and evaluation working again once memory is freed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "array/array.h"
#include "array/functions.h"
#include "base/errors.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

constexpr int64_t kMiB = 1 << 20;

std::shared_ptr<Context> budget_context(uint64_t budget, int devices = 1) {
  ContextOptions o;
  o.devices.assign(devices, 0);
  o.memory_budget = budget;
  return Context::create(o);
}

std::vector<int32_t> random_int32(int64_t n, unsigned seed) {
  std::vector<int32_t> v;
  for (int64_t x : testing::random_ints(n, -1000, 1000, seed)) v.push_back(static_cast<int32_t>(x));
  return v;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(MemoryBudgetArrayTest, FillsUntilOutOfMemoryThenComputesAgain) {
  auto ctx = budget_context(64 * kMiB, 2);  // two replicas, 64 MiB each
  std::vector<Array> held;
  std::string message;
  try {
    for (int i = 0; i < 100; ++i) {
      held.push_back(full({2 * kMiB}, Scalar::of_int(i, DType::kInt32), ctx).eval());
    }
  } catch (const OutOfMemory& e) {
    message = e.what();
  }
  EXPECT_GE(held.size(), 5u);
  EXPECT_LE(held.size(), 8u);
  EXPECT_TRUE(contains(message, "[full] cannot allocate 8.00 MiB (8388608 bytes) on device \"" +
                                    ctx->device(0).caps().device_name + "\": heap 0 has "))
      << message;
  for (size_t i = 0; i < held.size(); ++i) {  // what was made before is intact
    EXPECT_EQ(held[i].to_vector<int32_t>(1).back(), static_cast<int32_t>(i));
  }
  held.clear();

  const int64_t n = 3 * kMiB;  // 12 MiB per array
  const std::vector<int32_t> a = random_int32(n, 1), b = random_int32(n, 2), c = random_int32(n, 3);
  Array x = Array::from_host(a.data(), {n}, DType::kInt32, ctx);
  Array y = Array::from_host(b.data(), {n}, DType::kInt32, ctx);
  Array z = Array::from_host(c.data(), {n}, DType::kInt32, ctx);
  Array r = (x * y + z).eval();
  for (int replica = 0; replica < 2; ++replica) {
    const std::vector<int32_t> got = r.to_vector<int32_t>(replica);
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i) wrong += got[i] != a[i] * b[i] + c[i];
    EXPECT_EQ(wrong, 0) << "replica " << replica;
  }
}

TEST(MemoryBudgetArrayTest, ALazyResultWithNoRoomLeavesItsInputs) {
  auto ctx = budget_context(64 * kMiB);
  const int64_t n = 4 * kMiB;  // 16 MiB of float32
  const std::vector<float> ha = testing::random_floats(n, 4), hb = testing::random_floats(n, 5);
  Array a = Array::from_host(ha.data(), {n}, DType::kFloat32, ctx);
  Array b = Array::from_host(hb.data(), {n}, DType::kFloat32, ctx);
  auto ballast = std::make_unique<Array>(zeros({6 * kMiB}, DType::kFloat32, ctx).eval());
  Array y = a * b + 1.0f;
  try {
    y.eval();
    FAIL() << "no OutOfMemory";
  } catch (const OutOfMemory& e) {
    EXPECT_TRUE(contains(e.what(), "[add] cannot allocate 16.00 MiB")) << e.what();
    EXPECT_TRUE(contains(e.what(), "heap 0 has 8.00 MiB of 64.00 MiB free")) << e.what();
  }
  EXPECT_EQ(a.to_vector<float>(), ha);
  EXPECT_EQ(b.to_vector<float>(), hb);
  ballast.reset();
  const std::vector<float> got = y.to_vector<float>();
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i) {  // a fused multiply-add may round once
    const double want = static_cast<double>(ha[i]) * hb[i] + 1.0;
    wrong += std::abs(got[i] - want) > 2e-7 * std::max(1.0, std::abs(want));
  }
  EXPECT_EQ(wrong, 0);
}

TEST(MemoryBudgetArrayTest, OverflowIsShapeErrorAndTooLargeIsOutOfMemory) {
  auto ctx = Context::create();
  try {
    zeros({int64_t{1} << 40, int64_t{1} << 30}, DType::kFloat64, ctx).eval();
    FAIL() << "no ShapeError";
  } catch (const ShapeError& e) {
    EXPECT_TRUE(contains(e.what(), "array is too big")) << e.what();
  }
  try {
    zeros({int64_t{1} << 40}, DType::kFloat32, ctx).eval();
    FAIL() << "no OutOfMemory";
  } catch (const OutOfMemory& e) {
    EXPECT_TRUE(contains(e.what(), "cannot allocate 4.00 TiB (4398046511104 bytes)")) << e.what();
  }
}

}  // namespace
}  // namespace vka
