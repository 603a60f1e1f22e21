// Parts of the GEMM kernel's GLSL (kernels/gen/gemm.h) shared by kernels/gen/gemm.cc and
// kernels/gen/gemm_store.cc: the accumulator type, and the stores that are not a plain write of
// the tile.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/gen/gemm.h"
#include "kernels/gen/reduce.h"

namespace vka {

// The accumulator (and shared-memory) type: numpy's compute type, uint for bool (or-of-and).
std::string gemm_acc_type(DType t);

// The epilogue's value of the product: the accumulator `acc` rounded to the product's dtype,
// in that dtype's tape value type (kernels/glsl/ops.h).
std::string gemm_product_value(DType t, const std::string& acc);

// A kernel with an epilogue: the store after the K loop, which stages the tile through the
// shared array `sc` (RT x BN accumulators) and evaluates `epilogue` per element (gemm_body's
// variables: acc, tr, tc, tid, m0, n0, z, M, N).
std::string gemm_staged_epilogue(const KernelSpec& spec, TapeEmitter& epilogue);

// Split-K's combining pass (GemmSplit::kCombine): the whole main(), with its workgroup size.
std::string gemm_combine_body(const KernelSpec& spec, TapeEmitter* epilogue);

}  // namespace vka
