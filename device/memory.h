// Allocation: one VkBuffer bound to its own VkDeviceMemory, mapped when the host may touch it.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "device/handle.h"

namespace vka {

class Device;

enum class MemoryUse {
  kDevice,   // device-local; mapped directly when the device offers host-visible device memory
             // over its whole heap and the context allows direct host access
  kStaging,  // host-visible, coherent, preferably cached: the source and target of transfers
};

struct Allocation {
  // Declared in this order so that the buffer is destroyed before its memory is freed.
  Handle<VkDeviceMemory> memory;
  Handle<VkBuffer> buffer;
  uint64_t size = 0;            // bytes usable by the caller
  void* mapped = nullptr;       // non-null when the host can read and write it directly
  bool host_cached = false;     // host reads of `mapped` are fast
  uint64_t device_address = 0;  // 0 when buffer device addresses are unavailable

  explicit operator bool() const { return static_cast<bool>(buffer); }
};

// Throws ShapeError when `size` exceeds what one allocation on the device may hold, and
// OutOfMemory when the driver cannot provide it. A zero size allocates a minimal buffer (Vulkan
// forbids empty buffers), so that empty arrays are ordinary.
Allocation allocate(Device& device, uint64_t size, MemoryUse use);

}  // namespace vka
