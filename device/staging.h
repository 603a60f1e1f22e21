// StagingPool: a few reusable host-visible chunks per device through which large transfers
// stream, so that no transfer needs a staging buffer of its own size.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "device/memory.h"

namespace vka {

class Device;
class Stream;

class StagingPool {
 public:
  static constexpr uint64_t kChunkBytes = 32ull << 20;
  static constexpr int kNumChunks = 3;  // one filling, one copying, one spare

  explicit StagingPool(Device& device) : device_(&device) {}

  struct Chunk {
    Allocation allocation;
    Stream* stream = nullptr;  // the stream whose work last used this chunk
    uint64_t busy_until = 0;   // ... and the timeline value that ends that use
  };

  // The next chunk in round-robin order, once the work that last used it has completed.
  Chunk& acquire();
  int num_chunks() const { return kNumChunks; }
  void release_all() { chunks_.clear(); }

 private:
  Device* device_;
  std::vector<std::unique_ptr<Chunk>> chunks_;
  int next_ = 0;
};

}  // namespace vka
