// StagingPool: a few reusable host-visible chunks per device through which large transfers
// stream, so that no transfer needs a staging buffer of its own size.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
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
  // `op` names the transfer in an OutOfMemory message.
  Chunk& acquire(std::string_view op = "transfer");
  int num_chunks() const { return kNumChunks; }
  void release_all() { chunks_.clear(); }
  // Frees the chunks (once the work that uses them has completed) unless a transfer holds
  // them now: the memory comes back when an allocation needs it (Device::reclaim_memory).
  void trim();
  uint64_t allocated_bytes() const { return chunks_.size() * kChunkBytes; }

  // Held by a transfer while it uses chunks, so that an allocation it makes cannot free them.
  class InUse {
   public:
    explicit InUse(StagingPool& pool) : pool_(pool) { ++pool_.users_; }
    ~InUse() { --pool_.users_; }
    InUse(const InUse&) = delete;
    InUse& operator=(const InUse&) = delete;

   private:
    StagingPool& pool_;
  };

 private:
  Device* device_;
  std::vector<std::unique_ptr<Chunk>> chunks_;
  int next_ = 0;
  int users_ = 0;
};

}  // namespace vka
