// SharedHostBuffer: one host allocation imported into two logical devices (on one physical
// device: lavapipe, or the machine's device 0). The host's bytes are what both devices read,
// and what one device writes the other and the host see.
#include "device/host_import.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "device/stream.h"

namespace vka {
namespace {

TEST(HostImportTest, OneAllocationSeenByBothDevicesAndTheHost) {
  ContextOptions o;
  o.devices = {0, 0};
  auto ctx = Context::create(o);
  Device& a = ctx->device(0);
  Device& b = ctx->device(1);
  if (!a.caps().external_memory_host) GTEST_SKIP() << "no VK_EXT_external_memory_host";
  EXPECT_GE(a.caps().min_imported_host_pointer_alignment, 1u);
  Stream& sa = *ctx->replica(0).stream;
  Stream& sb = *ctx->replica(1).stream;
  constexpr uint64_t kBytes = 100003;  // not a multiple of the page: the import rounds up
  SharedHostBuffer shared({&a, &b}, kBytes);
  EXPECT_EQ(shared.nbytes(), kBytes);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(shared.data()) %
                std::max<uint64_t>(4096, a.caps().min_imported_host_pointer_alignment),
            0u);
  Allocation da = allocate(a, kBytes, MemoryUse::kStaging);
  Allocation db = allocate(b, kBytes, MemoryUse::kStaging);
  // Host -> device b, through b's import.
  auto* host = static_cast<uint8_t*>(shared.data());
  for (uint64_t i = 0; i < kBytes; ++i) host[i] = static_cast<uint8_t>(i * 7 + 3);
  sb.copy(shared.vk_buffer(1), 0, db.buffer, 0, kBytes);
  sb.finish();
  EXPECT_EQ(std::memcmp(db.mapped, host, kBytes), 0);
  // Device a writes through its import; the host and device b read it.
  std::vector<uint8_t> want(kBytes);
  for (uint64_t i = 0; i < kBytes; ++i) want[i] = static_cast<uint8_t>(i * 13 + 1);
  std::memcpy(da.mapped, want.data(), kBytes);
  sa.copy(da.buffer, 0, shared.vk_buffer(0), 0, kBytes);
  sa.finish();
  EXPECT_EQ(std::memcmp(host, want.data(), kBytes), 0);
  std::memset(db.mapped, 0, kBytes);
  sb.copy(shared.vk_buffer(1), 5, db.buffer, 11, kBytes - 11);
  sb.finish();
  EXPECT_EQ(std::memcmp(static_cast<uint8_t*>(db.mapped) + 11, want.data() + 5, kBytes - 11), 0);
}

}  // namespace
}  // namespace vka
