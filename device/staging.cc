// The pooled staging area.
#include "device/staging.h"

#include "device/context.h"
#include "device/stream.h"

namespace vka {

StagingPool::Chunk& StagingPool::acquire() {
  if (chunks_.size() < static_cast<size_t>(kNumChunks) &&
      next_ == static_cast<int>(chunks_.size())) {
    auto c = std::make_unique<Chunk>();
    c->allocation = allocate(*device_, kChunkBytes, MemoryUse::kStaging);
    chunks_.push_back(std::move(c));
  }
  Chunk& c = *chunks_[next_];
  next_ = (next_ + 1) % kNumChunks;
  if (c.stream) c.stream->wait(c.busy_until);
  return c;
}

}  // namespace vka
