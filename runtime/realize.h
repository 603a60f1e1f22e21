// realize(): the one function that shows the whole pipeline — graph → schedule → kernel specs →
// GLSL → SPIR-V (cached) → dispatch on every replica → buffers.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "device/buffer.h"
#include "device/context.h"
#include "ir/graph.h"
#include "schedule/schedule.h"

namespace vka {

// The device buffer behind a graph leaf: a BufferRef's payload is always one of these.
std::shared_ptr<ReplicatedBuffer> device_buffer(const BufferRef& ref);

// A leaf over a fresh buffer on `context` holding `node`'s shape and dtype (contents undefined).
// ShapeError when its bytes overflow int64 (numpy's "array is too big"), OutOfMemory (naming
// `op`) when the device cannot hold them.
std::shared_ptr<BufferRef> allocate_for(const std::shared_ptr<Context>& context, DType dtype,
                                        const Shape& shape, std::string_view op = "allocate");

// Evaluates `targets` on `context`: every replica, or the one named. Returns, for each target,
// a leaf node (its buffer, seen through its view) holding the value. Nodes realized by an
// earlier call are not computed again while their buffers live.
// `destinations` (empty, or one per target, null for none) names leaves the targets are
// written into instead of fresh buffers: a storage buffer seen through a view of the
// target's shape and dtype (array/write.h decides when that is safe).
// Library nodes (sorts, scans: Op::kLibrary) under the targets are computed first, on every
// replica, each after its inputs.
std::vector<NodePtr> realize(const std::shared_ptr<Context>& context,
                             const std::vector<NodePtr>& targets,
                             std::optional<int> replica = std::nullopt,
                             const std::vector<NodePtr>& destinations = {});

// `roots` with every node computed earlier (and still held) replaced by a leaf over its
// buffer, and the nodes above rebuilt.
std::vector<NodePtr> substitute_realized(const std::vector<NodePtr>& roots);

// True when `n` was computed earlier, on every replica, and its buffer still lives (or it is
// pinned).
bool has_value(const Node& n);

// The fusion limits of a device (Limits' defaults are Vulkan's guaranteed minimums).
Limits limits_of(const Caps& caps);

// Counters for tests and the profiler.
struct RealizeStats {
  uint64_t kernels = 0;  // kernels dispatched (counted once per launch, not per replica)
  uint64_t realizations = 0;
};
RealizeStats realize_stats();

}  // namespace vka
