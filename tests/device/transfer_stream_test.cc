// The transfer stream of a device (ContextOptions::transfer_queue) and the cross-stream
// synchronization it relies on: foreign uses that make only the commands touching a buffer
// wait, host waits and deferred releases that honour them, and queues without timestamps.
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "base/errors.h"
#include "device/buffer.h"
#include "device/memory.h"
#include "device/pipeline.h"
#include "device/stream.h"
#include "kernels/compile.h"

namespace vka {
namespace {

// dst[i] = src[i] * 2 + 1 for i < n.
constexpr const char* kAffine = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Params { uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) dst[i] = src[i] * 2u + 1u;
}
)";

std::shared_ptr<Context> make(TransferQueue mode) {
  ContextOptions o;
  o.transfer_queue = mode;
  return Context::create(o);
}

std::vector<uint32_t> read_all(ReplicatedBuffer& b) {
  std::vector<uint32_t> out(b.nbytes() / 4);
  b.read(out.data(), 0, b.nbytes(), 0);
  return out;
}

TEST(TransferStreamTest, OptionsOpenTheStreamTheyName) {
  auto shared = make(TransferQueue::kShared);
  ASSERT_NE(shared->device(0).transfer_stream(), nullptr);
  EXPECT_EQ(shared->transfer_queue(), "shared");
  EXPECT_EQ(shared->device(0).queue_families().size(), 1u);  // one family: EXCLUSIVE buffers
  EXPECT_EQ(shared->device(0).transfer_stream()->queue(), shared->replica(0).stream->queue());

  auto off = make(TransferQueue::kOff);
  EXPECT_EQ(off->device(0).transfer_stream(), nullptr);
  EXPECT_EQ(off->transfer_queue(), "none");

  // Auto: a dedicated family where the device has one (then buffers are CONCURRENT over two
  // families), else nothing (lavapipe: one family that does everything).
  auto automatic = make(TransferQueue::kAuto);
  Device& d = automatic->device(0);
  if (d.transfer_stream()) {
    EXPECT_EQ(automatic->transfer_queue().rfind("dedicated family ", 0), 0u);
    ASSERT_EQ(d.queue_families().size(), 2u);
    EXPECT_EQ(automatic->transfer_queue(),
              "dedicated family " + std::to_string(d.queue_families()[1]));
    EXPECT_NE(d.transfer_stream()->queue(), automatic->replica(0).stream->queue());
  } else {
    EXPECT_EQ(automatic->transfer_queue(), "none");
    EXPECT_EQ(d.queue_families().size(), 1u);
  }
}

TEST(TransferStreamTest, OnlyCommandsOnTheTransferredBufferWait) {
  auto ctx = make(TransferQueue::kShared);
  Device& device = ctx->device(0);
  Stream& compute = *ctx->replica(0).stream;
  Stream& transfer = *device.transfer_stream();
  Pipeline affine(device, compile_glsl(kAffine, "affine"), 2, 4, "affine");
  const uint32_t n = 1000;
  std::vector<uint32_t> init(n);
  std::iota(init.begin(), init.end(), 0u);
  ReplicatedBuffer x(ctx, n * 4), a(ctx, n * 4), b(ctx, n * 4), c(ctx, n * 4);
  a.write(init.data(), 0, n * 4, std::nullopt);
  ctx->synchronize();

  // The transfer stream writes x (7 everywhere) after the compute stream's last use of it.
  transfer.wait_for_use(compute, x.vk_buffer(0));
  transfer.fill(x.vk_buffer(0), 0, n * 4, 7);
  compute.foreign_use(x.vk_buffer(0), transfer, transfer.submit(), true);

  const StreamStats s0 = compute.stats();
  compute.dispatch(affine, {{a.vk_buffer(0)}, {b.vk_buffer(0)}}, {false, true}, &n, 16);
  EXPECT_EQ(compute.stats().queue_waits, s0.queue_waits);  // b and a: no wait
  EXPECT_EQ(compute.stats().submits, s0.submits);
  compute.dispatch(affine, {{x.vk_buffer(0)}, {c.vk_buffer(0)}}, {false, true}, &n, 16);
  EXPECT_EQ(compute.stats().queue_waits, s0.queue_waits + 1);
  // The split: the kernel on a and b went out alone, before the wait.
  EXPECT_EQ(compute.stats().submits, s0.submits + 1);
  compute.dispatch(affine, {{x.vk_buffer(0)}, {a.vk_buffer(0)}}, {false, true}, &n, 16);
  EXPECT_EQ(compute.stats().queue_waits, s0.queue_waits + 1);  // settled
  EXPECT_EQ(read_all(c), std::vector<uint32_t>(n, 15));
  EXPECT_EQ(read_all(a), std::vector<uint32_t>(n, 15));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(read_all(b)[i], i * 2 + 1) << i;
}

