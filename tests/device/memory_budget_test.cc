// The memory budget: how it is read, what each allocation charges, cached memory given back
// before OutOfMemory, no half-made buffers, and a device that keeps working after running out.
#include "device/memory_budget.h"

#include <sys/resource.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/errors.h"
#include "device/buffer.h"
#include "device/host_memory.h"
#include "device/memory.h"
#include "device/staging.h"
#include "device/stream.h"

namespace vka {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

std::shared_ptr<Context> budget_context(uint64_t budget, int devices = 1,
                                        HostAccess access = HostAccess::kAuto) {
  ContextOptions o;
  o.devices.assign(devices, 0);
  o.memory_budget = budget;
  o.host_access = access;
  return Context::create(o);
}

// Every heap's bytes this device's allocations hold.
uint64_t device_used(Device& d) {
  uint64_t n = 0;
  for (uint32_t h = 0; h < d.memory_budget().heap_count(); ++h) {
    n += d.memory_budget().device_used(h);
  }
  return n;
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const OutOfMemory& e) {
    return e.what();
  }
  ADD_FAILURE() << "no OutOfMemory";
  return "";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(MemoryBudgetTest, ParsesByteSizes) {
  EXPECT_EQ(parse_byte_size("512M", "x"), 512 * kMiB);
  EXPECT_EQ(parse_byte_size("512MiB", "x"), 512 * kMiB);
  EXPECT_EQ(parse_byte_size(" 2g ", "x"), 2048 * kMiB);
  EXPECT_EQ(parse_byte_size("1.5GB", "x"), 1536 * kMiB);
  EXPECT_EQ(parse_byte_size("64k", "x"), 65536u);
  EXPECT_EQ(parse_byte_size("1T", "x"), 1ull << 40);
  EXPECT_EQ(parse_byte_size("18446744073709551615", "x"), 18446744073709551615ull);
  for (const char* bad : {"", "M", "0", "-5M", "12Q", "1.2.3G", "0.1"}) {
    try {
      parse_byte_size(bad, "VKA_MEMORY_BUDGET");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const ShapeError& e) {
      EXPECT_TRUE(contains(e.what(), std::string("VKA_MEMORY_BUDGET")) &&
                  contains(e.what(), std::string("'") + bad + "'"))
          << e.what();
    }
  }
  EXPECT_EQ(format_bytes(16), "16 B");
  EXPECT_EQ(format_bytes(1ull << 42), "4.00 TiB");
  EXPECT_EQ(format_bytes(1536 * kMiB), "1.50 GiB");
}

TEST(MemoryBudgetTest, ReadsTheDriversBudgetElseTheHeapSize) {
  auto ctx = Context::create();
  Device& d = ctx->device(0);
  const MemoryBudget& b = d.memory_budget();
  ASSERT_GT(b.heap_count(), 0u);
  EXPECT_FALSE(b.limit().has_value());
  for (uint32_t h = 0; h < b.heap_count(); ++h) {
    const HeapState s = b.state(h);
    EXPECT_EQ(s.size, d.memory_properties().memoryHeaps[h].size);
    if (b.driver_budget()) {
      EXPECT_EQ(s.source, BudgetSource::kDriver);
      EXPECT_LE(s.budget, s.size);
    } else {  // lavapipe: no VK_EXT_memory_budget
      EXPECT_EQ(s.source, BudgetSource::kHeapSize);
      EXPECT_EQ(s.budget, s.size);
    }
  }
  std::printf("device '%s': VK_EXT_memory_budget %s\n", d.caps().device_name.c_str(),
              b.driver_budget() ? "yes" : "no");
  for (uint32_t h = 0; h < b.heap_count(); ++h) {
    const HeapState s = b.state(h);
    std::printf("  heap %u: size %s, budget %s, used %s (%s)\n", h, format_bytes(s.size).c_str(),
                format_bytes(s.budget).c_str(), format_bytes(s.used).c_str(), describe(s.source));
  }
}

TEST(MemoryBudgetTest, OptionAndEnvironmentSetALimit) {
  auto ctx = budget_context(64 * kMiB);
  const HeapState s = ctx->device(0).memory_budget().state(0);
  EXPECT_EQ(s.source, BudgetSource::kLimit);
  EXPECT_EQ(s.budget, 64 * kMiB);

  setenv("VKA_MEMORY_BUDGET", "32M", 1);
  auto from_env = Context::create();
  EXPECT_EQ(from_env->device(0).memory_budget().limit(), 32 * kMiB);
  auto option_wins = budget_context(48 * kMiB);
  EXPECT_EQ(option_wins->device(0).memory_budget().limit(), 48 * kMiB);
  setenv("VKA_MEMORY_BUDGET", "lots", 1);
  EXPECT_THROW(Context::create(), ShapeError);
  unsetenv("VKA_MEMORY_BUDGET");
  ContextOptions zero;
  zero.memory_budget = 0;
  EXPECT_THROW(Context::create(zero), ShapeError);
}

TEST(MemoryBudgetTest, EveryAllocationIsCharged) {
  auto ctx = budget_context(256 * kMiB, 2);
  Device& d0 = ctx->device(0);
  const uint64_t base0 = device_used(d0);
  const uint64_t shared_base = d0.memory_budget().state(0).used;
  {
    ReplicatedBuffer b(ctx, 3 * kMiB);
    // Both logical devices sit on one physical device: each charges its own replica, and the
    // physical device's count holds both.
    EXPECT_GE(device_used(d0), base0 + 3 * kMiB);
    EXPECT_GE(device_used(ctx->device(1)), 3 * kMiB);
    ContextOptions plain;
    plain.devices = {0};
    auto other = Context::create(plain);
    EXPECT_GE(other->device(0).memory_budget().state(0).used, shared_base + 6 * kMiB);
    HostBuffer host(ctx, 0, kMiB);
    EXPECT_GE(device_used(d0), base0 + 4 * kMiB);
    if (d0.caps().host_visible_device_memory) {
      MappedBuffer mapped(ctx, kMiB);
      EXPECT_GE(device_used(d0), base0 + 5 * kMiB);
    }
  }
  ctx->release_cached_memory();
  EXPECT_EQ(device_used(d0), base0);
  EXPECT_EQ(device_used(ctx->device(1)), 0u);
}

TEST(MemoryBudgetTest, AllocatesUntilOutOfMemoryThenWorksAgain) {
  auto ctx = budget_context(64 * kMiB);
  Device& d = ctx->device(0);
  std::vector<std::unique_ptr<ReplicatedBuffer>> held;
  std::string message;
  try {
    for (int i = 0; i < 100; ++i) held.push_back(std::make_unique<ReplicatedBuffer>(ctx, 8 * kMiB));
  } catch (const OutOfMemory& e) {
    message = e.what();
  }
  EXPECT_GE(held.size(), 6u);
  EXPECT_LE(held.size(), 8u);
  EXPECT_TRUE(contains(message, "[allocate] cannot allocate 8.00 MiB (8388608 bytes) on device \"" +
                                    d.caps().device_name + "\": heap 0 has "))
      << message;
  EXPECT_TRUE(contains(message, "of 64.00 MiB free")) << message;
  EXPECT_LE(device_used(d), 64 * kMiB);

  held.clear();
  ctx->synchronize();
  // Copies through the device after running out: what comes back is what went in.
  ReplicatedBuffer a(ctx, 24 * kMiB), b(ctx, 24 * kMiB);
  const std::vector<uint8_t> data = random_bytes(24 * kMiB, 1);
  a.write(data.data(), 0, data.size(), std::nullopt);
  Stream& s = *ctx->replica(0).stream;
  s.copy(a.vk_buffer(0), 0, b.vk_buffer(0), 0, 24 * kMiB);
  std::vector<uint8_t> out(24 * kMiB);
  b.read(out.data(), 0, out.size(), 0);
  EXPECT_TRUE(out == data);
}

TEST(MemoryBudgetTest, PooledMemoryIsGivenBackBeforeOutOfMemory) {
  auto ctx = budget_context(64 * kMiB);
  Device& d = ctx->device(0);
  { ReplicatedBuffer small(ctx, 12 * kMiB); }  // idle: straight into the pool
  EXPECT_GE(d.pool().cached_bytes(), 12 * kMiB);
  ReplicatedBuffer big(ctx, 60 * kMiB);  // fits once the pool lets go of its 12 MiB
  EXPECT_EQ(d.pool().cached_bytes(), 0u);
}

TEST(MemoryBudgetTest, WaitsForBuffersTheDeviceStillUses) {
  auto ctx = budget_context(64 * kMiB);
  Stream& s = *ctx->replica(0).stream;
  auto busy = std::make_unique<ReplicatedBuffer>(ctx, 40 * kMiB);
  ReplicatedBuffer target(ctx, 4 * kMiB);
  s.fill(busy->vk_buffer(0), 0, 40 * kMiB, 7);
  s.copy(busy->vk_buffer(0), 0, target.vk_buffer(0), 0, 4 * kMiB);  // recorded, not submitted
  busy.reset();                           // the stream keeps its memory until that work completes
  ReplicatedBuffer next(ctx, 40 * kMiB);  // fits after waiting for the context's work
  std::vector<uint32_t> out(kMiB);
  target.read(out.data(), 0, 4 * kMiB, 0);
  EXPECT_EQ(out.front(), 7u);
  EXPECT_EQ(out.back(), 7u);
}

TEST(MemoryBudgetTest, IdleStagingIsGivenBack) {
  auto ctx = budget_context(160 * kMiB, 1, HostAccess::kStaging);
  Device& d = ctx->device(0);
  const std::vector<uint8_t> data = random_bytes(64 * kMiB, 2);
  {
    ReplicatedBuffer a(ctx, data.size());
    a.write(data.data(), 0, data.size(), std::nullopt);  // two 32 MiB staging chunks
  }
  EXPECT_EQ(d.staging().allocated_bytes(), 2 * StagingPool::kChunkBytes);
  {
    ReplicatedBuffer big(ctx, 140 * kMiB);  // fits once the idle chunks are freed
    EXPECT_EQ(d.staging().allocated_bytes(), 0u);
  }
  // Staging comes back when a transfer needs it.
  ReplicatedBuffer a(ctx, data.size());
  a.write(data.data(), 0, data.size(), std::nullopt);
  std::vector<uint8_t> out(data.size());
  a.read(out.data(), 0, out.size(), 0);
  EXPECT_TRUE(out == data);
}

TEST(MemoryBudgetTest, ASecondReplicaThatDoesNotFitFreesTheFirst) {
  auto ctx = budget_context(64 * kMiB, 2);
  Device& d0 = ctx->device(0);
  Device& d1 = ctx->device(1);
  Allocation taken = allocate(d1, 40 * kMiB, MemoryUse::kDevice);
  const uint64_t before = device_used(d0);
  const std::string m = message_of([&] { ReplicatedBuffer b(ctx, 32 * kMiB, "replicate"); });
  EXPECT_TRUE(contains(m, "[replicate] cannot allocate 32.00 MiB")) << m;
  EXPECT_TRUE(contains(m, "of 64.00 MiB free (budget: this device's memory_budget)")) << m;
  EXPECT_EQ(device_used(d0), before);
  taken = Allocation();
  ReplicatedBuffer b(ctx, 32 * kMiB);  // both replicas fit now
  EXPECT_EQ(b.num_replicas(), 2);
}

TEST(MemoryBudgetTest, MoreThanTheDeviceCanEverHoldFailsAtOnce) {
  auto ctx = budget_context(64 * kMiB);
  Device& d = ctx->device(0);
  const uint64_t heap = d.memory_budget().heap_size(0);
  std::string m = message_of([&] { ReplicatedBuffer b(ctx, heap + 1); });
  EXPECT_TRUE(contains(m, std::to_string(heap + 1) + " bytes")) << m;
  EXPECT_TRUE(contains(m, "the whole heap holds " + format_bytes(heap))) << m;
  m = message_of([&] { ReplicatedBuffer b(ctx, 65 * kMiB); });
  EXPECT_TRUE(contains(m, "this device's memory_budget is 64.00 MiB")) << m;
  m = message_of([&] { MappedBuffer b(ctx, 65 * kMiB); });
  EXPECT_TRUE(contains(m, "[mapped_empty] cannot allocate 65.00 MiB")) << m;
  m = message_of([&] { HostBuffer b(ctx, 0, 65 * kMiB); });
  EXPECT_TRUE(contains(m, "[HostArray] cannot allocate 65.00 MiB")) << m;
}

// The process's virtual size now, from /proc/self/status.
uint64_t virtual_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;
  }
  return 0;
}

