// Heap accounting: this device's charges, the process-wide count per physical device, the
// driver's budget where it reports one, and the registry of pools that can give memory back.
#include "device/memory_budget.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "base/errors.h"
#include "device/memory.h"

namespace vka {

// Every vkarray device on one physical device in this process: what they use of each heap
// (the driver's heapUsage where it reports none) and their pools.
struct MemoryBudget::Shared {
  std::atomic<uint64_t> used[VK_MAX_MEMORY_HEAPS] = {};
  std::mutex mutex;  // guards pools; taken before any pool's own mutex
  std::vector<AllocationPool*> pools;
};

namespace {

std::mutex registry_mutex;
// Never destroyed: the default context may be destroyed by an atexit handler that runs after
// static destructors.
std::map<std::string, std::weak_ptr<void>>& registry() {
  static auto* r = new std::map<std::string, std::weak_ptr<void>>();
  return *r;
}

}  // namespace

MemoryCharge::MemoryCharge(MemoryCharge&& o) noexcept
    : budget_(std::exchange(o.budget_, nullptr)),
      heap_(o.heap_),
      bytes_(std::exchange(o.bytes_, 0)) {}

MemoryCharge& MemoryCharge::operator=(MemoryCharge&& o) noexcept {
  if (this != &o) {
    reset();
    budget_ = std::exchange(o.budget_, nullptr);
    heap_ = o.heap_;
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

void MemoryCharge::reset() {
  if (budget_) budget_->uncharge(heap_, bytes_);
  budget_ = nullptr;
  bytes_ = 0;
}

const char* describe(BudgetSource source) {
  switch (source) {
    case BudgetSource::kDriver:
      return "the driver's budget for this process, VK_EXT_memory_budget";
    case BudgetSource::kHeapSize:
      return "the heap's size, shared by every vkarray device on this GPU";
    case BudgetSource::kLimit:
      return "this device's memory_budget";
  }
  return "?";
}

MemoryBudget::MemoryBudget(VkPhysicalDevice physical,
                           const VkPhysicalDeviceMemoryProperties& properties, bool driver_budget,
                           const std::string& key, std::optional<uint64_t> limit)
    : physical_(physical), driver_budget_(driver_budget), limit_(limit) {
  heap_count_ = properties.memoryHeapCount;
  for (uint32_t h = 0; h < heap_count_; ++h) heap_sizes_[h] = properties.memoryHeaps[h].size;
  std::lock_guard<std::mutex> lock(registry_mutex);
  std::weak_ptr<void>& slot = registry()[key];
  shared_ = std::static_pointer_cast<Shared>(slot.lock());
  if (!shared_) {
    shared_ = std::make_shared<Shared>();
    slot = shared_;
  }
}

MemoryBudget::~MemoryBudget() {
  std::lock_guard<std::mutex> lock(registry_mutex);
  shared_.reset();
  // Drop expired entries, so that a process making many contexts keeps the map small.
  auto& r = registry();
  for (auto it = r.begin(); it != r.end();) it = it->second.expired() ? r.erase(it) : ++it;
}

uint64_t MemoryBudget::capacity(uint32_t heap) const {
  return limit_ ? std::min(*limit_, heap_sizes_[heap]) : heap_sizes_[heap];
}

HeapState MemoryBudget::state(uint32_t heap) const {
  HeapState s;
  s.heap = heap;
  s.size = heap_sizes_[heap];
  s.device_used = used_[heap].load();
  s.budget = s.size;
  s.used = shared_->used[heap].load();
  s.source = BudgetSource::kHeapSize;
  if (driver_budget_) {
    VkPhysicalDeviceMemoryBudgetPropertiesEXT b{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
    VkPhysicalDeviceMemoryProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
    p.pNext = &b;
    vkGetPhysicalDeviceMemoryProperties2(physical_, &p);
    if (b.heapBudget[heap] > 0) {  // a driver that fills in nothing leaves the heap's size
      s.budget = b.heapBudget[heap];
      s.used = b.heapUsage[heap];
      s.source = BudgetSource::kDriver;
    }
  }
  if (limit_) {
    const uint64_t free_here = *limit_ > s.device_used ? *limit_ - s.device_used : 0;
    if (free_here <= s.free()) {
      s.budget = *limit_;
      s.used = s.device_used;
      s.source = BudgetSource::kLimit;
    }
  }
  return s;
}

MemoryCharge MemoryBudget::charge(uint32_t heap, uint64_t bytes) {
  used_[heap].fetch_add(bytes);
  shared_->used[heap].fetch_add(bytes);
  return MemoryCharge(this, heap, bytes);
}

void MemoryBudget::uncharge(uint32_t heap, uint64_t bytes) {
  used_[heap].fetch_sub(bytes);
  shared_->used[heap].fetch_sub(bytes);
}

void MemoryBudget::add_pool(AllocationPool* pool) {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  shared_->pools.push_back(pool);
}

void MemoryBudget::remove_pool(AllocationPool* pool) {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  auto& pools = shared_->pools;
  pools.erase(std::remove(pools.begin(), pools.end(), pool), pools.end());
}

void MemoryBudget::release_shared_pools() {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  for (AllocationPool* pool : shared_->pools) pool->release();
}

uint64_t parse_byte_size(const std::string& text, const std::string& what) {
  auto fail = [&]() -> uint64_t {
    throw ShapeError("[context] " + what + " must be a positive size such as 512M, 1.5GiB or " +
                     "1048576 (bytes), got '" + text + "'");
  };
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const size_t start = i;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
    ++i;
  }
  const std::string number = text.substr(start, i - start);
  std::string unit;
  for (; i < text.size(); ++i) {
    if (!std::isspace(static_cast<unsigned char>(text[i]))) {
      unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    }
  }
  if (number.empty() || std::count(number.begin(), number.end(), '.') > 1) return fail();
  int shift = -1;
  const std::pair<const char*, int> units[] = {
      {"", 0},     {"b", 0},  {"k", 10},  {"kb", 10},  {"kib", 10}, {"m", 20},  {"mb", 20},
      {"mib", 20}, {"g", 30}, {"gb", 30}, {"gib", 30}, {"t", 40},   {"tb", 40}, {"tib", 40}};
  for (const auto& u : units) {
    if (unit == u.first) shift = u.second;
  }
  if (shift < 0) return fail();
  const long double value = std::strtold(number.c_str(), nullptr) * std::ldexp(1.0L, shift);
  if (!(value >= 1) || value >= std::ldexp(1.0L, 64)) return fail();
  if (number.find('.') == std::string::npos && shift == 0) {
    return std::strtoull(number.c_str(), nullptr, 10);  // exact past 2^53
  }
  return static_cast<uint64_t>(value);
}

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.2f %s", v, units[u]);
  return buf;
}

}  // namespace vka
