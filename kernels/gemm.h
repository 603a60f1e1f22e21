// Batched matrix products C[b] = A[b] @ B[b] (KernelKind::kGemm): a tiled kernel generated for
// a dtype and a tiling (GemmSpec). Each workgroup computes a bm x bn tile of one matrix of C:
// it walks K in slices of bk, staging the A and B slices in shared memory, and each invocation
// accumulates tm x tn results in registers (rows tr, tr + bm/tm, ...; columns tc, tc + bn/tn,
// ..., so neighbouring invocations read neighbouring shared-memory words and write
// neighbouring elements of C). Operands are read in place through their strides (transposed
// and sliced views need no copy); C is written contiguous (batch, M, N). Workgroups run over
// (N tiles, M tiles, batch) as (x, y, z), each dimension a grid-stride loop, so any size fits
// maxComputeWorkGroupCount.
//
// Every result is one sum over k in increasing order, each term added to the accumulator in
// turn: the same bits from run to run. Accumulators: float32 for float16 (as numpy), 32 bits
// for 8- and 16-bit integers (wrapped back on the store: numpy's modular results), or-of-and
// for bool, the dtype itself otherwise.
#pragma once

#include <cstdint>
#include <string>

#include "array/kernel_spec.h"

namespace vka {

// A tiling; see GemmSpec (array/kernel_spec.h).
struct GemmConfig {
  int bm = 64, bn = 64, bk = 16, tm = 4, tn = 4;
  int threads() const { return (bm / tm) * (bn / tn); }
  bool operator==(const GemmConfig& o) const {
    return bm == o.bm && bn == o.bn && bk == o.bk && tm == o.tm && tn == o.tn;
  }
};
// "128x128x8x8x8" (bm x bn x bk x tm x tn).
std::string to_string(const GemmConfig& c);
// The bytes of shared memory the kernel of `c` declares for dtype `t`.
uint32_t gemm_shared_bytes(const GemmConfig& c, DType t);

// The spec of C = A @ B for dtype t (A, B and C all of dtype t).
//   in0 A, in1 B, out0 C (contiguous, batch * M * N elements).
//   Slots (int64): c0 M, c1 N, c2 K, c3 batch, c4..c6 A's strides (batch, m, k), c7..c9 B's
//   strides (batch, k, n), in elements; offsets in the push block's off0/off1/off2.
KernelSpec gemm_spec(DType t, const GemmConfig& c, bool a_m_fast, bool b_n_fast);
inline constexpr int kGemmSlots = 10;

std::string emit_gemm(const KernelSpec& spec);

}  // namespace vka
