// Memory the host and the device both reach: pinned host memory that transfers copy from and
// to without staging (HostBuffer), and device-local memory mapped into the host's address
// space (MappedBuffer: resizable BAR, or unified memory), with its coherence rules.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "device/buffer.h"
#include "device/context.h"
#include "device/memory.h"

namespace vka {

class Stream;

// Host-visible, host-coherent memory (HOST_CACHED where the device offers it) bound to a
// VkBuffer of one device of a context, so that the device copies straight from and into it.
// The memory outlives its owner for as long as a copy recorded on a stream still uses it
// (the destructor hands it to the streams that used it), so dropping a host array while an
// asynchronous transfer runs is safe.
class HostBuffer {
 public:
  // OutOfMemory when the driver cannot provide it; IndexError for a bad device index.
  HostBuffer(std::shared_ptr<Context> context, int device_index, uint64_t nbytes);
  ~HostBuffer();
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  void* data() const { return allocation_.mapped; }
  uint64_t nbytes() const { return nbytes_; }
  VkBuffer vk_buffer() const { return allocation_.buffer; }
  const std::shared_ptr<Context>& context() const { return context_; }
  int device_index() const { return device_index_; }
  Device& device() const { return context_->device(device_index_); }
  bool host_cached() const { return allocation_.host_cached; }
  // Records that `stream` has work that uses this memory (so the destructor defers the free).
  void used_by(Stream& stream);

 private:
  std::shared_ptr<Context> context_;
  int device_index_;
  uint64_t nbytes_;
  Allocation allocation_;
  std::vector<Stream*> users_;
};

// The memory type for mapped device memory among `type_bits`: DEVICE_LOCAL|HOST_VISIBLE,
// coherent where possible (or required), then host-cached; -1 when there is none.
int mapped_memory_type(const VkPhysicalDeviceMemoryProperties& properties, uint32_t type_bits,
                       bool require_coherent);

struct MappedOptions {
  bool require_coherent = false;  // fail unless the memory is HOST_COHERENT
  // Treat coherent memory as non-coherent (for testing code that flushes and invalidates):
  // the host then sees a separate copy of the memory that only flush() and invalidate()
  // move to and from the device, so a missing flush or invalidate shows in results.
  bool force_non_coherent = false;
};

// DEVICE_LOCAL|HOST_VISIBLE memory of `nbytes` on every replica, mapped for the host, and
// usable by kernels as any buffer (buffer()). Host writes reach the device only after
// flush() and device writes reach the host only after invalidate() when the memory is not
// coherent; ranges are byte offsets into the memory, and both ends of a non-empty range must
// be multiples of non_coherent_atom_size() except an end at nbytes.
class MappedBuffer {
 public:
  // DeviceError naming the device when it has no host-visible device-local memory, or when
  // `require_coherent` cannot be met; ShapeError past the device's limits; OutOfMemory.
  MappedBuffer(std::shared_ptr<Context> context, uint64_t nbytes, MappedOptions options = {});
  ~MappedBuffer();
  MappedBuffer(const MappedBuffer&) = delete;
  MappedBuffer& operator=(const MappedBuffer&) = delete;

  const std::shared_ptr<ReplicatedBuffer>& buffer() const { return buffer_; }
  uint64_t nbytes() const { return buffer_->nbytes(); }
  // What the host reads and writes for `replica` (IndexError when out of range).
  void* host_ptr(int replica) const;
  bool is_coherent() const { return coherent_; }
  // 1 when coherent, else the device's nonCoherentAtomSize.
  uint64_t non_coherent_atom_size() const { return coherent_ ? 1 : atom_; }
  // `size` unset: to the end. ShapeError (ValueError) for a range outside the memory or ends
  // not on the atom; nothing happens then.
  void flush(int replica, uint64_t offset, std::optional<uint64_t> size);
  // Waits for the device work recorded on the replica that touches the memory, then makes
  // device writes visible to the host.
  void invalidate(int replica, uint64_t offset, std::optional<uint64_t> size);

 private:
  struct Range {
    uint64_t offset, size;  // in the VkDeviceMemory, atom-aligned, or size == VK_WHOLE_SIZE
    uint64_t begin, end;    // the bytes of the memory the user's range covers
  };
  Range checked_range(const char* op, uint64_t offset, std::optional<uint64_t> size) const;

  struct Mapping {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint8_t* mapped = nullptr;
    std::unique_ptr<uint8_t[]> shadow;  // force_non_coherent: the host's separate copy
  };
  std::shared_ptr<ReplicatedBuffer> buffer_;
  std::vector<Mapping> mappings_;
  bool coherent_ = true;
  bool emulated_ = false;
  uint64_t atom_ = 1;
  uint64_t memory_bytes_ = 0;  // each VkDeviceMemory's size: nbytes rounded up to the atom
};

}  // namespace vka
