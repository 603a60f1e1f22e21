// vka::qr (array/linalg/linalg.h): Householder QR, unblocked for small matrices (one kernel of
// kernels/lib/linalg.h: qr_spec per call) and blocked from min(m, n) >= kBlockedMin, LAPACK's
// geqrf/orgqr structure: a panel kernel factors kPanel columns and forms their compact WY factor
// T, the GEMM applies the block reflector I - V T Vᴴ to the trailing columns, and Q is formed
// from the identity one panel at a time, backwards, with the same GEMM update.
#include <algorithm>
#include <memory>
#include <string>

#include "array/linalg/launch.h"
#include "array/linalg/linalg.h"
#include "array/views.h"
#include "kernels/lib/linalg.h"

namespace vka {
namespace {

using linalg_detail::block;
using linalg_detail::copy_in;
using linalg_detail::fresh;
using linalg_detail::herm;
using linalg_detail::kBlockedMin;
using linalg_detail::kPanel;
using linalg_detail::panel_threads;
using linalg_detail::per_thread;
using linalg_detail::run_steps;
using linalg_detail::Stack;
using linalg_detail::stack_of;
using linalg_detail::subtract_product;
using linalg_detail::with;
using linalg_detail::wrap;

static_assert(kPanel <= kQrLanes, "the QR panel kernel spreads a panel's columns over kQrLanes");

using Ref = std::shared_ptr<BufferRef>;

// The buffers of one factorization: R (in place of A), tau, Q, and the blocked V and T.
struct Factors {
  Ref r, tau, q, v, tf;
};

// Unblocked: the whole factorization (and Q's first q columns when q > 0) in one kernel.
void factor_unblocked(const Array& a, const Stack& s, const Factors& f, int64_t q) {
  const int64_t m = s.m, n = s.n, k = std::min(m, n);
  run_steps("qr", a, qr_spec(s.t), {f.r, f.tau, f.q, f.v, f.tf}, s.count, {m, n, q, 0, 0, 0},
            q > 0 ? 2 * k : k, [m, n, q, k](int64_t step) {
              const int64_t c = step < k ? step : 2 * k - 1 - step;
              return per_thread(m * n) + 4 +
                     (step < k ? 2 * per_thread(m - c) + 16 + per_thread(n - c) * 2 * (m - c)
                               : per_thread(m * q) + per_thread(q) * 2 * (m - c));
            });
}

// (r0:r1, c0:c1) of the stack of rows×cols matrices in `ref`.
struct Blocks {
  const Array& like;
  const Stack& s;
  Array operator()(const Ref& ref, int64_t rows, int64_t cols, int64_t r0, int64_t r1, int64_t c0,
                   int64_t c1) const {
    return block(like, ref, s.t, s.batch, rows, cols, r0, r1, c0, c1);
  }
};

// C -= V (op(T) (Vᴴ C)) for C = (j0:, c0:) of the rows×cols matrices in `ref`: the block
// reflector of the panel [j0, j1) (V's rows j0..m), op(T) = Tᴴ for Qᴴ A (the factorization)
// and T for Q C (orgqr).
void apply_block_reflector(const Array& a, const Stack& s, const Factors& f, int64_t j0, int64_t j1,
                           const Ref& ref, int64_t rows, int64_t cols, int64_t c0, bool adjoint) {
  const int64_t m = s.m, k = std::min(s.m, s.n);
  Blocks at{a, s};
  Array v = at(f.v, m, k, j0, m, j0, j1);
  Array tf = at(f.tf, k, kPanel, j0, j1, 0, j1 - j0);
  // W reads all of C: it is computed into its own buffer first. (C's Array is not reused for
  // the write: a view of an array that is not storage may move it into a copy.)
  Array c = at(ref, rows, cols, j0, rows, c0, cols);
  Array w = matmul(adjoint ? herm(tf) : tf, matmul(herm(v), c));
  Array wa = wrap(a, copy_in(w, s.t), s.t, with(s.batch, {j1 - j0, cols - c0}));
  subtract_product(at(ref, rows, cols, j0, rows, c0, cols), v, wa);
  ref->bump_version();  // views made from here on are new nodes, never an earlier value
}

// Blocked geqrf: per panel, the panel kernel (its columns, T, V), then the trailing update.
void factor_blocked(const Array& a, const Stack& s, const Factors& f) {
  const int64_t m = s.m, n = s.n, k = std::min(m, n);
  // The wide workgroup (four times the invocations on each panel) where the devices take it.
  const int64_t th = panel_threads(a.context());
  const KernelSpec spec = qr_spec(s.t, th == kLinalgWideThreads);
  auto slots = [&](int64_t j0, int64_t j1) {
    std::vector<int64_t> v = {m, n, 0, kPanel, j0, j1};
    if (th == kLinalgWideThreads) v.push_back(th);
    return v;
  };
  for (int64_t j0 = 0; j0 < k; j0 += kPanel) {
    const int64_t j1 = std::min(j0 + kPanel, k), w = j1 - j0;
    run_steps(
        "qr", a, spec, {f.r, f.tau, f.q, f.v, f.tf}, s.count, slots(j0, j1), j1 + 1,
        [m, j0, j1, w, th](int64_t step) {
          if (step == j1) return per_thread((m - j0) * w, th) + 2;
          const int64_t groups = th / kQrLanes, rows = (m - step + groups - 1) / groups;
          return 2 * per_thread(m - step, th) + 24 + 2 * rows + groups + w;
        },
        j0);
    for (const Ref& written : {f.r, f.v, f.tf}) written->bump_version();
    if (j1 < n) apply_block_reflector(a, s, f, j0, j1, f.r, m, n, j1, true);
  }
}

// Blocked orgqr: Q's first q columns, H_0 ... H_k-1 applied to the identity's, panels backwards
// (each touches only rows and columns from its j0: the identity's earlier columns stay).
void form_q_blocked(const Array& a, const Stack& s, Factors& f, int64_t q) {
  const int64_t m = s.m, k = std::min(s.m, s.n);
  f.q = copy_in(broadcast_to(vka::eye(m, q, 0, s.t, a.context()), with(s.batch, {m, q})), s.t);
  for (int64_t j0 = (k - 1) / kPanel * kPanel; j0 >= 0; j0 -= kPanel) {
    const int64_t j1 = std::min(j0 + kPanel, k);
    apply_block_reflector(a, s, f, j0, j1, f.q, m, q, j0, false);
  }
}

}  // namespace

std::vector<Array> qr(const Array& a, std::string_view mode) {
  if (mode != "reduced" && mode != "complete" && mode != "r") {
    throw ShapeError("[qr] Unrecognized mode '" + std::string(mode) +
                     "' (expected 'reduced', 'complete' or 'r')");
  }
  const Stack s = stack_of("qr", a, false);
  const int64_t k = std::min(s.m, s.n);
  const int64_t q = mode == "r" ? 0 : mode == "complete" ? s.m : k;
  const bool blocked = k >= kBlockedMin && s.count > 0;
  // Unused buffers are one element: Q when blocked (form_q_blocked makes it), V and T when not.
  Factors f{copy_in(a, s.t), fresh(a, s.t, s.count * k),
            fresh(a, s.t, blocked ? 1 : s.count * s.m * q),
            fresh(a, s.t, blocked ? s.count * s.m * k : 1),
            fresh(a, s.t, blocked ? s.count * k * kPanel : 1)};
  if (blocked) {
    factor_blocked(a, s, f);
    if (q > 0) form_q_blocked(a, s, f, q);
  } else if (s.m > 0 && s.n > 0) {
    factor_unblocked(a, s, f, q);
  } else if (q > 0 && s.count * s.m * q > 0) {
    // No reflectors: Q is the identity (an m×m one when n = 0 and mode is complete).
    Array eye = broadcast_to(vka::eye(s.m, q, 0, s.t, a.context()), with(s.batch, {s.m, q}));
    f.q = copy_in(eye, s.t);
  }
  Array rfull = wrap(a, f.r, s.t, a.shape());
  // R's rows past k are zero: the reduced and r modes keep the first k.
  if (mode != "complete" && k < s.m) {
    rfull = rfull.view(slice(rfull.storage()->view(), a.ndim() - 2, SliceSpec{0, k, 1}));
  }
  if (mode == "r") return {rfull};
  return {wrap(a, f.q, s.t, with(s.batch, {s.m, q})), rfull};
}

}  // namespace vka
