// The scheduler's GEMM kernels (array/schedule.cc): a matmul node's kernel, and the fusion of
// an elementwise kernel that reads the product into it as its epilogue.
#pragma once

#include "array/graph.h"
#include "array/schedule.h"

namespace vka {

// The kernel computing matmul node `product` (kernels/gemm.h: gemm_spec's bindings and slots)
// from its operands, each a leaf read through its view or a contiguous materialized value.
ScheduledKernel gemm_kernel(const NodePtr& product);

// `gemm` (gemm_kernel's) and `consumer`, an elementwise kernel over the product's shape that
// reads the product as its input `input` (contiguous, not through a gather), as one kernel:
// the GEMM whose results evaluate the consumer's tape (kernels/gemm.h: epilogues).
ScheduledKernel fuse_epilogue(const ScheduledKernel& gemm, const ScheduledKernel& consumer,
                              int input);

}  // namespace vka
