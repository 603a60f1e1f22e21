// ReplicatedBuffer: bytes with one device allocation per replica of a context, and the
// host transfers that read and write each replica.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "device/context.h"
#include "device/memory.h"

namespace vka {

class ReplicatedBuffer {
 public:
  // Allocates `nbytes` on every replica, or none: OutOfMemory (naming `op`) when a replica's
  // device cannot hold it or has no room within its budget (device/memory_budget.h).
  // Contents start undefined.
  ReplicatedBuffer(std::shared_ptr<Context> context, uint64_t nbytes,
                   std::string_view op = "allocate");
  // Adopts allocations made elsewhere (mapped device memory), one per replica, each of at
  // least `nbytes`.
  ReplicatedBuffer(std::shared_ptr<Context> context, uint64_t nbytes,
                   std::vector<Allocation> replicas);
  ~ReplicatedBuffer();
  ReplicatedBuffer(const ReplicatedBuffer&) = delete;
  ReplicatedBuffer& operator=(const ReplicatedBuffer&) = delete;

  uint64_t nbytes() const { return nbytes_; }
  const std::shared_ptr<Context>& context() const { return context_; }
  int num_replicas() const { return static_cast<int>(replicas_.size()); }
  VkBuffer vk_buffer(int replica) const { return replicas_.at(replica).buffer; }
  // Bytes a kernel may bind: nbytes rounded up to 32 (so that the last, partial 4-vector of a
  // vectorized kernel lies inside the binding, which robust drivers check per vector), when
  // the VkBuffer is that large on every replica (pool size classes are); else nbytes.
  uint64_t bindable_bytes() const {
    const uint64_t want = (nbytes_ + 31) / 32 * 32;
    for (const Allocation& a : replicas_) {
      if (a.capacity < want) return nbytes_;
    }
    return want;
  }
  uint64_t device_address(int replica) const { return replicas_.at(replica).device_address; }
  // Allocations adopted from elsewhere (mapped arrays, whose memory the host reads and writes
  // through its own pointers).
  bool is_adopted() const { return adopted_; }
  // Whether host writes go straight into device memory on this replica.
  bool is_mapped(int replica) const { return replicas_.at(replica).mapped != nullptr; }
  // Whether host reads come straight from device memory (mapped and host-cached); otherwise
  // they stream through staging, since uncached reads over PCIe are slow.
  bool reads_directly(int replica) const {
    return is_mapped(replica) && replicas_.at(replica).host_cached;
  }

  // Validity: which replicas hold the buffer's current contents. Every replica does, unless
  // the buffer was made by work on some replicas only (an evaluation scoped to one replica, a
  // cross-replica copy: array/replicas.h); then `fill` computes or copies the contents onto
  // another replica the first time something needs them there (ensure_valid), and is dropped
  // once every replica is valid. Host writes, kernels and reads call ensure_valid first.
  bool is_valid(int replica) const { return valid_.at(replica) != 0; }
  bool valid_everywhere() const;
  void set_valid_only(const std::vector<int>& replicas, std::function<void(int)> fill);
  void mark_valid(int replica) const;
  // Makes `replica` valid (running `fill` there when it is not); cheap when it is.
  void ensure_valid(int replica) const {
    if (!valid_.at(replica)) fill_replica(replica);
  }

  // Host → replica(s): `replica` unset writes every replica. Returns once `src` may be reused;
  // the device copy may still be in flight (later work on the replica's stream sees it).
  void write(const void* src, uint64_t offset, uint64_t size, std::optional<int> replica);
  // Replica → host; waits for every earlier command that touches the buffer.
  void read(void* dst, uint64_t offset, uint64_t size, int replica);

 private:
  void check_range(const char* op, uint64_t offset, uint64_t size) const;
  void write_one(int replica, const void* src, uint64_t offset, uint64_t size);
  void fill_replica(int replica) const;

  std::shared_ptr<Context> context_;
  uint64_t nbytes_;
  std::vector<Allocation> replicas_;
  mutable std::vector<char> valid_;        // per replica
  mutable std::function<void(int)> fill_;  // set while some replica is not valid
  bool adopted_ = false;
};

}  // namespace vka
