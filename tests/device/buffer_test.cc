// ReplicatedBuffer: per-replica writes and reads through both transfer paths, large buffers,
// and errors that leave contents intact.
#include "device/buffer.h"

#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "base/errors.h"
#include "device/staging.h"
#include "device/stream.h"

namespace vka {
namespace {

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

std::shared_ptr<Context> make_context(int devices, HostAccess access) {
  ContextOptions o;
  o.devices.assign(devices, 0);
  o.host_access = access;
  return Context::create(o);
}

class BufferTest : public ::testing::TestWithParam<HostAccess> {};

TEST_P(BufferTest, RoundTripsOnEveryReplica) {
  auto ctx = make_context(3, GetParam());
  ReplicatedBuffer buf(ctx, 1000);
  auto data = random_bytes(1000, 1);
  buf.write(data.data(), 0, data.size(), std::nullopt);
  for (int r = 0; r < 3; ++r) {
    std::vector<uint8_t> out(1000);
    buf.read(out.data(), 0, out.size(), r);
    EXPECT_EQ(out, data) << "replica " << r;
  }
}

TEST_P(BufferTest, WriteToOneReplicaLeavesTheOthers) {
  auto ctx = make_context(3, GetParam());
  ReplicatedBuffer buf(ctx, 256);
  auto a = random_bytes(256, 2), b = random_bytes(256, 3);
  buf.write(a.data(), 0, a.size(), std::nullopt);
  buf.write(b.data(), 0, b.size(), 1);
  std::vector<uint8_t> out(256);
  for (int r = 0; r < 3; ++r) {
    buf.read(out.data(), 0, out.size(), r);
    EXPECT_EQ(out, r == 1 ? b : a) << "replica " << r;
  }
}

TEST_P(BufferTest, BindableBytesCoverWholeVectors) {
  auto ctx = make_context(2, GetParam());
  // 392 bytes (49 doubles) live in a 512-byte size class: kernels may bind 416, so that the
  // last 32-byte vector (elements 48..51) lies inside the binding.
  ReplicatedBuffer odd(ctx, 392);
  EXPECT_EQ(odd.bindable_bytes(), 416u);
  ReplicatedBuffer even(ctx, 512);
  EXPECT_EQ(even.bindable_bytes(), 512u);
}

TEST_P(BufferTest, PartialRangesAndZeroSize) {
  auto ctx = make_context(1, GetParam());
  ReplicatedBuffer buf(ctx, 64);
  auto a = random_bytes(64, 4);
  buf.write(a.data(), 0, 64, 0);
  uint8_t patch[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  buf.write(patch, 16, 8, 0);
  std::copy(patch, patch + 8, a.begin() + 16);
  std::vector<uint8_t> out(64);
  buf.read(out.data(), 0, 64, 0);
  EXPECT_EQ(out, a);
  std::vector<uint8_t> mid(10);
  buf.read(mid.data(), 20, 10, 0);
  EXPECT_TRUE(std::equal(mid.begin(), mid.end(), a.begin() + 20));
  ReplicatedBuffer empty(ctx, 0);
  empty.write(nullptr, 0, 0, std::nullopt);
  empty.read(nullptr, 0, 0, 0);
}

// Larger than lavapipe's maxStorageBufferRange (128 MiB) and several staging chunks long.
TEST_P(BufferTest, BuffersLargerThanMaxStorageBufferRange) {
  auto ctx = make_context(1, GetParam());
  const uint64_t n = ctx->device(0).caps().max_storage_buffer_range + 3 * (1 << 20) + 12;
  ReplicatedBuffer buf(ctx, n);
  std::vector<uint32_t> data(n / 4);
  std::iota(data.begin(), data.end(), 7u);
  buf.write(data.data(), 0, data.size() * 4, std::nullopt);
  std::vector<uint32_t> out(data.size());
  buf.read(out.data(), 0, out.size() * 4, 0);
  EXPECT_TRUE(out == data);
}

TEST_P(BufferTest, ErrorsNameTheValuesAndWriteNothing) {
  auto ctx = make_context(2, GetParam());
  ReplicatedBuffer buf(ctx, 32);
  auto a = random_bytes(32, 5);
  buf.write(a.data(), 0, 32, std::nullopt);
  auto junk = random_bytes(64, 6);
  try {
    buf.write(junk.data(), 0, 64, std::nullopt);
    FAIL() << "no exception";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[write] bytes [0, 64)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(buf.write(junk.data(), 0, 32, 2), IndexError);
  EXPECT_THROW(buf.write(junk.data(), 0, 32, -1), IndexError);
  std::vector<uint8_t> out(32);
  EXPECT_THROW(buf.read(out.data(), 16, 17, 0), ShapeError);
  EXPECT_THROW(buf.read(out.data(), 0, 32, 5), IndexError);
  for (int r = 0; r < 2; ++r) {
    buf.read(out.data(), 0, 32, r);
    EXPECT_EQ(out, a);
  }
}

TEST_P(BufferTest, SizeBeyondTheDeviceIsOutOfMemory) {
  auto ctx = make_context(1, GetParam());
  const uint64_t too_big = ctx->device(0).caps().device_local_bytes + 1;
  try {
    ReplicatedBuffer buf(ctx, too_big);
    FAIL() << "no exception";
  } catch (const OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(too_big)), std::string::npos);
  }
}

INSTANTIATE_TEST_SUITE_P(BothPaths, BufferTest,
                         ::testing::Values(HostAccess::kAuto, HostAccess::kStaging),
                         [](const auto& info) {
                           return info.param == HostAccess::kAuto ? "auto" : "staging";
                         });

TEST(BufferPathTest, StagingModeDoesNotMapAndAutoModeMapsOnUnifiedMemory) {
  auto staged = make_context(1, HostAccess::kStaging);
  ReplicatedBuffer a(staged, 16);
  EXPECT_FALSE(a.is_mapped(0));
  auto automatic = make_context(1, HostAccess::kAuto);
  ReplicatedBuffer b(automatic, 16);
  EXPECT_EQ(b.is_mapped(0), automatic->device(0).caps().host_visible_device_memory);
}

TEST(BufferPathTest, StagedUploadUsesCopiesAndDestructionIsDeferred) {
  auto ctx = make_context(1, HostAccess::kStaging);
  Stream& s = *ctx->replica(0).stream;
  const uint64_t copies_before = s.stats().copies;
  auto data = random_bytes(StagingPool::kChunkBytes + 100, 8);
  {
    ReplicatedBuffer buf(ctx, data.size());
    buf.write(data.data(), 0, data.size(), 0);
    EXPECT_EQ(s.stats().copies - copies_before, 2u);  // two chunks
  }  // destroyed while its copy may still run: released when the stream reaches it
  ctx->synchronize();
}

}  // namespace
}  // namespace vka

