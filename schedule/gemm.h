// The scheduler's GEMM kernels (schedule/schedule.cc): a matmul node's kernel, and the fusion of
// an elementwise kernel that reads the product into it as its epilogue.
#pragma once

#include <functional>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"
#include "schedule/schedule.h"

namespace vka {

// The bytes of shared memory the kernel of a (not cooperative) kGemm spec declares
// (kernels/gen/gemm.cc): the A and B tiles of a K slice (each k row padded by one element, or by
// a 4-vector in the 4-vector layout; 8- and 16-bit values and bools staged in 32 bits), plus
// with an epilogue one register row of the tile staged for it, (bm / tm) x bn accumulators.
uint32_t gemm_shared_bytes(const KernelSpec& spec);

// The kernel computing matmul node `product` with `tiling` (kernels/gen/gemm.h: gemm_spec's
// bindings and slots) from its operands, each a leaf read through its view or a contiguous
// materialized value.
ScheduledKernel gemm_kernel(const NodePtr& product, const GemmSpec& tiling);

// `gemm` (gemm_kernel's) and `consumer`, an elementwise kernel over the product's shape that
// reads the product as its input `input` (contiguous, not through a gather), as one kernel:
// the GEMM whose results evaluate the consumer's tape (kernels/gen/gemm.h: epilogues).
ScheduledKernel fuse_epilogue(const ScheduledKernel& gemm, const ScheduledKernel& consumer,
                              int input);

// Rule 6 of schedule/schedule.h over a finished schedule: a GEMM kernel whose product one
// elementwise kernel of the product's shape reads, and nothing else (no other kernel, no
// target, no destination), takes that kernel's tape as its epilogue: the two become one
// kernel, at the reader's place (a product written into a view, realize's copy of it, is one
// kernel too). Cooperative-matrix GEMMs keep their own store (kernels/gen/gemm.h); a fusion that
// `fits` refuses (a device limit) is not made.
void fuse_epilogues(Schedule& s, const std::vector<NodePtr>& targets,
                    const std::unordered_map<const Node*, NodePtr>& destinations,
                    const std::function<bool(const KernelSpec&)>& fits);

}  // namespace vka
