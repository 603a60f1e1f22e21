// realize(): the one function that shows the whole pipeline — graph → schedule → kernel specs →
// GLSL → SPIR-V (cached) → dispatch on every replica → buffers.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "array/graph.h"
#include "array/schedule.h"
#include "device/buffer.h"
#include "device/context.h"

namespace vka {

// The device buffer behind a graph leaf: a BufferRef's payload is always one of these.
std::shared_ptr<ReplicatedBuffer> device_buffer(const BufferRef& ref);

// A leaf over a fresh buffer on `context` holding `node`'s shape and dtype (contents undefined).
std::shared_ptr<BufferRef> allocate_for(const std::shared_ptr<Context>& context, DType dtype,
                                        const Shape& shape);

// Evaluates `targets` on `context`: every replica, or the one named. Returns, for each target,
// a leaf node (its buffer, seen through its view) holding the value. Nodes realized by an
// earlier call are not computed again while their buffers live.
std::vector<NodePtr> realize(const std::shared_ptr<Context>& context,
                             const std::vector<NodePtr>& targets,
                             std::optional<int> replica = std::nullopt);

// The fusion limits of a device (Limits' defaults are Vulkan's guaranteed minimums).
Limits limits_of(const Caps& caps);

// Counters for tests and the profiler.
struct RealizeStats {
  uint64_t kernels = 0;  // kernels dispatched (counted once per launch, not per replica)
  uint64_t realizations = 0;
};
RealizeStats realize_stats();

}  // namespace vka
