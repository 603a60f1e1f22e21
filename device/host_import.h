// SharedHostBuffer: one pinned host allocation imported into several devices as device memory
// (VK_EXT_external_memory_host), so that one device's copies write it and another's read it
// with no host copy in between.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "device/context.h"
#include "device/memory.h"

namespace vka {

class SharedHostBuffer {
 public:
  // `nbytes` of page-aligned host memory (rounded up to every device's
  // minImportedHostPointerAlignment) imported into each of `devices`, each of which must have
  // caps().external_memory_host. DeviceError when a device offers no host-coherent memory type
  // for the pointer or refuses the import; OutOfMemory when the host has no memory left.
  SharedHostBuffer(const std::vector<Device*>& devices, uint64_t nbytes);
  // The imports (buffers and their memory) are destroyed first, then the host memory is
  // freed. The caller makes sure no device still uses them.
  ~SharedHostBuffer();
  SharedHostBuffer(const SharedHostBuffer&) = delete;
  SharedHostBuffer& operator=(const SharedHostBuffer&) = delete;

  // The import into devices[i], usable as the source and target of transfers.
  VkBuffer vk_buffer(size_t i) const { return imports_.at(i).buffer; }
  void* data() const { return host_.get(); }
  uint64_t nbytes() const { return nbytes_; }

 private:
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  // Declared before the imports, so that it is freed after them.
  std::unique_ptr<void, Free> host_;
  uint64_t nbytes_ = 0;
  std::vector<Allocation> imports_;
};

}  // namespace vka
