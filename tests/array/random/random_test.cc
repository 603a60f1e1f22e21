// vka::random on the device: Philox-4x32-10 known answers, streams equal to a host reference,
// independence from the launch split and the replica count, fusion, every draw's range.
#include "array/random/random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "array/reduce.h"
#include "base/errors.h"
#include "tests/array/array_testing.h"

namespace vka {
namespace {

using random::Generator;
using random::philox4x32_10;
using random::SeedSequence;

// Random123's kat_vectors, philox4x32 10 lines: counter[4], key[2] -> output[4].
TEST(Philox, KnownAnswersFromRandom123) {
  using C = std::array<uint32_t, 4>;
  using K = std::array<uint32_t, 2>;
  EXPECT_EQ(philox4x32_10(C{0, 0, 0, 0}, K{0, 0}),
            (C{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(
      philox4x32_10(C{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, K{0xffffffff, 0xffffffff}),
      (C{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(
      philox4x32_10(C{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, K{0xa4093822, 0x299f31d0}),
      (C{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

// Word j of the stream (key, counter): block counter + j / 4, word j % 4.
uint32_t host_word(uint64_t key, uint64_t counter, uint64_t j) {
  const uint64_t b = counter + j / 4;
  auto out = philox4x32_10({static_cast<uint32_t>(b), static_cast<uint32_t>(b >> 32), 0, 0},
                           {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
  return out[j % 4];
}

TEST(Random, DeviceWordsEqualTheHostPhilox) {
  Generator g(SeedSequence({42}));
  // The known-answer block on the device: key 0, counter 0.
  EXPECT_EQ(g.bits({4}, DType::kUInt32, 1, 0, 0, 0).to_vector<uint32_t>(),
            (std::vector<uint32_t>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  // A counter whose low word carries into the high word inside the draw.
  const uint64_t key = 0x0123456789abcdefull, counter = 0xfffffffeull;
  for (int64_t n : {1, 7, 1000, 4099}) {
    std::vector<uint32_t> got =
        g.bits({n}, DType::kUInt32, 1, 0, key, counter).to_vector<uint32_t>();
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], host_word(key, counter, i)) << n << " " << i;
    // 64-bit units 2i, 2i+1 of stride-2 layouts, as a normal's two uniforms read them.
    std::vector<uint64_t> u = g.bits({n}, DType::kUInt64, 2, 1, key, counter).to_vector<uint64_t>();
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t j = 2 * (2 * i + 1);
      ASSERT_EQ(u[i], host_word(key, counter, j) | uint64_t{host_word(key, counter, j + 1)} << 32);
    }
  }
}

TEST(Random, SameSeedSameStreamAndCounterAdvancesByBlocks) {
  Generator a(SeedSequence({7})), b(SeedSequence({7}));
  EXPECT_EQ(a.key(), b.key());
  std::vector<float> x = a.random({1001}, DType::kFloat32).to_vector<float>();
  EXPECT_EQ(a.counter(), 251u);  // ceil(1001 / 4)
  EXPECT_EQ(x, b.random({1001}, DType::kFloat32).to_vector<float>());
  a.random({3}, DType::kFloat64);
  EXPECT_EQ(a.counter(), 253u);  // + ceil(3 / 2)
  a.standard_normal({3}, DType::kFloat64);
  EXPECT_EQ(a.counter(), 256u);  // one block per float64 normal
  a.integers(0, 10, {5});
  EXPECT_EQ(a.counter(), 261u);
  // Each value is (word >> 8) * 2^-24 of its own word.
  for (int i = 0; i < 1001; ++i) {
    ASSERT_EQ(x[i], static_cast<float>(host_word(b.key(), 0, i) >> 8) * std::ldexp(1.0f, -24));
  }
}

TEST(Random, SplitLaunchesGiveTheSameValues) {
  // A draw seen whole equals its parts computed with the counter offsets of their positions.
  Generator g(SeedSequence({3}));
  const int64_t n = 1000003;
  std::vector<uint32_t> whole = g.bits({n}, DType::kUInt32, 1, 0, 9, 5).to_vector<uint32_t>();
  const int64_t cut = 400000;  // a multiple of 4: the second part starts a block
  std::vector<uint32_t> tail =
      g.bits({n - cut}, DType::kUInt32, 1, 0, 9, 5 + cut / 4).to_vector<uint32_t>();
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), whole.begin() + cut));
  // And a strided read of the draw equals the same elements of the whole.
  Array w = g.bits({n}, DType::kUInt32, 1, 0, 9, 5);
  std::vector<uint32_t> odd = w[{range(1, std::nullopt, 2)}].to_vector<uint32_t>();
  for (size_t i = 0; i < odd.size(); i += 997) ASSERT_EQ(odd[i], whole[2 * i + 1]);
}

TEST(Random, DrawsFuseWithTheirUses) {
  Generator g(SeedSequence({1}));
  Array x = g.random({1000}, DType::kFloat32) * 2 + 1;
  uint64_t before = testing::kernels();
  x.eval();
  EXPECT_EQ(testing::kernels() - before, 1u);
  // (The Python test checks standard_normal(n).sum(); cos in a reduction compiles slowly on
  // lavapipe, so this one sums exponentials.)
  Array s = sum(g.standard_exponential({1000}, DType::kFloat32));
  before = testing::kernels();
  s.eval();
  EXPECT_EQ(testing::kernels() - before, 1u);
  std::vector<float> v = x.to_vector<float>();
  for (float f : v) ASSERT_TRUE(f >= 1 && f < 3) << f;
}

TEST(Random, IntegersCoverTheirRangeEveryDtype) {
  Generator g(SeedSequence({11}));
  std::vector<int64_t> v = g.integers(-3, 4, {4000}).to_vector<int64_t>();
  std::set<int64_t> seen(v.begin(), v.end());
  EXPECT_EQ(seen, (std::set<int64_t>{-3, -2, -1, 0, 1, 2, 3}));
  std::vector<int8_t> e = g.integers(-128, 127, {2000}, DType::kInt8, true).to_vector<int8_t>();
  EXPECT_EQ(*std::min_element(e.begin(), e.end()), -128);
  EXPECT_EQ(*std::max_element(e.begin(), e.end()), 127);
  // The full uint64 range (bound 2^64) and a range above 2^32.
  std::vector<uint64_t> u =
      g.integers_wide(false, 0, false, ~uint64_t{0}, {2000}, DType::kUInt64, true)
          .to_vector<uint64_t>();
  EXPECT_GT(*std::max_element(u.begin(), u.end()), uint64_t{1} << 63);
  std::vector<int64_t> big = g.integers(0, int64_t{3} << 40, {2000}).to_vector<int64_t>();
  for (int64_t b : big) ASSERT_TRUE(b >= 0 && b < (int64_t{3} << 40));
  EXPECT_GT(*std::max_element(big.begin(), big.end()), int64_t{2} << 40);
  EXPECT_THROW(g.integers(5, 5, {1}), ShapeError);
  EXPECT_THROW(g.integers(0, 300, {1}, DType::kInt8), ShapeError);
  EXPECT_THROW(g.integers(0, 3, {1}, DType::kFloat32), DTypeError);
}

TEST(Random, ArrayBoundsGiveTheScalarFormsValues) {
  Generator a(SeedSequence({13})), b(SeedSequence({13}));
  std::vector<int64_t> lo(600, -40);
  Array low = Array::from_host(lo.data(), {600}, DType::kInt64);
  Array high = full({}, Scalar::of_int(int64_t{1} << 50));
  EXPECT_EQ(a.integers(-40, int64_t{1} << 50, {600}).to_vector<int64_t>(),
            b.integers(low, high, std::nullopt).to_vector<int64_t>());
  EXPECT_EQ(a.counter(), b.counter());
  EXPECT_THROW(b.integers(high, low, std::nullopt), ShapeError);  // low >= high
}

TEST(Random, PermutationShuffleChoice) {
  Generator g(SeedSequence({5}));
  std::vector<int64_t> p = g.permutation(1000).to_vector<int64_t>();
  std::vector<int64_t> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < 1000; ++i) ASSERT_EQ(sorted[i], i);
  EXPECT_NE(p, sorted);
  Array x = testing::iota(12, {4, 3});
  g.shuffle(x);
  std::vector<double> xs = x.to_vector<double>();
  std::multiset<double> firsts;
  for (int r = 0; r < 4; ++r) {
    firsts.insert(xs[3 * r]);
    ASSERT_EQ(xs[3 * r + 1], xs[3 * r] + 1);  // rows move whole
  }
  EXPECT_EQ(firsts, (std::multiset<double>{0, 3, 6, 9}));
  std::vector<int64_t> c = g.choice(10, {10}, false).to_vector<int64_t>();
  EXPECT_EQ(std::set<int64_t>(c.begin(), c.end()).size(), 10u);
  std::vector<double> pv = {0, 0.5, 0, 0.5};
  Array pa = Array::from_host(pv.data(), {4}, DType::kFloat64);
  std::vector<int64_t> w = g.choice(4, {200}, true, pa).to_vector<int64_t>();
  for (int64_t i : w) ASSERT_TRUE(i == 1 || i == 3) << i;
  std::vector<int64_t> wo = g.choice(4, {2}, false, pa).to_vector<int64_t>();
  EXPECT_EQ(std::set<int64_t>(wo.begin(), wo.end()), (std::set<int64_t>{1, 3}));
  EXPECT_THROW(g.choice(4, {3}, false, pa), ShapeError);
  EXPECT_THROW(g.choice(3, {4}, false), ShapeError);
  EXPECT_THROW(g.choice(0, {1}), ShapeError);
}

TEST(Random, ReplicasShareAStreamUnlessAskedAndSpawnDiffers) {
  ContextOptions o;
  o.devices = {0, 0};
  auto ctx = Context::create(o);
  Generator shared(SeedSequence({9}), ctx);
  Array a = shared.random({100}, DType::kFloat32);
  EXPECT_EQ(a.to_vector<float>(0), a.to_vector<float>(1));
  // The same stream as on a one-replica context.
  Generator one(SeedSequence({9}));
  EXPECT_EQ(a.to_vector<float>(0), one.random({100}, DType::kFloat32).to_vector<float>());
  Generator own(SeedSequence({9}), ctx, true);
  Array b = own.random({100}, DType::kFloat32);
  EXPECT_NE(b.to_vector<float>(0), b.to_vector<float>(1));
  EXPECT_EQ(own.counter(), 25u);
  std::vector<Generator> kids = shared.spawn(2);
  EXPECT_NE(kids[0].key(), kids[1].key());
  EXPECT_NE(kids[0].random({8}).to_vector<double>(), kids[1].random({8}).to_vector<double>());
}

TEST(Random, Float64NeedsTheDeviceFeature) {
  ContextOptions o;
  o.disable_features = {"float64"};
  auto ctx = Context::create(o);
  Generator g(SeedSequence({1}), ctx);
  EXPECT_THROW(g.random({4}), DTypeError);
  EXPECT_THROW(g.standard_normal({4}), DTypeError);
  EXPECT_EQ(g.random({4}, DType::kFloat32).to_vector<float>().size(), 4u);
}

}  // namespace
}  // namespace vka
