// Internal to array/linalg/*.cc: the launch plumbing of vka::linalg's kernels (kernels/lib/linalg.h):
// stacks of matrices copied into fresh contiguous buffers, launches split into step ranges
// under llvmpipe's loop limit, flag read-backs, and blocks of the buffers for the GEMM updates.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "array/array.h"
#include "base/errors.h"
#include "ir/kernel_spec.h"
#include "kernels/lib/linalg.h"

namespace vka::linalg_detail {

inline constexpr uint64_t kMaxGroups = 65535;  // Vulkan's guaranteed maxComputeWorkGroupCount[0]
// Matrices at least this large (QR: min(m, n)) factor in panels of kPanel columns, the trailing
// matrix updated by the GEMM kernel between panels (LAPACK's right-looking blocked getrf/potrf/
// geqrf).
inline constexpr int64_t kBlockedMin = kLinalgBlockedMin;
inline constexpr int64_t kPanel = kLinalgBlock;
// The blocked LU and Cholesky update the matrix beyond each group of this many panel columns
// with one GEMM (array/linalg/linalg.cc: blocked).
inline constexpr int64_t kOuterPanel = 4 * kPanel;

// A stack of matrices: the batch shape, its element count, and the matrix size.
struct Stack {
  DType t;
  Shape batch;
  int64_t count, m, n;
};

// The checked stack of `a` (LinAlgError for fewer than 2 dimensions, or non-square when
// `square`) and the dtype it computes in.
Stack stack_of(std::string_view op, const Array& a, bool square);
Shape with(const Shape& batch, std::initializer_list<int64_t> tail);
// A fresh buffer of n elements of t (at least one), contents undefined.
std::shared_ptr<BufferRef> fresh(const Array& like, DType t, int64_t n);
// A fresh contiguous buffer holding `a` converted to t, for the kernels to factor in place.
std::shared_ptr<BufferRef> copy_in(const Array& a, DType t);
Array wrap(const Array& like, const std::shared_ptr<BufferRef>& ref, DType t, Shape shape);
// One launch of `spec` over `count` matrices (one workgroup each, up to kMaxGroups).
void run(const Array& like, const KernelSpec& spec,
         const std::vector<std::shared_ptr<BufferRef>>& refs, int64_t count,
         std::vector<int64_t> slots);
// Loop iterations one invocation may run in one launch on `ctx`'s devices.
int64_t loop_budget(const std::shared_ptr<Context>& ctx);
// Loop iterations of the busiest invocation for `work` items spread over a workgroup of
// `threads` invocations.
int64_t per_thread(int64_t work, int64_t threads = kLinalgThreads);
// The workgroup size for the panel kernels of large matrices (LU and QR from kBlockedMin):
// kLinalgWideThreads where every device of `ctx` takes workgroups that large (and their
// shared memory), else kLinalgThreads; VKA_LINALG_PANEL_THREADS=256 forces the latter.
int64_t panel_threads(const std::shared_ptr<Context>& ctx);
DType promote(DType a, DType b);
bool any_flag(const Array& like, const std::shared_ptr<BufferRef>& flags, int64_t count);
// LinAlgError "<op> did not converge" when a Jacobi flag is set.
void throw_if_not_converged(std::string_view op, const Array& like,
                            const std::shared_ptr<BufferRef>& flags, int64_t count);
// The (r0:r1, c0:c1) block of the stack of rows×cols matrices in `ref`, as an Array that reads
// the buffer in place (Array::reading), its transposes and reshapes too: an operand of the
// next product or update, consumed before anything writes what it reads.
Array block(const Array& like, const std::shared_ptr<BufferRef>& ref, DType t, const Shape& batch,
            int64_t rows, int64_t cols, int64_t r0, int64_t r1, int64_t c0, int64_t c1);
// The conjugate transpose of a stack of matrices (the transpose of a real one), a view where
// the dtype is real.
Array herm(const Array& x);
// The triangular solves of getrs for the stacks of k right-hand sides in x (n×k, in place)
// with the LU factors and pivots of lu_factor_spec (array/linalg/substitute.cc).
void substitute(const Array& like, DType t, const std::shared_ptr<BufferRef>& lu,
                const std::shared_ptr<BufferRef>& piv, const std::shared_ptr<BufferRef>& x,
                int64_t count, int64_t n, int64_t k);
// a / b rounded up (a >= 0, b > 0).
int64_t ceil_div(int64_t a, int64_t b);
// dest -= a @ b on the GEMM kernel, written back in place.
void subtract_product(const Array& dest, const Array& a, const Array& b);

// Steps [0, total) of a stepped kernel (kernels/lib/linalg.h), launched in ranges whose summed
// `cost` (loop iterations of the busiest invocation) stays within the loop budget; the range
// travels in the two slots after `slots`.
template <typename Cost>
void run_steps(std::string_view op, const Array& like, const KernelSpec& spec,
               const std::vector<std::shared_ptr<BufferRef>>& refs, int64_t count,
               const std::vector<int64_t>& slots, int64_t total, Cost cost, int64_t begin = 0) {
  if (count == 0) return;
  const int64_t rounds = (count + static_cast<int64_t>(kMaxGroups) - 1) /
                         static_cast<int64_t>(kMaxGroups);  // matrices per workgroup
  const int64_t budget = loop_budget(like.context());
  for (int64_t s = begin; s < total;) {
    int64_t e = s, sum = 0;
    while (e < total && (e == s || sum + cost(e) * rounds <= budget)) sum += cost(e++) * rounds;
    if (sum > 65000 && budget < 65000) {
      throw DeviceError("[" + std::string(op) + "] one step on matrices this large needs " +
                        std::to_string(sum) + " loop iterations in one invocation, past "
                        "llvmpipe's limit of 65535: run it on a GPU");
    }
    std::vector<int64_t> v = slots;
    v.push_back(s);
    v.push_back(e);
    run(like, spec, refs, count, v);
    s = e;
  }
}

}  // namespace vka::linalg_detail
