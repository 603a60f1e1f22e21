// Allocation: one VkBuffer bound to its own VkDeviceMemory, mapped when the host may touch it.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <vulkan/vulkan.h>

#include "device/handle.h"
#include "device/memory_budget.h"

namespace vka {

class Device;

enum class MemoryUse {
  kDevice,   // device-local; mapped directly when the device offers host-visible device memory
             // over its whole heap and the context allows direct host access
  kStaging,  // host-visible, coherent, preferably cached: the source and target of transfers
  kMapped,   // device-local memory the host maps (device/host_memory.h); never pooled
};

struct Allocation {
  // Declared in this order so that the buffer is destroyed before its memory is freed, and the
  // memory before its share of the heap is given back to the budget.
  MemoryCharge charge;
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

// Throws OutOfMemory (its message names `op`, the size and the heap's free bytes) when `size`
// is more than one buffer or the heap can ever hold, or does not fit the budget or the driver's
// memory even after cached memory is given back (allocate_memory). A zero size allocates a
// minimal buffer (Vulkan forbids empty buffers), so that empty arrays are ordinary.
Allocation allocate(Device& device, uint64_t size, MemoryUse use, std::string_view op = "allocate");

// vkAllocateMemory under the device's memory budget (device/memory_budget.h), for every
// allocation vkarray makes. When `info` does not fit the heap's budget, or the driver returns
// VK_ERROR_OUT_OF_DEVICE_MEMORY or VK_ERROR_OUT_OF_HOST_MEMORY, memory held only for reuse is
// given back (Device::reclaim_memory, cheapest first) and the allocation tried again; then
// OutOfMemory. `requested` is the size the caller asked for (for the message).
struct DeviceMemory {
  MemoryCharge charge;
  Handle<VkDeviceMemory> memory;
};
DeviceMemory allocate_memory(Device& device, const VkMemoryAllocateInfo& info, uint64_t requested,
                             std::string_view op);

// Throws OutOfMemory when one buffer of `size` bytes is more than the device can ever hold in
// memory of `type`'s heap: larger than maxBufferSize, the heap, or the device's budget limit.
void check_fits_ever(Device& device, uint64_t size, uint32_t type, std::string_view op);

// The message of an OutOfMemory: `[op] cannot allocate 4.00 TiB (4398046511104 bytes) on device
// "X": heap 0 has 1.20 GiB of 2.00 GiB free (budget: ...)` and `detail` after a semicolon.
std::string out_of_memory_message(Device& device, std::string_view op, uint64_t requested,
                                  uint32_t heap, const std::string& detail);

// A cache of device allocations that arrays no longer use, so that evaluating an expression
// again (or a loop of small ones) does not pay vkAllocateMemory and first-touch costs each time.
// Allocations are binned by size class (powers of two up to 1 MiB, then multiples of 2 MiB);
// the pool holds at most a quarter of the device's memory (or of its budget limit), and every
// pool on a physical device gives its memory back when an allocation there does not fit
// (allocate_memory). Its own state is guarded by a mutex, since another context's allocation
// may release it (MemoryBudget::release_shared_pools); take and give otherwise follow the
// context's rule (one thread at a time).
class AllocationPool {
 public:
  explicit AllocationPool(Device& device);
  ~AllocationPool();
  AllocationPool(const AllocationPool&) = delete;
  AllocationPool& operator=(const AllocationPool&) = delete;
  // A pooled allocation of this use and size class, or a new one (OutOfMemory naming `op`).
  Allocation take(uint64_t size, MemoryUse use, std::string_view op = "allocate");
  // Keeps `a` for reuse; the GPU must be done with it.
  void give(Allocation a);
  // Frees every cached allocation.
  void release();
  uint64_t cached_bytes() const;

  static uint64_t size_class(uint64_t size);

 private:
  Device* device_;
  mutable std::mutex mutex_;
  std::vector<std::pair<uint64_t, Allocation>> free_;  // (capacity, allocation), oldest first
  uint64_t cached_bytes_ = 0;
};

}  // namespace vka