// A driver that refuses an allocation within the budget: lavapipe allocates host memory, which
// an address-space limit makes it refuse (VK_ERROR_OUT_OF_DEVICE_MEMORY).
TEST(MemoryBudgetTest, ADriversRefusalIsOutOfMemoryAndLeavesTheDeviceUsable) {
  auto ctx = Context::create();
  if (!ctx->device(0).caps().is_cpu) GTEST_SKIP() << "needs a CPU device (lavapipe)";
  ReplicatedBuffer warm(ctx, kMiB);
  std::vector<uint8_t> data = random_bytes(kMiB, 3), out(kMiB);
  warm.write(data.data(), 0, data.size(), std::nullopt);
  warm.read(out.data(), 0, out.size(), 0);  // the driver's threads exist before the limit
  rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_AS, &saved), 0);
  const uint64_t vm = virtual_bytes();
  ASSERT_GT(vm, 0u);
  rlimit tight = saved;
  tight.rlim_cur = vm + 256 * kMiB;
  if (saved.rlim_cur != RLIM_INFINITY && saved.rlim_cur < tight.rlim_cur) tight = saved;
  ASSERT_EQ(setrlimit(RLIMIT_AS, &tight), 0);
  std::string m;
  try {
    ReplicatedBuffer b(ctx, 1024 * kMiB);
  } catch (const OutOfMemory& e) {
    m = e.what();
  }
  ASSERT_EQ(setrlimit(RLIMIT_AS, &saved), 0);
  EXPECT_TRUE(contains(m, "[allocate] cannot allocate 1.00 GiB")) << m;
  EXPECT_TRUE(contains(m, "vkAllocateMemory returned VK_ERROR_OUT_OF_")) << m;
  ReplicatedBuffer again(ctx, 64 * kMiB);
  const std::vector<uint8_t> big = random_bytes(64 * kMiB, 4);
  again.write(big.data(), 0, big.size(), std::nullopt);
  std::vector<uint8_t> back(big.size());
  again.read(back.data(), 0, back.size(), 0);
  EXPECT_TRUE(back == big);
}

}  // namespace
}  // namespace vka
