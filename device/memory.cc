// Memory-type choice and buffer allocation.
#include "device/memory.h"

#include <string>

#include "base/errors.h"
#include "device/context.h"
#include "device/vk_check.h"

namespace vka {
namespace {

std::string human_bytes(uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.4g %s", v, units[u]);
  return buf;
}

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

}  // namespace

Allocation allocate(Device& device, uint64_t size, MemoryUse use) {
  const Caps& caps = device.caps();
  // maxMemoryAllocationSize is advisory (the spec lets a larger allocation fail with
  // VK_ERROR_OUT_OF_DEVICE_MEMORY; NVIDIA reports 4 GiB yet serves larger ones), so only the
  // buffer-size limit and the heap bound what is attempted.
  const uint64_t limit = caps.max_buffer_size;
  if (size > limit || size > caps.device_local_bytes) {
    throw ShapeError("[allocate] " + std::to_string(size) + " bytes (" + human_bytes(size) +
                     ") exceed what one buffer on '" + caps.device_name + "' can hold (" +
                     human_bytes(std::min(limit, caps.device_local_bytes)) + ")");
  }
  const uint64_t alloc_size = size == 0 ? 16 : size;
  VkDevice dev = device.get();

  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = alloc_size;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
              VK_BUFFER_USAGE_TRANSFER_DST_BIT;
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
  const auto& mp = device.memory_properties();
  constexpr VkMemoryPropertyFlags kLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  constexpr VkMemoryPropertyFlags kHost =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int type = -1;
  bool map = false;
  if (use == MemoryUse::kDevice) {
    if (caps.host_visible_device_memory && device.host_access() == HostAccess::kAuto) {
      type = find_type(mp, req.memoryTypeBits, kLocal | kHost, 0, 0);
      map = type >= 0;
    }
    if (type < 0) type = find_type(mp, req.memoryTypeBits, kLocal, 0, 0);
  } else {
    type = find_type(mp, req.memoryTypeBits, kHost, VK_MEMORY_PROPERTY_HOST_CACHED_BIT, kLocal);
    map = true;
  }
  if (type < 0) {
    throw DeviceError("[allocate] device '" + caps.device_name + "' has no suitable memory type");
  }

  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  if (bda) mai.pNext = &flags;
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = static_cast<uint32_t>(type);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkResult r = vkAllocateMemory(dev, &mai, nullptr, &memory);
  if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) {
    throw OutOfMemory("[allocate] out of memory allocating " + std::to_string(size) + " bytes (" +
                      human_bytes(size) + ") on '" + caps.device_name + "' (" + vk_result_name(r) +
                      ")");
  }
  VK_CHECK(r);
  a.memory = Handle<VkDeviceMemory>(dev, memory);
  VK_CHECK(vkBindBufferMemory(dev, buffer, memory, 0));
  if (map) {
    VK_CHECK(vkMapMemory(dev, memory, 0, VK_WHOLE_SIZE, 0, &a.mapped));
    a.host_cached = mp.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  }
  if (bda) {
    VkBufferDeviceAddressInfo ai{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    ai.buffer = buffer;
    a.device_address = vkGetBufferDeviceAddress(dev, &ai);
  }
  return a;
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

Allocation AllocationPool::take(uint64_t size, MemoryUse use) {
  const uint64_t cls = size_class(size);
  for (auto it = free_.rbegin(); it != free_.rend(); ++it) {  // most recently used first
    if (it->first == cls && it->second.use == use) {
      Allocation a = std::move(it->second);
      free_.erase(std::next(it).base());
      cached_bytes_ -= cls;
      a.size = size;
      return a;
    }
  }
  // Where rounding up would cross the device's limits, allocate exactly (and let allocate()
  // report the real size when it is too large).
  const Caps& caps = device_->caps();
  const uint64_t want = cls <= caps.max_buffer_size && cls <= caps.device_local_bytes ? cls : size;
  Allocation a;
  try {
    a = allocate(*device_, want, use);
  } catch (const OutOfMemory&) {
    if (free_.empty()) throw;
    release();  // memory held for reuse goes back to the driver, then once more
    a = allocate(*device_, want, use);
  }
  a.size = size;
  return a;
}

void AllocationPool::give(Allocation a) {
  if (!a) return;
  const uint64_t cls = a.capacity;
  if (cls != size_class(cls)) return;  // an exact-size allocation: not reusable by class
  const uint64_t limit = device_->caps().device_local_bytes / 4;
  if (cls > limit) return;
  while (!free_.empty() && cached_bytes_ + cls > limit) {
    cached_bytes_ -= free_.front().first;
    free_.erase(free_.begin());
  }
  cached_bytes_ += cls;
  free_.emplace_back(cls, std::move(a));
}

void AllocationPool::release() {
  free_.clear();
  cached_bytes_ = 0;
}

}  // namespace vka
