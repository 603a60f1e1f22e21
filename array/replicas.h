// Replicas: the replica scope, per-replica evaluation helpers, and the cross-replica
// operations (broadcast, gather, all_reduce) with the copy paths between replicas.
//
// Semantics (SPMD, as vkdispatch's buffers): every array has one value per replica of its
// context. A lazy expression runs on every replica, each on its own data, unless evaluation is
// scoped to one replica (ReplicaScope, Array::eval(replica)). A buffer knows which replicas
// hold its value (ReplicatedBuffer validity); a value made on some replicas only is computed
// (or copied) onto another the first time something needs it there: a read, a kernel, a copy.
// Writing one replica (Array::write(data, n, i)) changes that replica's value only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "array/array.h"
#include "device/buffer.h"

namespace vka {

// Evaluation scoped to one replica, for the current thread, while the object lives: eval()
// and host conversions that name no replica use it (nested scopes stack).
class ReplicaScope {
 public:
  explicit ReplicaScope(int replica);
  ~ReplicaScope();
  ReplicaScope(const ReplicaScope&) = delete;
  ReplicaScope& operator=(const ReplicaScope&) = delete;

 private:
  std::optional<int> previous_;
};

// The innermost ReplicaScope's replica on this thread (none outside every scope).
std::optional<int> current_replica();

// Submits the work recorded on every replica of `context` without waiting for it, so that the
// queues run while the host waits for one of them.
void flush(Context& context);

// How bytes move from one replica to another.
enum class ReplicaPath {
  kSameQueue,    // the same replica: a copy on its queue
  kQueueToQueue, // another queue of the same logical device: a device copy, ordered by the
                 // queues' timeline semaphores (no host wait)
  // Another logical device: chunked and pipelined through pinned host memory
  // (device/cross_device.h), the host waiting on the source's timeline for each chunk.
  kSharedHost,  // one host allocation imported into both devices, no host copy
  kStagedHost,  // a pinned buffer of each device and a host copy per chunk
};
const char* name(ReplicaPath path);

// Copies `size` bytes of `src` on replica `from` to `dst` on replica `to`, by the path the two
// replicas allow (reported at VKA_DEBUG=1). Makes `src` valid on `from` first.
ReplicaPath copy_between_replicas(const ReplicatedBuffer& src, int from, uint64_t src_offset,
                                  ReplicatedBuffer& dst, int to, uint64_t dst_offset,
                                  uint64_t size);

// Cross-replica copies so far, by path (for tests and the profiler).
struct ReplicaCopyStats {
  uint64_t same_queue = 0;
  uint64_t queue_to_queue = 0;
  uint64_t host = 0;  // between devices, either way: shared_host + staged_host
  uint64_t shared_host = 0;
  uint64_t staged_host = 0;
  uint64_t host_chunks = 0;  // the chunks those copies were made of
};
ReplicaCopyStats replica_copy_stats();

// Every replica's value of the result is replica `src`'s value of `x`. Made on `src` at once;
// another replica copies it from there the first time it is needed.
Array replicas_broadcast(const Array& x, int src);

// The replicas' values of `x` stacked: shape (num_replicas, *x.shape). Assembled on replica 0
// (x is computed on every replica); other replicas copy the stack from replica 0 when needed.
Array replicas_gather(const Array& x);

// Every replica's value of the result is op ("sum", "prod", "max", "min") over the replicas'
// values of `x`, elementwise, in x's dtype, in replica order ((x0 op x1) op x2 ...): numpy's
// functools.reduce(np.add, values). Computed on replica 0, copied to others when needed.
Array replicas_all_reduce(const Array& x, const std::string& op);

}  // namespace vka
