// Internal to array/linalg/linalg.cc: the wide mode of the Jacobi svd and eigh, for stacks of few
// large matrices: every rotation round is its own launch over the whole device (a workgroup
// per column pair, kernels/lib/linalg.h's *_jacobi_wide), where the single mode runs each matrix's
// whole factorization in one workgroup.
#pragma once

#include <memory>
#include <vector>

#include "array/array.h"

namespace vka::linalg_detail {

// Matrices of at least this order take the wide mode when the stack has fewer than
// kWideMaxCount of them: the single mode fills a GPU's compute units only with hundreds of
// matrices, and below this order the wide mode's launches cost more than its rounds.
inline constexpr int64_t kWideMinOrder = 64;
inline constexpr int64_t kWideMaxCount = 256;

// Whether svd/eigh of `count` matrices of order n take the wide mode. VKA_JACOBI=wide forces
// it and VKA_JACOBI=single the per-matrix mode (tests); otherwise the heuristic above, on GPUs
// only (a CPU device such as llvmpipe has no idle compute units to fill, and pays for every
// launch).
bool use_wide_jacobi(const Array& like, int64_t count, int64_t n);

// The wide SVD on the buffers of vka::svd (refs as svd_jacobi_wide_spec's outputs, out0 holding
// each m×n matrix transposed), `uc` U's columns. Reads the done flags after every sweep and
// stops once all matrices are done; the flags end as the single mode's.
void svd_wide(const Array& like, DType t, const std::vector<std::shared_ptr<BufferRef>>& refs,
              int64_t count, int64_t m, int64_t n, int64_t uc);
// The wide eigh on the buffers of vka::eigh (refs as eigh_jacobi_wide_spec's outputs).
void eigh_wide(const Array& like, DType t, const std::vector<std::shared_ptr<BufferRef>>& refs,
               int64_t count, int64_t n, bool vectors);

}  // namespace vka::linalg_detail
