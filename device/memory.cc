// Memory-type choice and buffer allocation.
#include "device/memory.h"

#include <optional>
#include <string>

#include "base/errors.h"
#include "device/context.h"
#include "device/vk_check.h"

namespace vka {
namespace {

// Best memory type allowed by `type_bits` that has `required` flags; ties go to `preferred`
// flags, then away from `avoided` ones.
int find_type(const VkPhysicalDeviceMemoryProperties& mp, uint32_t type_bits,
              VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
              VkMemoryPropertyFlags avoided) {
  int best = -1, best_score = -1;
  for (uint32_t t = 0; t < mp.memoryTypeCount; ++t) {
    if (!(type_bits & (1u << t))) continue;
    VkMemoryPropertyFlags f = mp.memoryTypes[t].propertyFlags;
    if ((f & required) != required) continue;
    int score = ((f & preferred) == preferred ? 2 : 0) + ((f & avoided) ? 0 : 1);
    if (score > best_score) {
      best = static_cast<int>(t);
      best_score = score;
    }
  }
  return best;
}

// The memory type for `use` among `type_bits`, and whether the host maps it; -1 when none.
int choose_type(const Device& device, uint32_t type_bits, MemoryUse use, bool* map) {
  const auto& mp = device.memory_properties();
  constexpr VkMemoryPropertyFlags kLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  constexpr VkMemoryPropertyFlags kHost =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int type = -1;
  *map = false;
  if (use == MemoryUse::kDevice) {
    if (device.caps().host_visible_device_memory && device.host_access() == HostAccess::kAuto) {
      type = find_type(mp, type_bits, kLocal | kHost, 0, 0);
      *map = type >= 0;
    }
    if (type < 0) type = find_type(mp, type_bits, kLocal, 0, 0);
  } else {
    type = find_type(mp, type_bits, kHost, VK_MEMORY_PROPERTY_HOST_CACHED_BIT, kLocal);
    *map = true;
  }
  return type;
}

bool out_of_memory_result(VkResult r) {
  return r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY;
}

}  // namespace

std::string out_of_memory_message(Device& device, std::string_view op, uint64_t requested,
                                  uint32_t heap, const std::string& detail) {
  const HeapState s = device.memory_budget().state(heap);
  return "[" + std::string(op) + "] cannot allocate " + format_bytes(requested) + " (" +
         std::to_string(requested) + " bytes) on device \"" + device.caps().device_name +
         "\": heap " + std::to_string(heap) + " has " + format_bytes(s.free()) + " of " +
         format_bytes(s.budget) + " free (budget: " + describe(s.source) + ")" +
         (detail.empty() ? "" : "; " + detail);
}

void check_fits_ever(Device& device, uint64_t size, uint32_t type, std::string_view op) {
  const uint32_t heap = device.memory_properties().memoryTypes[type].heapIndex;
  const MemoryBudget& budget = device.memory_budget();
  std::string why;
  if (size > budget.heap_size(heap)) {
    why = "the whole heap holds " + format_bytes(budget.heap_size(heap));
  } else if (budget.limit() && size > *budget.limit()) {
    why = "this device's memory_budget is " + format_bytes(*budget.limit());
  } else if (size > device.caps().max_buffer_size) {
    why = "one buffer holds at most " + format_bytes(device.caps().max_buffer_size) +
          " (maxBufferSize)";
  } else {
    return;
  }
  throw OutOfMemory(out_of_memory_message(device, op, size, heap, why));
}

DeviceMemory allocate_memory(Device& device, const VkMemoryAllocateInfo& info, uint64_t requested,
                             std::string_view op) {
  const uint32_t heap = device.memory_properties().memoryTypes[info.memoryTypeIndex].heapIndex;
  check_fits_ever(device, info.allocationSize, info.memoryTypeIndex, op);
  MemoryBudget& budget = device.memory_budget();
  VkResult refused = VK_SUCCESS;
  // Past the budget nothing is asked of the driver: lavapipe, for one, serves allocations far
  // beyond the heap it reports, out of host memory, until the kernel's OOM killer ends the
  // process.
  for (int level = 0;; ++level) {
    refused = VK_SUCCESS;
    if (budget.state(heap).free() >= info.allocationSize) {
      VkDeviceMemory memory = VK_NULL_HANDLE;
      const VkResult r = vkAllocateMemory(device.get(), &info, nullptr, &memory);
      if (!out_of_memory_result(r)) {
        DeviceMemory out;
        if (r == VK_SUCCESS) out.memory = Handle<VkDeviceMemory>(device.get(), memory);
        VK_CHECK(r);
        out.charge = budget.charge(heap, info.allocationSize);
        return out;
      }
      refused = r;
      discard_validation_message(vk_result_name(r));  // handled here, not a misuse
    }
    if (level == Device::kReclaimLevels) break;
    device.reclaim_memory(level);
  }
  throw OutOfMemory(out_of_memory_message(
      device, op, requested, heap,
      refused == VK_SUCCESS ? ""
                            : std::string("vkAllocateMemory returned ") + vk_result_name(refused)));
}

Allocation allocate(Device& device, uint64_t size, MemoryUse use, std::string_view op) {
  const Caps& caps = device.caps();
  VkDevice dev = device.get();
  bool map = false;
  // The buffer's memory types, guessed from every type: a buffer past maxBufferSize may not
  // even be created, and the message names the heap.
  const int guess = choose_type(device, ~0u, use, &map);
  if (guess < 0) {
    throw DeviceError("[allocate] device '" + caps.device_name + "' has no suitable memory type");
  }
  check_fits_ever(device, size, static_cast<uint32_t>(guess), op);
  const uint64_t alloc_size = size == 0 ? 16 : size;

  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = alloc_size;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
              VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  // Staging memory also holds kernels' argument blocks (Stream::upload_arguments).
  if (use == MemoryUse::kStaging) bci.usage |= VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
  const bool bda = caps.buffer_device_address && use == MemoryUse::kDevice;
  if (bda) bci.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  device.share_across_families(bci);
  VkBuffer buffer = VK_NULL_HANDLE;
  VK_CHECK(vkCreateBuffer(dev, &bci, nullptr, &buffer));
  Allocation a;
  a.buffer = Handle<VkBuffer>(dev, buffer);
  a.size = size;
  a.capacity = alloc_size;
  a.use = use;

  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, buffer, &req);
  const int type = choose_type(device, req.memoryTypeBits, use, &map);
  if (type < 0) {
    throw DeviceError("[allocate] device '" + caps.device_name + "' has no suitable memory type");
  }

  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  if (bda) mai.pNext = &flags;
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = static_cast<uint32_t>(type);
  DeviceMemory memory = allocate_memory(device, mai, size, op);
  a.charge = std::move(memory.charge);
  a.memory = std::move(memory.memory);
  VK_CHECK(vkBindBufferMemory(dev, buffer, a.memory, 0));
  if (map) {
    VK_CHECK(vkMapMemory(dev, a.memory, 0, VK_WHOLE_SIZE, 0, &a.mapped));
    const auto& mp = device.memory_properties();
    a.host_cached = mp.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  }
  if (bda) {
    VkBufferDeviceAddressInfo ai{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    ai.buffer = buffer;
    a.device_address = vkGetBufferDeviceAddress(dev, &ai);
  }
  return a;
}

AllocationPool::AllocationPool(Device& device) : device_(&device) {
  device.memory_budget().add_pool(this);
}

AllocationPool::~AllocationPool() {
  device_->memory_budget().remove_pool(this);
  release();
}

uint64_t AllocationPool::size_class(uint64_t size) {
  constexpr uint64_t kSmall = 1ull << 20, kLargeStep = 2ull << 20;
  if (size <= 256) return 256;
  if (size <= kSmall) {
    uint64_t c = 256;
    while (c < size) c <<= 1;
    return c;
  }
  return (size + kLargeStep - 1) / kLargeStep * kLargeStep;
}

uint64_t AllocationPool::cached_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cached_bytes_;
}

