// Replicated allocations and host transfers: direct through mapped device memory where the
// device offers it, otherwise streamed through the device's staging chunks.
#include "device/buffer.h"

#include <algorithm>
#include <cstring>
#include <deque>

#include "base/effects.h"
#include "base/errors.h"
#include "device/staging.h"
#include "device/stream.h"

namespace vka {

ReplicatedBuffer::ReplicatedBuffer(std::shared_ptr<Context> context, uint64_t nbytes,
                                   std::string_view op)
    : context_(std::move(context)), nbytes_(nbytes) {
  VKA_ASSERT(context_ != nullptr);
  replicas_.reserve(context_->num_replicas());
  // When a replica cannot be allocated, those made before it are freed with replicas_ (never
  // used, they need no stream's release).
  for (int r = 0; r < context_->num_replicas(); ++r) {
    replicas_.push_back(context_->replica(r).device->pool().take(nbytes, MemoryUse::kDevice, op));
  }
  valid_.assign(replicas_.size(), 1);
}

ReplicatedBuffer::ReplicatedBuffer(std::shared_ptr<Context> context, uint64_t nbytes,
                                   std::vector<Allocation> replicas)
    : context_(std::move(context)),
      nbytes_(nbytes),
      replicas_(std::move(replicas)),
      adopted_(true) {
  VKA_ASSERT(context_ != nullptr && num_replicas() == context_->num_replicas());
  for (const Allocation& a : replicas_) VKA_ASSERT(a.capacity >= nbytes_);
  valid_.assign(replicas_.size(), 1);
}

ReplicatedBuffer::~ReplicatedBuffer() {
  for (int r = 0; r < num_replicas(); ++r) {
    Replica& rep = context_->replica(r);
    // The transfer stream's record of its copies into the buffer: the replica's release
    // below already waits for them (Stream::release_later), and the handle may be made again.
    if (Stream* t = rep.device->transfer_stream()) t->forget_use(replicas_[r].buffer.get());
    rep.stream->release_later(std::move(replicas_[r]));
  }
}

bool ReplicatedBuffer::valid_everywhere() const {
  for (char v : valid_) {
    if (!v) return false;
  }
  return true;
}

void ReplicatedBuffer::set_valid_only(const std::vector<int>& replicas,
                                      std::function<void(int)> fill) {
  std::fill(valid_.begin(), valid_.end(), 0);
  for (int r : replicas) valid_.at(r) = 1;
  fill_ = valid_everywhere() ? nullptr : std::move(fill);
  VKA_ASSERT(valid_everywhere() || fill_);
}

void ReplicatedBuffer::mark_valid(int replica) const {
  valid_.at(replica) = 1;
  if (valid_everywhere()) fill_ = nullptr;  // releases what the fill held (its expression)
}

void ReplicatedBuffer::fill_replica(int replica) const {
  context_->replica(replica);  // IndexError
  VKA_ASSERT(fill_ != nullptr);
  std::function<void(int)> fill = fill_;  // the call may drop fill_
  fill(replica);
  mark_valid(replica);
}

void ReplicatedBuffer::check_range(const char* op, uint64_t offset, uint64_t size) const {
  if (offset > nbytes_ || size > nbytes_ - offset) {
    throw ShapeError(std::string("[") + op + "] bytes [" + std::to_string(offset) + ", " +
                     std::to_string(offset + size) + ") are outside a buffer of " +
                     std::to_string(nbytes_) + " bytes");
  }
}

void ReplicatedBuffer::write(const void* src, uint64_t offset, uint64_t size,
                             std::optional<int> replica) {
  check_range("write", offset, size);
  if (replica) context_->replica(*replica);  // IndexError before anything is written
  if (size == 0) return;
  note_effect();
  if (replica) {
    write_one(*replica, src, offset, size);
  } else {
    for (int r = 0; r < num_replicas(); ++r) write_one(r, src, offset, size);
  }
}

void ReplicatedBuffer::write_one(int r, const void* src, uint64_t offset, uint64_t size) {
  // A write of part of a replica keeps the rest: that rest must be there first.
  if (offset != 0 || size != nbytes_) ensure_valid(r);
  mark_valid(r);
  Allocation& a = replicas_[r];
  Stream& stream = *context_->replica(r).stream;
  const auto* bytes = static_cast<const uint8_t*>(src);
  if (a.mapped) {
    stream.wait_for(a.buffer);  // no earlier command may still read or write these bytes
    std::memcpy(static_cast<uint8_t*>(a.mapped) + offset, bytes, size);
    return;
  }
  StagingPool& pool = context_->replica(r).device->staging();
  StagingPool::InUse in_use(pool);
  for (uint64_t pos = 0; pos < size; pos += StagingPool::kChunkBytes) {
    const uint64_t n = std::min<uint64_t>(StagingPool::kChunkBytes, size - pos);
    StagingPool::Chunk& c = pool.acquire("write");
    std::memcpy(c.allocation.mapped, bytes + pos, n);
    stream.copy(c.allocation.buffer, 0, a.buffer, offset + pos, n);
    c.stream = &stream;
    c.busy_until = stream.submit();
  }
}

void ReplicatedBuffer::read(void* dst, uint64_t offset, uint64_t size, int r) {
  check_range("read", offset, size);
  context_->replica(r);  // IndexError
  if (size == 0) return;
  note_effect();
  ensure_valid(r);
  Allocation& a = replicas_[r];
  Stream& stream = *context_->replica(r).stream;
  auto* out = static_cast<uint8_t*>(dst);
  if (reads_directly(r)) {
    stream.wait_for(a.buffer);
    std::memcpy(out, static_cast<const uint8_t*>(a.mapped) + offset, size);
    return;
  }
  // Up to num_chunks copies in flight; each chunk is drained before it is acquired again
  // (round-robin order is FIFO order).
  StagingPool& pool = context_->replica(r).device->staging();
  StagingPool::InUse in_use(pool);  // `pending` points at chunks
  struct Pending {
    StagingPool::Chunk* chunk;
    uint64_t value, pos, n;
  };
  std::deque<Pending> pending;
  auto drain_one = [&] {
    Pending p = pending.front();
    pending.pop_front();
    stream.wait(p.value);
    std::memcpy(out + p.pos, p.chunk->allocation.mapped, p.n);
  };
  for (uint64_t pos = 0; pos < size; pos += StagingPool::kChunkBytes) {
    const uint64_t n = std::min<uint64_t>(StagingPool::kChunkBytes, size - pos);
    if (static_cast<int>(pending.size()) == pool.num_chunks()) drain_one();
    StagingPool::Chunk& c = pool.acquire("read");
    stream.copy(a.buffer, offset + pos, c.allocation.buffer, 0, n);
    c.stream = &stream;
    c.busy_until = stream.submit();
    pending.push_back({&c, c.busy_until, pos, n});
  }
  while (!pending.empty()) drain_one();
}

}  // namespace vka
