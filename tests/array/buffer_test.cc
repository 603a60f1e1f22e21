// The seed Buffer API in C++: every dtype round-trips on every replica; errors name the values.
#include "array/buffer.h"

#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "base/errors.h"

namespace vka {
namespace {

std::shared_ptr<Context> two_replicas() {
  ContextOptions o;
  o.devices = {0, 0};
  return Context::create(o);
}

class EveryDType : public ::testing::TestWithParam<DType> {};

TEST_P(EveryDType, RoundTripsOnEveryReplica) {
  auto ctx = two_replicas();
  Buffer buf({3, 5, 7}, GetParam(), ctx);
  EXPECT_EQ(buf.size(), 105);
  EXPECT_EQ(buf.nbytes(), 105 * itemsize(GetParam()));
  std::vector<uint8_t> a(buf.nbytes()), b(buf.nbytes());
  std::mt19937 rng(static_cast<uint32_t>(GetParam()));
  for (auto& x : a) x = static_cast<uint8_t>(rng());
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  if (GetParam() == DType::kBool) {  // bools hold 0 or 1
    for (auto& x : a) x &= 1;
    for (auto& x : b) x &= 1;
  }
  buf.write(a.data(), a.size());
  buf.write(b.data(), b.size(), 1);
  std::vector<uint8_t> out(buf.nbytes());
  buf.read(out.data(), out.size(), 0);
  EXPECT_EQ(out, a);
  buf.read(out.data(), out.size(), 1);
  EXPECT_EQ(out, b);
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, EveryDType,
                         ::testing::Values(DType::kBool, DType::kInt8, DType::kUInt8, DType::kInt16,
                                           DType::kUInt16, DType::kInt32, DType::kUInt32,
                                           DType::kInt64, DType::kUInt64, DType::kFloat16,
                                           DType::kFloat32, DType::kFloat64, DType::kComplex64,
                                           DType::kComplex128),
                         [](const auto& info) { return std::string(name(info.param)); });

TEST(BufferTest, TypedAccessors) {
  Buffer buf({4}, DType::kFloat64);
  buf.write(std::vector<double>{1.5, -0.0, 1e300, -2});
  auto out = buf.read<double>(0);
  EXPECT_EQ(out, (std::vector<double>{1.5, -0.0, 1e300, -2}));
  EXPECT_TRUE(std::signbit(out[1]));
  EXPECT_THROW(buf.write(std::vector<float>{1, 2, 3, 4}), DTypeError);
  EXPECT_THROW(buf.read<int64_t>(0), DTypeError);
}

TEST(BufferTest, ZeroDimensionalAndEmpty) {
  Buffer scalar({}, DType::kInt32);
  EXPECT_EQ(scalar.size(), 1);
  EXPECT_EQ(scalar.shape_string(), "()");
  scalar.write(std::vector<int32_t>{-7});
  EXPECT_EQ(scalar.read<int32_t>(0), std::vector<int32_t>{-7});
  Buffer empty({3, 0, 2}, DType::kFloat32);
  EXPECT_EQ(empty.size(), 0);
  empty.write(std::vector<float>{});
  EXPECT_TRUE(empty.read<float>(0).empty());
}

TEST(BufferTest, ErrorsNameTheOpAndValues) {
  try {
    Buffer bad({2, -3}, DType::kFloat32);
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_STREQ(e.what(), "[Buffer] negative dimension -3 in shape (2, -3)");
  }
  try {
    Buffer huge({1 << 30, 1 << 30, 1 << 30}, DType::kFloat32);
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("(1073741824, 1073741824, 1073741824)"),
              std::string::npos);
  }
  Buffer buf({5}, DType::kInt16);
  buf.write(std::vector<int16_t>{1, 2, 3, 4, 5});
  try {
    buf.write(std::vector<int16_t>{1, 2, 3});
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("data of 6 bytes does not match buffer (5,) int16"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(buf.write(std::vector<int16_t>{9, 9, 9, 9, 9}, 1), IndexError);
  EXPECT_EQ(buf.read<int16_t>(0), (std::vector<int16_t>{1, 2, 3, 4, 5}));  // unchanged
}

TEST(BufferTest, DtypeParsing) {
  EXPECT_EQ(parse_dtype("float32"), DType::kFloat32);
  EXPECT_EQ(parse_dtype("f"), DType::kFloat32);
  EXPECT_EQ(parse_dtype("<f8"), DType::kFloat64);
  EXPECT_EQ(parse_dtype("bool"), DType::kBool);
  EXPECT_EQ(parse_dtype("D"), DType::kComplex128);
  try {
    parse_dtype("float128");
    FAIL();
  } catch (const DTypeError& e) {
    EXPECT_NE(std::string(e.what()).find("'float128'"), std::string::npos);
  }
}

}  // namespace
}  // namespace vka
