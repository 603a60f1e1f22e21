// getrs' triangular solves of vka::linalg (array/linalg/launch.h: substitute): the row swaps,
// then forward and backward substitution, unblocked, by chunks, or by blocks and the GEMM.
#include <algorithm>
#include <memory>

#include "array/linalg/launch.h"
#include "kernels/lib/linalg.h"

namespace vka::linalg_detail {

// The triangular solves of lu_solve_spec for k right-hand sides, in place in x.
// Large systems run in blocks of kPanel rows: a few right-hand sides by lu_chunks_spec, one
// launch per block; more with the GEMM updating the rows still to solve between blocks
// (getrs with a blocked trsm).
void substitute(const Array& like, DType t, const std::shared_ptr<BufferRef>& lu,
                const std::shared_ptr<BufferRef>& piv, const std::shared_ptr<BufferRef>& x,
                int64_t count, int64_t n, int64_t k) {
  if (n == 0 || k == 0 || count == 0) return;
  auto steps = [&](int64_t lo, int64_t hi, int64_t begin, int64_t end) {
    run_steps(
        "solve", like, lu_solve_spec(t), {lu, piv, x}, count, {n, k, lo, hi}, end,
        [n, k, lo, hi](int64_t s) {
          const int64_t len = s < n ? 0 : s < 2 * n ? s - n - lo : hi - (3 * n - 1 - s);
          // A few columns walk the steps together: a swap's share of its group's map
          // (kernels/lib/linalg.h), a row's terms, its chunk's loads and barriers.
          return per_thread(k) * (std::max<int64_t>(len, 0) + 3) + (s < n ? 40 : 8);
        },
        begin);
  };
  if (n < kBlockedMin) return steps(0, n, 0, 3 * n);
  if (k <= kLinalgFewRhs) {
    // The row swaps, then a launch per chunk of kPanel rows, forward then backward: each
    // solves its chunk after the rows beyond take the previous chunk's terms.
    steps(0, n, 0, n);
    const KernelSpec spec = lu_chunks_spec(t);
    auto chunk = [&](int64_t back, int64_t c0, int64_t rows) {
      const int64_t groups = ceil_div(rows, kLinalgThreads);
      run(like, spec, {lu, x}, count * groups, {n, k, back, c0, groups});
    };
    for (int64_t c0 = 0; c0 < n; c0 += kPanel) chunk(0, c0, n - c0);
    for (int64_t c0 = (n - 1) / kPanel * kPanel; c0 >= 0; c0 -= kPanel) {
      chunk(1, c0, std::min(c0 + kPanel, n));
    }
    return;
  }
  Shape batch(like.shape().begin(), like.shape().end() - 2);
  auto l = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    return block(like, lu, t, batch, n, n, r0, r1, c0, c1);
  };
  auto b = [&](int64_t r0, int64_t r1) { return block(like, x, t, batch, n, k, r0, r1, 0, k); };
  steps(0, n, 0, n);
  for (int64_t i0 = 0; i0 < n; i0 += kPanel) {
    const int64_t i1 = std::min(i0 + kPanel, n);
    steps(i0, n, n + i0, n + i1);
    if (i1 < n) subtract_product(b(i1, n), l(i1, n, i0, i1), b(i0, i1));
  }
  for (int64_t i1 = n; i1 > 0;) {
    const int64_t i0 = std::max<int64_t>(i1 - kPanel, 0);
    steps(0, i1, 3 * n - i1, 3 * n - i0);
    if (i0 > 0) subtract_product(b(0, i0), l(0, i0, i0, i1), b(i0, i1));
    i1 = i0;
  }
}

}  // namespace vka::linalg_detail
