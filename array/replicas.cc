// Replica scopes, copies between replicas, and broadcast / gather / all_reduce over replicas.
#include "array/replicas.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <vector>

#include "base/debug.h"
#include "base/errors.h"
#include "device/cross_device.h"
#include "device/stream.h"
#include "runtime/realize.h"

namespace vka {
namespace {

thread_local std::optional<int> scoped_replica;

std::atomic<uint64_t> copies_same_queue{0}, copies_queue_to_queue{0}, copies_shared_host{0},
    copies_staged_host{0}, host_chunks{0};

void check_replica(const Context& ctx, int replica, const char* op, const char* what) {
  if (replica < 0 || replica >= ctx.num_replicas()) {
    throw IndexError(std::string("[") + op + "] " + what + " " + std::to_string(replica) +
                     " is out of range for a context of " + std::to_string(ctx.num_replicas()) +
                     " replica(s)");
  }
}

// x's value as a leaf over a contiguous run of its buffer, computed on `replica` (or on every
// replica); x itself is unchanged.
NodePtr contiguous_value(const Array& x, std::optional<int> replica) {
  NodePtr leaf = x.node();
  if (!leaf->is_leaf()) leaf = realize(x.context(), {leaf}, replica)[0];
  if (!leaf->view().is_contiguous()) {
    leaf = realize(x.context(), {default_graph().elementwise(Op::kAstype, x.dtype(), {leaf})},
                   replica)[0];
  }
  return leaf;
}

// `buf` holds its contents on replica `src` only; another replica copies them from there the
// first time they are needed.
void share_from(ReplicatedBuffer& buf, const std::shared_ptr<ReplicatedBuffer>& owner, int src) {
  if (buf.context()->num_replicas() == 1) return;
  std::weak_ptr<ReplicatedBuffer> weak = owner;
  buf.set_valid_only({src}, [weak, src](int replica) {
    std::shared_ptr<ReplicatedBuffer> b = weak.lock();
    VKA_ASSERT(b != nullptr);
    copy_between_replicas(*b, src, 0, *b, replica, 0, b->nbytes());
  });
}

Op reduction_op(const std::string& op) {
  if (op == "sum") return Op::kAdd;
  if (op == "prod") return Op::kMultiply;
  if (op == "max") return Op::kMaximum;
  if (op == "min") return Op::kMinimum;
  throw ShapeError("[replicas.all_reduce] op must be 'sum', 'prod', 'max' or 'min', got '" + op +
                   "'");
}

}  // namespace

ReplicaScope::ReplicaScope(int replica) : previous_(scoped_replica) {
  if (replica < 0) {
    throw IndexError("[replica] replica index " + std::to_string(replica) + " is negative");
  }
  scoped_replica = replica;
}

ReplicaScope::~ReplicaScope() { scoped_replica = previous_; }

std::optional<int> current_replica() { return scoped_replica; }

void flush(Context& context) {
  for (int r = 0; r < context.num_replicas(); ++r) context.replica(r).stream->submit();
}

const char* name(ReplicaPath path) {
  switch (path) {
    case ReplicaPath::kSameQueue:
      return "same queue, device copy";
    case ReplicaPath::kQueueToQueue:
      return "queue to queue on one device, device copy";
    case ReplicaPath::kSharedHost:
      return name(CrossDevicePath::kSharedHost);
    case ReplicaPath::kStagedHost:
      return name(CrossDevicePath::kStagedHost);
  }
  return "?";
}

ReplicaPath copy_between_replicas(const ReplicatedBuffer& src, int from, uint64_t src_offset,
                                  ReplicatedBuffer& dst, int to, uint64_t dst_offset,
                                  uint64_t size) {
  Context& ctx = *src.context();
  VKA_ASSERT(dst.context().get() == &ctx);
  VKA_ASSERT(src_offset + size <= src.nbytes() && dst_offset + size <= dst.nbytes());
  Replica& a = ctx.replica(from);
  Replica& b = ctx.replica(to);
  ReplicaPath path = ReplicaPath::kSameQueue;
  if (from != to && a.device == b.device) path = ReplicaPath::kQueueToQueue;
  if (a.device != b.device) {
    path = cross_device_path(ctx, *a.device, *b.device) == CrossDevicePath::kSharedHost
               ? ReplicaPath::kSharedHost
               : ReplicaPath::kStagedHost;
  }
  // Reported at VKA_DEBUG=1 once the path is known (an import refused now changes it).
  auto report = [&] {
    if (debug_level() < 1) return;
    const uint64_t chunk = std::min(cross_device_options().chunk_bytes, size);
    std::fprintf(stderr, "[vkarray] replicas: %llu bytes from replica %d to replica %d: %s",
                 static_cast<unsigned long long>(size), from, to, name(path));
    if (a.device != b.device && size != 0) {
      std::fprintf(stderr, " (%llu chunk(s) of up to %llu bytes)",
                   static_cast<unsigned long long>((size + chunk - 1) / chunk),
                   static_cast<unsigned long long>(chunk));
    }
    std::fprintf(stderr, "\n");
  };
  if (size == 0) {
    report();
    return path;
  }
  src.ensure_valid(from);
  switch (path) {
    case ReplicaPath::kSameQueue:
      a.stream->copy(src.vk_buffer(from), src_offset, dst.vk_buffer(to), dst_offset, size);
      ++copies_same_queue;
      break;
    case ReplicaPath::kQueueToQueue:
      // The copy runs on the destination's queue after the source's queue has made the bytes.
      // The source's timeline then passes only after the copy, which reads its buffer: later
      // work there, host writes and the allocation's reuse wait for it.
      a.stream->settle_foreign_use(src.vk_buffer(from));  // a pending host transfer into it
      b.stream->wait_on(*a.stream, a.stream->submit());
      b.stream->copy(src.vk_buffer(from), src_offset, dst.vk_buffer(to), dst_offset, size);
      a.stream->wait_on(*b.stream, b.stream->submit());
      a.stream->submit();
      a.stream->mark_used(src.vk_buffer(from));
      ++copies_queue_to_queue;
      break;
    case ReplicaPath::kSharedHost:
    case ReplicaPath::kStagedHost: {
      const CrossDeviceCopy c = copy_across_devices(ctx, *a.stream, src.vk_buffer(from), src_offset,
                                                    *b.stream, dst.vk_buffer(to), dst_offset, size);
      // The import may have been refused just now: the copy says which path it took.
      path = c.path == CrossDevicePath::kSharedHost ? ReplicaPath::kSharedHost
                                                    : ReplicaPath::kStagedHost;
      ++(path == ReplicaPath::kSharedHost ? copies_shared_host : copies_staged_host);
      host_chunks += c.chunks;
      break;
    }
  }
  report();
  return path;
}

ReplicaCopyStats replica_copy_stats() {
  ReplicaCopyStats s;
  s.same_queue = copies_same_queue.load();
  s.queue_to_queue = copies_queue_to_queue.load();
  s.shared_host = copies_shared_host.load();
  s.staged_host = copies_staged_host.load();
  s.host = s.shared_host + s.staged_host;
  s.host_chunks = host_chunks.load();
  return s;
}

Array replicas_broadcast(const Array& x, int src) {
  const std::shared_ptr<Context>& ctx = x.context();
  check_replica(*ctx, src, "replicas.broadcast", "src replica");
  NodePtr leaf = contiguous_value(x, src);
  auto ref = allocate_for(ctx, x.dtype(), x.shape());
  auto out = device_buffer(*ref);
  copy_between_replicas(*device_buffer(*leaf->buffer()), src, leaf->view().offset * x.itemsize(),
                        *out, src, 0, x.nbytes());
  share_from(*out, out, src);
  return Array(default_graph().buffer(ref, x.dtype(), View::contiguous(x.shape())), ctx);
}

Array replicas_gather(const Array& x) {
  const std::shared_ptr<Context>& ctx = x.context();
  const int n = ctx->num_replicas();
  NodePtr leaf = contiguous_value(x, std::nullopt);
  Shape stacked = {n};
  stacked.insert(stacked.end(), x.shape().begin(), x.shape().end());
  auto ref = allocate_for(ctx, x.dtype(), stacked);
  auto out = device_buffer(*ref);
  auto in = device_buffer(*leaf->buffer());
  for (int r = 0; r < n; ++r) {
    copy_between_replicas(*in, r, leaf->view().offset * x.itemsize(), *out, 0, r * x.nbytes(),
                          x.nbytes());
  }
  share_from(*out, out, 0);
  return Array(default_graph().buffer(ref, x.dtype(), View::contiguous(stacked)), ctx);
}

Array replicas_all_reduce(const Array& x, const std::string& op_name) {
  const Op op = reduction_op(op_name);
  const std::shared_ptr<Context>& ctx = x.context();
  Array stacked = replicas_gather(x);
  const std::shared_ptr<BufferRef>& ref = stacked.node()->buffer();
  auto part = [&](int r) {
    return Array(default_graph().buffer(ref, x.dtype(), View::contiguous(x.shape(), r * x.size())),
                 ctx);
  };
  Array acc = part(0);
  for (int r = 1; r < ctx->num_replicas(); ++r) acc = apply(op, {acc, part(r)});
  if (acc.dtype() != x.dtype()) acc = acc.astype(x.dtype());
  if (ctx->num_replicas() == 1) return acc;
  NodePtr value = realize(ctx, {acc.node()}, 0)[0];
  auto buf = device_buffer(*value->buffer());
  VKA_ASSERT(value->view() == View::contiguous(x.shape()) && buf->nbytes() == x.nbytes());
  share_from(*buf, buf, 0);  // the others copy the sum, rather than summing again
  return Array(value, ctx);
}

}  // namespace vka
