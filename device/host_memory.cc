// Pinned host buffers and mapped device memory.
#include "device/host_memory.h"

#include <cstring>
#include <string>

#include "base/errors.h"
#include "device/stream.h"
#include "device/vk_check.h"

namespace vka {
namespace {

uint64_t round_up(uint64_t x, uint64_t m) { return (x + m - 1) / m * m; }

}  // namespace

int mapped_memory_type(const VkPhysicalDeviceMemoryProperties& mp, uint32_t type_bits,
                       bool require_coherent) {
  constexpr VkMemoryPropertyFlags kNeed =
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  int best = -1, best_score = -1;
  for (uint32_t t = 0; t < mp.memoryTypeCount; ++t) {
    const VkMemoryPropertyFlags f = mp.memoryTypes[t].propertyFlags;
    if (!(type_bits & (1u << t)) || (f & kNeed) != kNeed) continue;
    const bool coherent = f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    if (require_coherent && !coherent) continue;
    const int score = (coherent ? 2 : 0) + ((f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) ? 1 : 0);
    if (score > best_score) {
      best = static_cast<int>(t);
      best_score = score;
    }
  }
  return best;
}

HostBuffer::HostBuffer(std::shared_ptr<Context> context, int device_index, uint64_t nbytes)
    : context_(std::move(context)), device_index_(device_index), nbytes_(nbytes) {
  if (device_index < 0 || device_index >= context_->num_devices()) {
    throw IndexError("[HostArray] device index " + std::to_string(device_index) +
                     " is out of range for a context of " +
                     std::to_string(context_->num_devices()) + " device(s)");
  }
  allocation_ = allocate(device(), nbytes, MemoryUse::kStaging, "HostArray");
}

HostBuffer::~HostBuffer() {
  if (users_.empty()) return;
  // Every stream but the last is waited for here; the last keeps the memory until its work
  // that uses it completes.
  try {
    for (size_t i = 0; i + 1 < users_.size(); ++i) users_[i]->wait_for(allocation_.buffer);
  } catch (...) {  // a lost device has nothing left to wait for
  }
  users_.back()->release_later(std::move(allocation_));
}

void HostBuffer::used_by(Stream& stream) {
  for (Stream* s : users_) {
    if (s == &stream) return;
  }
  users_.push_back(&stream);
}

MappedBuffer::MappedBuffer(std::shared_ptr<Context> context, uint64_t nbytes,
                           MappedOptions options) {
  std::vector<Allocation> allocations;
  for (int r = 0; r < context->num_replicas(); ++r) {
    Device& device = *context->replica(r).device;
    const Caps& caps = device.caps();
    // Before the buffer exists (one past maxBufferSize may not be created), from every type.
    const int guess = mapped_memory_type(device.memory_properties(), ~0u, false);
    if (guess >= 0) check_fits_ever(device, nbytes, static_cast<uint32_t>(guess), "mapped_empty");
    VkDevice dev = device.get();
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = nbytes == 0 ? 16 : nbytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    device.share_across_families(bci);
    VkBuffer buffer = VK_NULL_HANDLE;
    VK_CHECK(vkCreateBuffer(dev, &bci, nullptr, &buffer));
    Allocation a;
    a.buffer = Handle<VkBuffer>(dev, buffer);
    a.size = nbytes;
    a.capacity = bci.size;
    a.use = MemoryUse::kMapped;

    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buffer, &req);
    const int type = mapped_memory_type(device.memory_properties(), req.memoryTypeBits,
                                        options.require_coherent);
    if (type < 0) {
      const bool any =
          mapped_memory_type(device.memory_properties(), req.memoryTypeBits, false) >= 0;
      throw DeviceError(std::string("[mapped_empty] device '") + caps.device_name + "' has no " +
                        (any ? "host-coherent " : "") + "DEVICE_LOCAL|HOST_VISIBLE memory" +
                        (any ? " (require_coherent=True cannot be met)" : ""));
    }
    const VkMemoryPropertyFlags flags = device.memory_properties().memoryTypes[type].propertyFlags;
    const bool coherent = (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
    if (r == 0) {
      coherent_ = coherent && !options.force_non_coherent;
      emulated_ = coherent && options.force_non_coherent;
      atom_ = std::max<uint64_t>(caps.non_coherent_atom_size, 1);
    } else if (coherent_ != (coherent && !options.force_non_coherent) ||
               atom_ != std::max<uint64_t>(caps.non_coherent_atom_size, 1)) {
      throw DeviceError(
          "[mapped_empty] the devices of the context map memory differently "
          "(coherence or atom size); use a context of one device");
    }
    // Whole atoms, so that a range ending at nbytes may be flushed as whole atoms.
    memory_bytes_ = round_up(req.size, atom_);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = memory_bytes_;
    mai.memoryTypeIndex = static_cast<uint32_t>(type);
    DeviceMemory memory = allocate_memory(device, mai, nbytes, "mapped_empty");
    a.charge = std::move(memory.charge);
    a.memory = std::move(memory.memory);
    VK_CHECK(vkBindBufferMemory(dev, buffer, a.memory, 0));
    Mapping m;
    m.memory = a.memory;
    void* ptr = nullptr;
    VK_CHECK(vkMapMemory(dev, a.memory, 0, VK_WHOLE_SIZE, 0, &ptr));
    m.mapped = static_cast<uint8_t*>(ptr);
    if (emulated_) m.shadow.reset(new uint8_t[memory_bytes_]());
    // Allocation::mapped stays null: array reads and writes of this buffer then go through
    // copies, which need no flush or invalidate whatever the coherence.
    mappings_.push_back(std::move(m));
    allocations.push_back(std::move(a));
  }
  buffer_ = std::make_shared<ReplicatedBuffer>(std::move(context), nbytes, std::move(allocations));
}

MappedBuffer::~MappedBuffer() = default;

void* MappedBuffer::host_ptr(int replica) const {
  buffer_->context()->replica(replica);  // IndexError
  const Mapping& m = mappings_[replica];
  return emulated_ ? m.shadow.get() : m.mapped;
}

MappedBuffer::Range MappedBuffer::checked_range(const char* op, uint64_t offset,
                                                std::optional<uint64_t> size) const {
  const uint64_t n = nbytes();
  if (offset > n || (size && *size > n - offset)) {
    throw ShapeError(std::string("[") + op + "] range of " +
                     (size ? std::to_string(*size) : std::string("all")) + " bytes at offset " +
                     std::to_string(offset) + " is outside the mapped memory of " +
                     std::to_string(n) + " bytes");
  }
  const uint64_t end = size ? offset + *size : n;
  const uint64_t atom = non_coherent_atom_size();
  // An empty range touches nothing, so it needs no alignment.
  if (end != offset && (offset % atom != 0 || (end % atom != 0 && end != n))) {
    throw ShapeError(std::string("[") + op + "] offset " + std::to_string(offset) + " and end " +
                     std::to_string(end) + " must be multiples of non_coherent_atom_size " +
                     std::to_string(atom) + " (the end may also be the end of the memory, " +
                     std::to_string(n) + ")");
  }
  Range r;
  r.begin = offset;
  r.end = end;
  r.offset = offset;
  r.size = end == n ? VK_WHOLE_SIZE : end - offset;
  return r;
}

void MappedBuffer::flush(int replica, uint64_t offset, std::optional<uint64_t> size) {
  const Range r = checked_range("flush", offset, size);
  buffer_->context()->replica(replica);  // IndexError
  Mapping& m = mappings_[replica];
  if (r.end == r.begin) return;
  if (emulated_) std::memcpy(m.mapped + r.begin, m.shadow.get() + r.begin, r.end - r.begin);
  if (coherent_) return;
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = m.memory;
  range.offset = r.offset;
  range.size = r.size;
  VK_CHECK(
      vkFlushMappedMemoryRanges(buffer_->context()->replica(replica).device->get(), 1, &range));
}

void MappedBuffer::invalidate(int replica, uint64_t offset, std::optional<uint64_t> size) {
  const Range r = checked_range("invalidate", offset, size);
  Replica& rep = buffer_->context()->replica(replica);
  rep.stream->wait_for(buffer_->vk_buffer(replica));
  Mapping& m = mappings_[replica];
  if (r.end == r.begin) return;
  if (!coherent_) {
    VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = m.memory;
    range.offset = r.offset;
    range.size = r.size;
    VK_CHECK(vkInvalidateMappedMemoryRanges(rep.device->get(), 1, &range));
  }
  if (emulated_) std::memcpy(m.shadow.get() + r.begin, m.mapped + r.begin, r.end - r.begin);
}

}  // namespace vka
