// Cross-stream synchronization: semaphore waits on other streams, foreign uses of buffers
// (another stream's submitted work on them), host waits for one buffer, deferred releases.
#include <algorithm>

#include "base/errors.h"
#include "device/context.h"
#include "device/memory.h"
#include "device/stream.h"

namespace vka {

void Stream::wait_semaphore(VkSemaphore semaphore, uint64_t value) {
  for (auto& w : waits_) {
    if (w.first == semaphore) {
      w.second = std::max(w.second, value);
      return;
    }
  }
  waits_.emplace_back(semaphore, value);
  recording();  // the wait belongs to a submission, so there must be one
}

void Stream::wait_on(const Stream& other, uint64_t value) {
  VKA_ASSERT(other.device_ == device_ && &other != this);
  if (value == 0) return;
  for (auto& [sem, v] : waits_) {
    if (sem == other.timeline_.get()) {
      v = std::max(v, value);
      return;
    }
  }
  waits_.emplace_back(other.timeline_.get(), value);
  ++stats_.queue_waits;
}

void Stream::mark_used(VkBuffer buffer) { last_use_[buffer] = pending_value(); }

uint64_t Stream::last_use(VkBuffer buffer) const {
  auto it = last_use_.find(buffer);
  return it == last_use_.end() ? 0 : it->second;
}

void Stream::wait_for_use(Stream& other, VkBuffer buffer) {
  const uint64_t value = other.last_use(buffer);
  if (value == 0) return;
  if (value > other.last_submitted_) other.submit();
  wait_on(other, value);
}

void Stream::foreign_use(VkBuffer buffer, Stream& other, uint64_t value, bool writes) {
  VKA_ASSERT(other.device_ == device_ && &other != this && value <= other.last_submitted_);
  auto [it, added] = foreign_.try_emplace(buffer, Foreign{&other, value, writes});
  if (!added) {
    // Two streams other than this one never both hold a buffer: the transfer stream is the
    // only foreign user of a replica's buffers.
    VKA_ASSERT(it->second.stream == &other);
    it->second.value = std::max(it->second.value, value);
    it->second.writes = it->second.writes || writes;
  }
}

void Stream::wait_foreign(const VkBuffer* buffers, size_t n, bool writing) {
  for (size_t i = 0; i < n; ++i) {
    auto it = foreign_.find(buffers[i]);
    if (it == foreign_.end() || !(writing || it->second.writes)) continue;  // reads both
    const Foreign f = it->second;
    foreign_.erase(it);
    // Split: commands recorded so far do not touch the buffer, so they run without waiting.
    if (current_) submit();
    wait_on(*f.stream, f.value);
  }
}

void Stream::wait_for(VkBuffer buffer) {
  if (auto f = foreign_.find(buffer); f != foreign_.end()) {
    f->second.stream->wait(f->second.value);
    foreign_.erase(f);
  }
  auto it = last_use_.find(buffer);
  if (it == last_use_.end()) return;
  wait(it->second);
}

void Stream::release_later(Allocation allocation) {
  if (auto f = foreign_.find(allocation.buffer.get()); f != foreign_.end()) {
    // The other stream's work waited for this stream's uses before it, and this stream has
    // not written the buffer since (that settles the foreign use): the other stream releases
    // the memory once past its value. Reads of this stream since then (a foreign read does not
    // hold back reads) are still pending: the other stream waits for them first.
    Stream* other = f->second.stream;
    foreign_.erase(f);
    const VkBuffer buffer = allocation.buffer.get();
    const uint64_t mine = last_use(buffer);
    last_use_.erase(buffer);
    written_.erase(buffer);
    read_.erase(buffer);
    if (mine > completed_value()) {
      if (mine > last_submitted_) submit();
      other->wait_on(*this, mine);
      other->submit();
    }
    other->release_later(std::move(allocation));
    return;
  }
  last_use_.erase(allocation.buffer.get());
  written_.erase(allocation.buffer.get());
  read_.erase(allocation.buffer.get());
  // Work recorded but not yet submitted will signal last_submitted_ + 1.
  const uint64_t value = current_ ? last_submitted_ + 1 : last_submitted_;
  if (value == 0 || value <= completed_value()) {  // unused, or the stream is idle
    if (allocation.use == MemoryUse::kDevice) device_->pool().give(std::move(allocation));
    return;
  }
  garbage_.emplace_back(value, std::move(allocation));
}

}  // namespace vka
