// Allocation: one VkBuffer bound to its own VkDeviceMemory, mapped when the host may touch it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <vulkan/vulkan.h>

#include "device/handle.h"

namespace vka {

class Device;

enum class MemoryUse {
  kDevice,   // device-local; mapped directly when the device offers host-visible device memory
             // over its whole heap and the context allows direct host access
  kStaging,  // host-visible, coherent, preferably cached: the source and target of transfers
  kMapped,   // device-local memory the host maps (device/host_memory.h); never pooled
};

struct Allocation {
  // Declared in this order so that the buffer is destroyed before its memory is freed.
  Handle<VkDeviceMemory> memory;
  Handle<VkBuffer> buffer;
  uint64_t size = 0;      // bytes usable by the caller
  uint64_t capacity = 0;  // bytes of the VkBuffer (a pool's size class), >= size
  MemoryUse use = MemoryUse::kDevice;
  void* mapped = nullptr;       // non-null when the host can read and write it directly
  bool host_cached = false;     // host reads of `mapped` are fast
  uint64_t device_address = 0;  // 0 when buffer device addresses are unavailable

  explicit operator bool() const { return static_cast<bool>(buffer); }
};

// Throws ShapeError when `size` exceeds what one allocation on the device may hold, and
// OutOfMemory when the driver cannot provide it. A zero size allocates a minimal buffer (Vulkan
// forbids empty buffers), so that empty arrays are ordinary.
Allocation allocate(Device& device, uint64_t size, MemoryUse use);

// A cache of device allocations that arrays no longer use, so that evaluating an expression
// again (or a loop of small ones) does not pay vkAllocateMemory and first-touch costs each time.
// Allocations are binned by size class (powers of two up to 1 MiB, then multiples of 2 MiB);
// the pool holds at most a quarter of the device's memory and gives everything back when an
// allocation fails, before trying once more. Not thread-safe: the device's streams use it
// under the same rule as the rest of a context (one thread at a time).
class AllocationPool {
 public:
  explicit AllocationPool(Device& device) : device_(&device) {}
  // A pooled allocation of this use and size class, or a new one.
  Allocation take(uint64_t size, MemoryUse use);
  // Keeps `a` for reuse; the GPU must be done with it.
  void give(Allocation a);
  // Frees every cached allocation.
  void release();
  uint64_t cached_bytes() const { return cached_bytes_; }

  static uint64_t size_class(uint64_t size);

 private:
  Device* device_;
  std::vector<std::pair<uint64_t, Allocation>> free_;  // (capacity, allocation), oldest first
  uint64_t cached_bytes_ = 0;
};

}  // namespace vka