Allocation AllocationPool::take(uint64_t size, MemoryUse use, std::string_view op) {
  const uint64_t cls = size_class(size);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = free_.rbegin(); it != free_.rend(); ++it) {  // most recently used first
      if (it->first == cls && it->second.use == use) {
        Allocation a = std::move(it->second);
        free_.erase(std::next(it).base());
        cached_bytes_ -= cls;
        a.size = size;
        return a;
      }
    }
  }
  // Where rounding up would cross the device's limits, allocate exactly (and let allocate()
  // report the real size when it is too large). Not under the lock: allocating may release
  // this pool.
  const Caps& caps = device_->caps();
  const std::optional<uint64_t> limit = device_->memory_budget().limit();
  const bool exact =
      cls > caps.max_buffer_size || cls > caps.device_local_bytes || (limit && cls > *limit);
  Allocation a;
  try {
    a = allocate(*device_, exact ? size : cls, use, op);
  } catch (const OutOfMemory&) {
    if (exact || cls == size) throw;
    a = allocate(*device_, size, use, op);  // the class's rounding may be what does not fit
  }
  a.size = size;
  return a;
}

void AllocationPool::give(Allocation a) {
  if (!a) return;
  const uint64_t cls = a.capacity;
  if (cls != size_class(cls)) return;  // an exact-size allocation: not reusable by class
  const uint64_t device_bytes = device_->caps().device_local_bytes;
  const uint64_t limit =
      std::min(device_bytes, device_->memory_budget().limit().value_or(device_bytes)) / 4;
  if (cls > limit) return;
  std::vector<Allocation> evicted;  // freed after the lock is let go
  std::lock_guard<std::mutex> lock(mutex_);
  while (!free_.empty() && cached_bytes_ + cls > limit) {
    cached_bytes_ -= free_.front().first;
    evicted.push_back(std::move(free_.front().second));
    free_.erase(free_.begin());
  }
  cached_bytes_ += cls;
  free_.emplace_back(cls, std::move(a));
}

void AllocationPool::release() {
  std::vector<std::pair<uint64_t, Allocation>> cached;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cached.swap(free_);
    cached_bytes_ = 0;
  }
}

}  // namespace vka
