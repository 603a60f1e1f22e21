// Dispatching the fixed library kernels of kernels/lib/scan.h (prefix sums, compaction, scatter).
#pragma once

#include <memory>
#include <vector>

#include "device/buffer.h"
#include "device/context.h"
#include "ir/kernel_spec.h"

namespace vka {

using Buffers = std::vector<std::shared_ptr<ReplicatedBuffer>>;

// One library kernel over `n` elements with `groups` workgroups of 1-d, on every replica.
// `bufs` are the spec's inputs then outputs, bound whole; `slots` the spec's scalar slots.
void dispatch_library(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                      const Buffers& bufs, int64_t n, uint64_t groups,
                      const std::vector<Scalar>& slots = {});

// A device buffer of `n` elements of `t` (at least one: a binding may not be empty), contents
// undefined: the scratch space of library pipelines and multi-pass kernels.
std::shared_ptr<ReplicatedBuffer> scratch_buffer(const std::shared_ptr<Context>& ctx, DType t,
                                                 int64_t n);

// Zeros every byte of `buf` on every replica (recorded on each replica's stream).
void zero_fill(const std::shared_ptr<Context>& ctx, const ReplicatedBuffer& buf);

// Exclusive prefix sums of `n` flags (bool) or counts (uint32) `input`, into a new uint32
// buffer: kernels/lib/scan.h's block scans level by level, then the block offsets added back
// down. `total`, when given, receives a buffer whose element 0 is the sum of all n.
std::shared_ptr<ReplicatedBuffer> exclusive_sums(const std::shared_ptr<Context>& ctx,
                                                 const std::shared_ptr<ReplicatedBuffer>& input,
                                                 DType input_dtype, int64_t n,
                                                 std::shared_ptr<ReplicatedBuffer>* total = nullptr);

}  // namespace vka
