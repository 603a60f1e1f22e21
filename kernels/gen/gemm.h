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

#include "ir/kernel_spec.h"
#include "kernels/glsl/writer.h"

namespace vka {

// A tiling; see GemmSpec (ir/kernel_spec.h).
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
// (schedule/gemm.h: gemm_shared_bytes(spec), the bytes of a spec's kernel, epilogue
// staging included, which the scheduler checks against the device.)

// The spec of C = A @ B for dtype t (A, B and C all of dtype t).
//   in0 A, in1 B, out0 C (contiguous, batch * M * N elements).
//   Slots (int64): two int32 values each, low word then high word (so that an epilogue's push
//   constants fit in the 128 bytes every device has): c0 (M, N), c1 (K, batch),
//   c2 (A's batch and m strides), c3 (A's k stride, B's batch stride), c4 (B's k and n
//   strides), strides in elements; offsets in the push block's off0/off1/off2.
KernelSpec gemm_spec(DType t, const GemmConfig& c, bool a_m_fast, bool b_n_fast);
inline constexpr int kGemmSlots = 5;

// float16 on cooperative matrices (GL_NV_cooperative_matrix: the shaderc here predates
// GL_KHR_cooperative_matrix; NVIDIA drivers offer both): 16 x 16 x 16 float16 fragments with
// float32 accumulators. Same bindings and push constants as gemm_spec (any strides, zero
// padding at the edges). Needs a device with 16 x 16 x 16 float16 x float16 + float32
// subgroup-scope cooperative matrices (Caps::cooperative_matrix_f16); the workgroup is a number
// of subgroups of the device's size, carried in the spec's tm field. Two kernels:
//
// - the pipelined one (GemmCoopConfig::pipelined, the default): a bm x bn workgroup tile of
//   subgroups that each own fm x fn accumulator fragments (a (16 fm) x (16 fn) sub-tile), K in
//   slices of bk. Each invocation loads 8 float16 at a time along the operand's stride-1 axis
//   (one 16-byte load through a uvec4 view of the buffer where that axis has stride 1 and the
//   offset and other strides are multiples of 8, else 8 bounds-checked scalar loads), into
//   double-buffered shared tiles stored with the operand's stride-1 axis contiguous (row- or
//   column-major fragments) and rows padded by 16 bytes; the next slice's global loads are in
//   flight while the current slice is multiplied (one barrier per slice). Fragments lying
//   wholly inside C are stored straight from the accumulators (converted to float16) when C's
//   row and offset are 16-byte aligned; the others through a per-subgroup 16 x 16 staging tile
//   with bounds-checked stores. Spec fields: bm, bn, bk; tm the subgroup size; tn = 10 fm + fn.
// - the 64 x 64 one ("old"): 4 subgroups of 2 x 2 fragments, K slices of kGemmCoopK staged one
//   element per invocation, the accumulators through shared memory to bounds-checked stores.
//   Spec fields: bm = bn = kGemmCoopTile, bk = kGemmCoopK, tm the subgroup size, tn = 1.
struct GemmCoopConfig {
  bool pipelined = true;
  int bm = 128, bn = 128, bk = 32, fm = 4, fn = 4;  // the pipelined kernel's tiling
  int subgroups() const { return pipelined ? (bm / (16 * fm)) * (bn / (16 * fn)) : 4; }
  bool operator==(const GemmCoopConfig& o) const {
    return pipelined == o.pipelined &&
           (!pipelined || (bm == o.bm && bn == o.bn && bk == o.bk && fm == o.fm && fn == o.fn));
  }
};
// "old" or "bm x bn x bk x fm x fn" (e.g. "128x128x32x4x4").
std::string to_string(const GemmCoopConfig& c);
// "" when `c` is a valid pipelined tiling (or the old kernel), else why not: bm a multiple of
// 16 fm, bn of 16 fn, bk of 16, all within limits.
std::string gemm_coop_invalid(const GemmCoopConfig& c);
// emulated: the pipelined kernel with cooperative matrices emulated in plain GLSL (every
// invocation computes whole fragments: slow), so that tests run its indexing, synchronization
// and bindings on devices without them (lavapipe); marked by the spec's vec4 field.
KernelSpec gemm_coop_spec(bool a_m_fast, bool b_n_fast, uint32_t subgroup_size,
                          const GemmCoopConfig& c = GemmCoopConfig(), bool emulated = false);
// The bytes of shared memory and the invocations per workgroup of a cooperative spec's kernel.
uint32_t gemm_coop_shared_bytes(const GemmSpec& g);
uint32_t gemm_coop_threads(const GemmSpec& g);
inline constexpr int kGemmCoopTile = 64, kGemmCoopK = 32, kGemmCoopSubgroups = 4;

// The extensions the GEMM kernels' text needs (after #version): `[[unroll]]` on the loops over
// an invocation's registers of 8- and 16-byte accumulators, so that they are never indexed
// dynamically (a compiler that declines to unroll such a loop moves the arrays to local memory:
// float64 GEMMs on NVIDIA ran at 1/30 of the FMA rate).
inline constexpr const char* kGemmExtensions = "#extension GL_EXT_control_flow_attributes : require";

// Split-K (GemmSpec::split): a product with few output tiles for the device and a long K
// runs as two kernels. The partial pass (kPartial: gemm_spec's bindings, out0 of dtype
// gemm_accumulator(t) holding S x batch x M x N values; one more slot, c5 (S, KC)) computes
// each K range [s * KC, min(K, (s + 1) * KC)) as the whole kernel computes K, so each partial
// is a sum in increasing k. The combining pass (kCombine: input 0 is the partials, of the
// accumulator dtype; input 1 keeps B's dtype and binding but is not read; slot c2 holds
// (S, 0) in place of A's strides) sums each element's S partials in increasing s, rounds to
// the product's dtype and stores it or runs the epilogue: 1-d workgroups of
// kGemmCombineGroup invocations over the batch x M x N elements (a grid-stride loop). Both
// orders are fixed: the same bits from run to run for a given S. Integers sum in the
// accumulator type and wrap at the end (numpy's modular results); bool is or-of-and.
inline constexpr int kGemmCombineGroup = 256;
// The accumulator dtype of a product of dtype t (the partial products' dtype).
DType gemm_accumulator(DType t);

// The GLSL of a spec without an epilogue (an empty tape).
std::string emit_gemm(const KernelSpec& spec);

// An epilogue: a kGemm spec (not cooperative) may carry an elementwise tape. Its inputs 0 and
// 1 are A and B, the others the tape's operands; its tape has one Op::kMatmul entry (the
// product's value, of A's dtype) and its outputs are the tape's results over the product's
// elements in C order (rank, dims and layouts as an elementwise spec over the product's shape;
// outputs contiguous); slots 0..kGemmSlots-1 are the GEMM's, the tape's follow. Such a spec is
// emitted by emit_elementwise (kernels/gen/elementwise.h), which writes the declarations and calls
// this for main(): each result element evaluates `epilogue` (flat index i, N-d index i0..).
// The tile's results reach the epilogue through shared memory, one register row of the tile
// (bm / tm rows x bn columns) per pass, so that accumulators are only indexed by constants
// (they stay in registers) and consecutive invocations evaluate consecutive columns
// (coalesced epilogue loads and stores); schedule/gemm.h's gemm_shared_bytes counts it.
class TapeEmitter;
void emit_gemm_main(const KernelSpec& spec, TapeEmitter& epilogue, GlslWriter& w);

}  // namespace vka
