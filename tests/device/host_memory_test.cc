// Pinned host buffers and mapped device memory: memory-type choice (on synthetic memory
// properties, so that devices without such memory are covered too) and the errors.
#include "device/host_memory.h"

#include <gtest/gtest.h>

#include "base/errors.h"

namespace vka {
namespace {

constexpr VkMemoryPropertyFlags kLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
constexpr VkMemoryPropertyFlags kVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
constexpr VkMemoryPropertyFlags kCoherent = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
constexpr VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

VkPhysicalDeviceMemoryProperties types(std::vector<VkMemoryPropertyFlags> flags) {
  VkPhysicalDeviceMemoryProperties p{};
  p.memoryTypeCount = static_cast<uint32_t>(flags.size());
  for (size_t i = 0; i < flags.size(); ++i) p.memoryTypes[i].propertyFlags = flags[i];
  return p;
}

TEST(HostMemoryTest, MappedTypeChoice) {
  // A discrete GPU without resizable BAR: device-local, or host-visible system memory only.
  auto no_bar = types({kLocal, kVisible | kCoherent, kVisible | kCoherent | kCached});
  EXPECT_EQ(mapped_memory_type(no_bar, ~0u, false), -1);
  // Resizable BAR: coherent preferred over non-coherent, cached over uncached.
  auto bar = types({kLocal, kLocal | kVisible, kLocal | kVisible | kCoherent,
                    kLocal | kVisible | kCoherent | kCached});
  EXPECT_EQ(mapped_memory_type(bar, ~0u, false), 3);
  EXPECT_EQ(mapped_memory_type(bar, 0b0111u, false), 2);  // the buffer cannot use type 3
  EXPECT_EQ(mapped_memory_type(bar, 0b0011u, false), 1);
  EXPECT_EQ(mapped_memory_type(bar, 0b0011u, true), -1);  // only non-coherent: not when required
  EXPECT_EQ(mapped_memory_type(bar, 0b0111u, true), 2);
}

TEST(HostMemoryTest, HostBuffers) {
  auto ctx = Context::create();
  HostBuffer b(ctx, 0, 1000);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(b.nbytes(), 1000u);
  HostBuffer empty(ctx, 0, 0);  // zero bytes: an ordinary (minimal) allocation
  EXPECT_NE(empty.vk_buffer(), VK_NULL_HANDLE);
  EXPECT_THROW(HostBuffer(ctx, 1, 8), IndexError);
}

TEST(HostMemoryTest, MappedBuffersWhereTheDeviceHasThem) {
  auto ctx = Context::create();
  const Device& dev = ctx->device(0);
  const auto& mp = dev.memory_properties();
  if (mapped_memory_type(mp, ~0u, false) < 0) {
    EXPECT_THROW(MappedBuffer(ctx, 64), DeviceError);
    return;
  }
  MappedOptions coherent;
  coherent.require_coherent = true;
  if (mapped_memory_type(mp, ~0u, true) < 0) {
    EXPECT_THROW(MappedBuffer(ctx, 64, coherent), DeviceError);
  } else {
    MappedBuffer m(ctx, 64, coherent);
    EXPECT_TRUE(m.is_coherent());
  }
  MappedBuffer m(ctx, 0);  // empty: flush and invalidate of nothing are valid
  m.flush(0, 0, std::nullopt);
  m.invalidate(0, 0, std::nullopt);
  EXPECT_THROW(m.flush(0, 1, std::nullopt), ShapeError);
}

}  // namespace
}  // namespace vka
