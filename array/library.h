// Dispatching the fixed library kernels of kernels/scan.h (prefix sums, compaction, scatter).
#pragma once

#include <memory>
#include <vector>

#include "array/kernel_spec.h"
#include "device/buffer.h"
#include "device/context.h"

namespace vka {

using Buffers = std::vector<std::shared_ptr<ReplicatedBuffer>>;

// One library kernel over `n` elements with `groups` workgroups of 1-d, on every replica.
// `bufs` are the spec's inputs then outputs, bound whole; `slots` the spec's scalar slots.
void dispatch_library(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                      const Buffers& bufs, int64_t n, uint64_t groups,
                      const std::vector<Scalar>& slots = {});

}  // namespace vka
