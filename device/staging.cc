// The pooled staging area.
#include "device/staging.h"

#include "device/context.h"
#include "device/stream.h"

namespace vka {

StagingPool::Chunk& StagingPool::acquire(std::string_view op) {
  if (chunks_.size() < static_cast<size_t>(kNumChunks) &&
      next_ == static_cast<int>(chunks_.size())) {
    InUse in_use(*this);  // the allocation may reclaim memory, but not these chunks
    auto c = std::make_unique<Chunk>();
    c->allocation = allocate(*device_, kChunkBytes, MemoryUse::kStaging, op);
    chunks_.push_back(std::move(c));
  }
  Chunk& c = *chunks_[next_];
  next_ = (next_ + 1) % kNumChunks;
  if (c.stream) c.stream->wait(c.busy_until);
  return c;
}

void StagingPool::trim() {
  if (users_ > 0) return;
  for (auto& c : chunks_) {
    if (c->stream) c->stream->wait(c->busy_until);
  }
  chunks_.clear();
  next_ = 0;
}

}  // namespace vka
