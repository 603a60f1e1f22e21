// MemoryBudget: the bytes of each memory heap that vkarray's allocations use, against what the
// device lets the process use (VK_EXT_memory_budget, else the heap's size) and an optional
// smaller budget per device (ContextOptions::memory_budget, VKA_MEMORY_BUDGET).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <vulkan/vulkan.h>

namespace vka {

class AllocationPool;
class MemoryBudget;

// One allocation's share of a heap, given back when destroyed (with the allocation's memory).
class MemoryCharge {
 public:
  MemoryCharge() = default;
  ~MemoryCharge() { reset(); }
  MemoryCharge(const MemoryCharge&) = delete;
  MemoryCharge& operator=(const MemoryCharge&) = delete;
  MemoryCharge(MemoryCharge&& o) noexcept;
  MemoryCharge& operator=(MemoryCharge&& o) noexcept;

  void reset();
  uint64_t bytes() const { return bytes_; }
  uint32_t heap() const { return heap_; }

 private:
  friend class MemoryBudget;
  MemoryCharge(MemoryBudget* budget, uint32_t heap, uint64_t bytes)
      : budget_(budget), heap_(heap), bytes_(bytes) {}
  MemoryBudget* budget_ = nullptr;
  uint32_t heap_ = 0;
  uint64_t bytes_ = 0;
};

// Where a heap's budget comes from, for messages.
enum class BudgetSource {
  kDriver,    // VK_EXT_memory_budget: heapBudget and heapUsage, for the whole process
  kHeapSize,  // the heap's size, against every vkarray device on the same physical device
  kLimit,     // this device's memory_budget (ContextOptions or VKA_MEMORY_BUDGET)
};
const char* describe(BudgetSource source);

// One heap as an allocation sees it now: the tightest of the budgets that apply.
struct HeapState {
  uint32_t heap = 0;
  uint64_t size = 0;         // VkMemoryHeap::size
  uint64_t budget = 0;       // what may be used under the tightest budget
  uint64_t used = 0;         // what that budget counts as used
  uint64_t device_used = 0;  // by this device's own allocations (any budget)
  BudgetSource source = BudgetSource::kHeapSize;
  uint64_t free() const { return budget > used ? budget - used : 0; }
};

class MemoryBudget {
 public:
  // `key` names the physical device (its UUID and index): the devices of every context that
  // share a key share the heaps, so their allocations are counted together.
  MemoryBudget(VkPhysicalDevice physical, const VkPhysicalDeviceMemoryProperties& properties,
               bool driver_budget, const std::string& key, std::optional<uint64_t> limit);
  ~MemoryBudget();
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  uint32_t heap_count() const { return heap_count_; }
  uint64_t heap_size(uint32_t heap) const { return heap_sizes_[heap]; }
  bool driver_budget() const { return driver_budget_; }
  std::optional<uint64_t> limit() const { return limit_; }
  // The largest allocation the heap could ever take: its size, or this device's limit.
  uint64_t capacity(uint32_t heap) const;
  // Asks the driver for its budget when it reports one, so each call costs a driver query.
  HeapState state(uint32_t heap) const;
  // Records `bytes` of `heap` as used until the returned charge is destroyed.
  MemoryCharge charge(uint32_t heap, uint64_t bytes);
  // Bytes of `heap` that this device's allocations hold.
  uint64_t device_used(uint32_t heap) const { return used_[heap].load(); }

  // The pools of every device on this physical device, so that memory one context holds only
  // for reuse can be given back when another needs it. Pools register themselves.
  void add_pool(AllocationPool* pool);
  void remove_pool(AllocationPool* pool);
  // Gives every registered pool's cached allocations back to the driver (thread-safe).
  void release_shared_pools();

 private:
  friend class MemoryCharge;
  void uncharge(uint32_t heap, uint64_t bytes);

  struct Shared;  // per physical device, process-wide: usage per heap and the pools
  VkPhysicalDevice physical_;
  bool driver_budget_;
  std::optional<uint64_t> limit_;
  uint32_t heap_count_ = 0;
  uint64_t heap_sizes_[VK_MAX_MEMORY_HEAPS] = {};
  std::atomic<uint64_t> used_[VK_MAX_MEMORY_HEAPS] = {};
  std::shared_ptr<Shared> shared_;
};

// "512M", "1.5GiB", "2g", "1048576" → bytes (binary multiples: K, M, G, T, with optional "iB"
// or "B"). ShapeError naming `what` and the text for anything else, or for zero.
uint64_t parse_byte_size(const std::string& text, const std::string& what);

// "4.00 TiB", "512.00 MiB", "16 B".
std::string format_bytes(uint64_t bytes);

}  // namespace vka
