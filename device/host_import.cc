// Host memory imported into devices: VkImportMemoryHostPointerInfoEXT over one aligned
// allocation, one VkBuffer and VkDeviceMemory per device.
#include "device/host_import.h"

#include <algorithm>
#include <string>

#include "base/errors.h"
#include "device/vk_check.h"

namespace vka {
namespace {

constexpr VkExternalMemoryHandleTypeFlagBits kHostHandle =
    VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;

uint64_t round_up(uint64_t x, uint64_t m) { return (x + m - 1) / m * m; }

// A VkBuffer of `size` bytes that may be bound to imported host memory.
Handle<VkBuffer> import_buffer(VkDevice dev, uint64_t size) {
  VkExternalMemoryBufferCreateInfo ext{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  ext.handleTypes = kHostHandle;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.pNext = &ext;
  bci.size = size;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VK_CHECK(vkCreateBuffer(dev, &bci, nullptr, &buffer));
  return Handle<VkBuffer>(dev, buffer);
}

// Whether transfer buffers of the device may be bound to imported host memory.
bool importable(Device& d) {
  VkPhysicalDeviceExternalBufferInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.handleType = kHostHandle;
  VkExternalBufferProperties props{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  vkGetPhysicalDeviceExternalBufferProperties(d.physical(), &info, &props);
  return props.externalMemoryProperties.externalMemoryFeatures &
         VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
}

}  // namespace

SharedHostBuffer::SharedHostBuffer(const std::vector<Device*>& devices, uint64_t nbytes) {
  VKA_ASSERT(!devices.empty() && nbytes > 0);
  uint64_t align = 4096;
  for (Device* d : devices) {
    VKA_ASSERT(d->caps().external_memory_host);
    if (!importable(*d)) {
      throw DeviceError("[cross-device copy] device '" + d->caps().device_name +
                        "' cannot bind transfer buffers to imported host memory");
    }
    align = std::max<uint64_t>(align, d->caps().min_imported_host_pointer_alignment);
  }
  // The buffers first: the host allocation covers the largest memory requirement.
  std::vector<Handle<VkBuffer>> buffers;
  uint64_t size = round_up(nbytes, align);
  for (Device* d : devices) {
    buffers.push_back(import_buffer(d->get(), nbytes));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d->get(), buffers.back().get(), &req);
    size = std::max(size, round_up(req.size, std::max<uint64_t>(align, req.alignment)));
  }
  host_.reset(std::aligned_alloc(align, size));
  if (!host_) {
    throw OutOfMemory("[cross-device copy] out of host memory allocating " + std::to_string(size) +
                      " bytes of shared staging");
  }
  nbytes_ = nbytes;
  for (size_t i = 0; i < devices.size(); ++i) {
    Device& d = *devices[i];
    VkDevice dev = d.get();
    auto host_pointer_properties = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
        vkGetDeviceProcAddr(dev, "vkGetMemoryHostPointerPropertiesEXT"));
    if (!host_pointer_properties) {
      throw DeviceError("[cross-device copy] device '" + d.caps().device_name +
                        "' has no vkGetMemoryHostPointerPropertiesEXT");
    }
    VkMemoryHostPointerPropertiesEXT hp{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    VK_CHECK(host_pointer_properties(dev, kHostHandle, host_.get(), &hp));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buffers[i].get(), &req);
    // Host-visible and host-coherent: one device's writes, made available to the host by the
    // end-of-submission barrier, are what the other device's copies read.
    constexpr VkMemoryPropertyFlags kNeed =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    const VkPhysicalDeviceMemoryProperties& mp = d.memory_properties();
    int type = -1;
    for (uint32_t t = 0; t < mp.memoryTypeCount && type < 0; ++t) {
      if ((hp.memoryTypeBits & req.memoryTypeBits & (1u << t)) &&
          (mp.memoryTypes[t].propertyFlags & kNeed) == kNeed) {
        type = static_cast<int>(t);
      }
    }
    if (type < 0) {
      throw DeviceError("[cross-device copy] device '" + d.caps().device_name +
                        "' offers no host-coherent memory type for imported host memory");
    }
    VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
    import.handleType = kHostHandle;
    import.pHostPointer = host_.get();
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.pNext = &import;
    mai.allocationSize = size;
    mai.memoryTypeIndex = static_cast<uint32_t>(type);
    // Counted against the device's budget like any allocation (OutOfMemory when it does not
    // fit); a driver that refuses the pointer itself raises DeviceError.
    Allocation a;
    try {
      DeviceMemory memory = allocate_memory(d, mai, size, "cross-device copy");
      a.charge = std::move(memory.charge);
      a.memory = std::move(memory.memory);
    } catch (const DeviceError& e) {
      throw DeviceError("[cross-device copy] device '" + d.caps().device_name +
                        "' refused to import " + std::to_string(size) + " bytes of host memory (" +
                        e.what() + ")");
    }
    VK_CHECK(vkBindBufferMemory(dev, buffers[i].get(), a.memory, 0));
    a.buffer = std::move(buffers[i]);
    a.size = nbytes;
    a.capacity = nbytes;
    a.use = MemoryUse::kStaging;
    imports_.push_back(std::move(a));
  }
}

SharedHostBuffer::~SharedHostBuffer() {
  imports_.clear();  // every device's buffer and memory, before the host memory they use
}

}  // namespace vka