namespace vka {
namespace {

TEST(AllocationPoolTest, FreedBuffersAreReusedBySizeClass) {
  auto ctx = Context::create();
  AllocationPool& pool = ctx->device(0).pool();
  EXPECT_EQ(AllocationPool::size_class(1), 256u);
  EXPECT_EQ(AllocationPool::size_class(1000), 1024u);
  EXPECT_EQ(AllocationPool::size_class((1 << 20) + 1), 2u << 20);
  VkBuffer first;
  {
    ReplicatedBuffer a(ctx, 1000);
    first = a.vk_buffer(0);
  }
  ctx->synchronize();  // the stream passes the buffer's last use: it returns to the pool
  EXPECT_EQ(pool.cached_bytes(), 1024u);
  ReplicatedBuffer b(ctx, 900);  // same size class: the same VkBuffer again
  EXPECT_EQ(b.vk_buffer(0), first);
  EXPECT_EQ(pool.cached_bytes(), 0u);
  std::vector<uint8_t> data(900, 7), out(900);
  b.write(data.data(), 0, 900, std::nullopt);
  b.read(out.data(), 0, 900, 0);
  EXPECT_EQ(out, data);
  ReplicatedBuffer c(ctx, 5000);  // another class: a new buffer
  EXPECT_NE(c.vk_buffer(0), first);
}

TEST(AllocationPoolTest, ReleaseGivesCachedMemoryBack) {
  auto ctx = Context::create();
  { ReplicatedBuffer a(ctx, 1 << 16); }
  ctx->synchronize();
  EXPECT_GT(ctx->device(0).pool().cached_bytes(), 0u);
  ctx->release_cached_memory();
  EXPECT_EQ(ctx->device(0).pool().cached_bytes(), 0u);
}

}  // namespace
}  // namespace vka