TEST(TransferStreamTest, ReadsAfterAForeignReadDoNotWait) {
  auto ctx = make(TransferQueue::kShared);
  Device& device = ctx->device(0);
  Stream& compute = *ctx->replica(0).stream;
  Stream& transfer = *device.transfer_stream();
  Pipeline affine(device, compile_glsl(kAffine, "affine"), 2, 4, "affine");
  const uint32_t n = 777;
  std::vector<uint32_t> init(n);
  std::iota(init.begin(), init.end(), 0u);
  ReplicatedBuffer x(ctx, n * 4), y(ctx, n * 4), z(ctx, n * 4);
  x.write(init.data(), 0, n * 4, std::nullopt);
  // The transfer stream reads x (a download's copy) after the compute stream wrote it.
  transfer.wait_for_use(compute, x.vk_buffer(0));
  transfer.copy(x.vk_buffer(0), 0, y.vk_buffer(0), 0, n * 4);
  compute.foreign_use(x.vk_buffer(0), transfer, transfer.submit(), false);
  const uint64_t waits = compute.stats().queue_waits;
  compute.dispatch(affine, {{x.vk_buffer(0)}, {z.vk_buffer(0)}}, {false, true}, &n, 13);
  EXPECT_EQ(compute.stats().queue_waits, waits);  // read after read
  compute.dispatch(affine, {{z.vk_buffer(0)}, {x.vk_buffer(0)}}, {false, true}, &n, 13);
  EXPECT_EQ(compute.stats().queue_waits, waits + 1);  // write after the copy's read
  transfer.finish();
  EXPECT_EQ(read_all(y), init);
  const std::vector<uint32_t> got = read_all(x);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], (i * 2 + 1) * 2 + 1) << i;
}

TEST(TransferStreamTest, HostAccessWaitsForTheForeignCopy) {
  auto ctx = make(TransferQueue::kShared);
  Stream& compute = *ctx->replica(0).stream;
  Stream& transfer = *ctx->device(0).transfer_stream();
  const uint32_t n = 1 << 18;
  ReplicatedBuffer x(ctx, n * 4);
  transfer.fill(x.vk_buffer(0), 0, n * 4, 0x01020304u);
  compute.foreign_use(x.vk_buffer(0), transfer, transfer.submit(), true);
  const uint64_t waits = compute.stats().queue_waits;
  compute.wait_for(x.vk_buffer(0));  // on the host
  EXPECT_GE(transfer.completed_value(), transfer.pending_value());
  EXPECT_EQ(compute.stats().queue_waits, waits);
  EXPECT_EQ(read_all(x), std::vector<uint32_t>(n, 0x01020304u));
}

TEST(TransferStreamTest, ReleasedMemoryWaitsForTheForeignCopy) {
  auto ctx = make(TransferQueue::kShared);
  Device& device = ctx->device(0);
  Stream& compute = *ctx->replica(0).stream;
  Stream& transfer = *device.transfer_stream();
  const uint64_t bytes = 1 << 20;
  Allocation a = device.pool().take(bytes, MemoryUse::kDevice);
  const uint64_t capacity = a.capacity;
  const VkBuffer buffer = a.buffer.get();
  transfer.fill(buffer, 0, bytes, 0);
  compute.foreign_use(buffer, transfer, transfer.submit(), true);
  const uint64_t cached = device.pool().cached_bytes();
  const uint64_t waits = compute.stats().queue_waits;
  compute.release_later(std::move(a));
  EXPECT_EQ(compute.stats().queue_waits, waits);  // the transfer stream releases it
  transfer.finish();  // waits, then hands what completed back to the pool
  EXPECT_EQ(device.pool().cached_bytes(), cached + capacity);
}

TEST(TransferStreamTest, ReleaseAfterReadsOnBothStreamsWaitsForBoth) {
  auto ctx = make(TransferQueue::kShared);
  Device& device = ctx->device(0);
  Stream& compute = *ctx->replica(0).stream;
  Stream& transfer = *device.transfer_stream();
  Pipeline affine(device, compile_glsl(kAffine, "affine"), 2, 4, "affine");
  const uint32_t n = 4096;
  ReplicatedBuffer y(ctx, n * 4), z(ctx, n * 4);
  Allocation a = device.pool().take(n * 4, MemoryUse::kDevice);
  const VkBuffer x = a.buffer.get();
  compute.fill(x, 0, n * 4, 3);
  transfer.wait_for_use(compute, x);
  transfer.copy(x, 0, y.vk_buffer(0), 0, n * 4);  // a download's read
  compute.foreign_use(x, transfer, transfer.submit(), false);
  compute.dispatch(affine, {{x}, {z.vk_buffer(0)}}, {false, true}, &n, 64);  // reads x too
  const uint64_t transfer_waits = transfer.stats().queue_waits;
  compute.release_later(std::move(a));  // both reads must complete before the memory is reused
  EXPECT_EQ(transfer.stats().queue_waits, transfer_waits + 1);
  ctx->synchronize();
  EXPECT_EQ(read_all(y), std::vector<uint32_t>(n, 3));
  EXPECT_EQ(read_all(z), std::vector<uint32_t>(n, 7));
}

TEST(TransferStreamTest, QueuesWithoutTimestampsSayWhy) {
  auto ctx = make(TransferQueue::kOff);
  Device& device = ctx->device(0);
  Stream s(device, device.queue(0), device.queue_family(), 0.0);
  EXPECT_FALSE(s.has_timestamps());
  try {
    s.timestamp();
    FAIL() << "no exception";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("timestampValidBits 0"), std::string::npos) << e.what();
  }
  try {
    s.elapsed_ns(0, 1);
    FAIL() << "no exception";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("[elapsed_ns]"), std::string::npos) << e.what();
  }
  if (device.caps().timestamp_period_ns > 0) {
    Stream& r = *ctx->replica(0).stream;
    r.reset_timestamps();
    const uint32_t t0 = r.timestamp();
    r.finish();
    EXPECT_THROW(r.elapsed_ns(t0, t0 + 1), IndexError);  // slot t0 + 1 was never written
  }
}

}  // namespace
}  // namespace vka
