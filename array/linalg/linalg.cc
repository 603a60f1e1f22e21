// vka::linalg's factorizations: checks, the copy into fresh contiguous buffers, the kernels of
// kernels/lib/linalg.h (large LU and Cholesky by 32-column panels, the panel kernels solving the
// off-diagonal blocks, the GEMM updating the trailing matrix), and the flag read-back of the
// calls that can raise LinAlgError. QR is in qr.cc, getrs' solves in substitute.cc.
#include "array/linalg/linalg.h"

#include <algorithm>
#include <memory>
#include <string>

#include "array/linalg/launch.h"
#include "array/linalg/wide.h"
#include "array/reduce.h"
#include "array/views.h"
#include "kernels/lib/linalg.h"
#include "runtime/realize.h"

namespace vka {
namespace {

using linalg_detail::any_flag;
using linalg_detail::block;
using linalg_detail::ceil_div;
using linalg_detail::copy_in;
using linalg_detail::fresh;
using linalg_detail::herm;
using linalg_detail::kBlockedMin;
using linalg_detail::kOuterPanel;
using linalg_detail::kPanel;
using linalg_detail::panel_threads;
using linalg_detail::per_thread;
using linalg_detail::promote;
using linalg_detail::run;
using linalg_detail::run_steps;
using linalg_detail::Stack;
using linalg_detail::stack_of;
using linalg_detail::substitute;
using linalg_detail::subtract_product;
using linalg_detail::throw_if_not_converged;
using linalg_detail::with;
using linalg_detail::wrap;

// The factored LU of a checked square stack, in place in a fresh buffer, and its flags.
struct Lu {
  std::shared_ptr<BufferRef> lu, piv, info;
};

// A[r0:r1, c0:c1] -= A[r0:r1, k0:k1] @ (A[k0:k1, c0:c1], or A[c0:c1, k0:k1]ᴴ when `symmetric`)
// for the stack of n×n matrices in `ref`.
void update(const Array& like, const std::shared_ptr<BufferRef>& ref, const Stack& s,
            bool symmetric, int64_t r0, int64_t r1, int64_t c0, int64_t c1, int64_t k0,
            int64_t k1) {
  if (r0 >= r1 || c0 >= c1 || s.count == 0) return;
  auto at = [&](int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
    return block(like, ref, s.t, s.batch, s.n, s.n, i0, i1, j0, j1);
  };
  Array right = symmetric ? herm(at(c0, c1, k0, k1)) : at(k0, k1, c0, c1);
  subtract_product(at(r0, r1, c0, c1), at(r0, r1, k0, k1), right);
}

// Panel by panel (or the whole matrix as one panel when small), in two levels: outer panels
// of kOuterPanel columns, each of panels of kPanel. `panel(o0, o1, j0, j1)` factors columns
// [j0, j1) and updates what lies outside A[j1:, j1:] within the outer panel's columns [o0, o1)
// (LU: U12 of those columns); the GEMM updates the rest of the outer panel's columns. Then
// `outer(o0, o1)` (LU: U12 of the columns right of the outer panel, where the panels did not
// form it) and one update of the matrix right of and below the outer panel, of kOuterPanel
// terms: the trailing matrix is read and written once per outer panel, not once per panel (on
// the H200 a 32-term update of a 4064² matrix took 188 us, a 128-term one 285 us).
template <typename Panel, typename Outer>
void blocked(const Array& like, const std::shared_ptr<BufferRef>& ref, const Stack& s,
             bool symmetric, Panel panel, Outer outer) {
  const int64_t n = s.n, nb = n >= kBlockedMin ? kPanel : n;
  const int64_t width = n >= kBlockedMin ? kOuterPanel : n;
  for (int64_t o0 = 0; o0 < n; o0 += width) {
    const int64_t o1 = std::min(o0 + width, n);
    for (int64_t j0 = o0; j0 < o1; j0 += nb) {
      const int64_t j1 = std::min(j0 + nb, o1);
      panel(o0, o1, j0, j1);
      update(like, ref, s, symmetric, j1, n, j1, o1, j0, j1);
    }
    if (o1 == n) break;
    outer(o0, o1);
    update(like, ref, s, symmetric, o1, n, o1, n, o0, o1);
  }
}

// dest (a block of the matrices in `ref`) = value, a product that reads dest's own rows or
// columns (a triangular solve by an inverted diagonal block): computed into a buffer of its
// own, then copied. `dest` must be an Array made for the write alone: one used as an operand
// may have moved into a copy of its view.
void assign_product(const Array& like, DType t, const Array& value, const Array& dest,
                    const std::shared_ptr<BufferRef>& ref) {
  Array x = wrap(like, copy_in(value, t), t, value.shape());
  realize(like.context(), {default_graph().convert(x.node(), t, dest.shape())}, std::nullopt,
          {dest.node()});
  ref->bump_version();  // views made from here on are new nodes, never an earlier value
}

// The panel [j0, j1) of the stack's LU by lu_panel_spec: the leaves over the panel's rows,
// merges until the candidate sets fit one workgroup, the final, then the swaps of the other
// columns with U12 right of the panel, and L21. `in` and `out` are the candidate buffers,
// swapped after every launch.
void tournament(const Array& a, DType t, const Lu& f, std::shared_ptr<BufferRef> in,
                std::shared_ptr<BufferRef> out, int64_t count, int64_t n, int64_t j0, int64_t j1,
                int64_t o0, int64_t o1) {
  const KernelSpec spec = lu_panel_spec(t);
  const int64_t rows = lu_panel_rows(t), per = rows / kPanel;
  auto go = [&](int64_t mode, int64_t sets, int64_t groups) {
    run(a, spec, {f.lu, f.piv, f.info, in, out}, count * groups,
        {n, j0, j1, o0, o1, mode, sets, groups});
    std::swap(in, out);
  };
  int64_t sets = 0;  // 0: the final factors the panel's rows themselves
  if (n - j0 > rows) {
    sets = ceil_div(n - j0, rows);
    go(0, 0, sets);
    while (sets > per) {
      const int64_t groups = ceil_div(sets, per);
      go(1, sets, groups);
      sets = groups;
    }
  }
  go(2, sets, 1);
  const int64_t l21 = sets > 0 ? ceil_div(n - j1, rows - kPanel) : 0;
  go(3, sets, std::max(ceil_div(n - (j1 - j0), kLinalgThreads), l21));
}

Lu factor(const Array& a, const Stack& s) {
  const int64_t n = s.n;
  const bool panels = n >= kBlockedMin;
  Lu f{copy_in(a, s.t), fresh(a, DType::kInt32, s.count * s.n), fresh(a, DType::kInt32, s.count)};
  // Panels by tournament where the dtype has the kernel (complex128: the one-workgroup panel,
  // whose L11⁻¹ the GEMM's U12 takes).
  const int64_t rows = lu_panel_rows(s.t);
  const bool by_tournament = panels && rows > 0;
  auto inv = fresh(a, s.t, panels && !by_tournament ? s.count * n * kPanel : 1);
  const int64_t scratch = by_tournament ? s.count * (ceil_div(n, rows) + 4) * kPanel : 1;
  auto cand_a = fresh(a, DType::kInt32, scratch), cand_b = fresh(a, DType::kInt32, scratch);
  auto at = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    return block(a, f.lu, s.t, s.batch, n, n, r0, r1, c0, c1);
  };
  // Large matrices: the wide workgroup (four times the invocations on each panel).
  const int64_t th = panels ? panel_threads(a.context()) : kLinalgThreads;
  const KernelSpec spec = lu_factor_spec(s.t, th == kLinalgWideThreads);
  // U12 = L11⁻¹ A12 over columns [c0, c1) for the panel [j0, j1) on the GEMM (trsm by the
  // inverted unit-lower diagonal block).
  auto solve_rows = [&](int64_t j0, int64_t j1, int64_t c0, int64_t c1) {
    Array inv11 = block(a, inv, s.t, s.batch, n, kPanel, j0, j1, 0, j1 - j0);
    assign_product(a, s.t, matmul(inv11, at(j0, j1, c0, c1)), at(j0, j1, c0, c1), f.lu);
  };
  auto panel = [&](int64_t o0, int64_t o1, int64_t j0, int64_t j1) {
    if (by_tournament) {
      if (s.count > 0) tournament(a, s.t, f, cand_a, cand_b, s.count, n, j0, j1, o0, o1);
      return;
    }
    std::vector<int64_t> slots = {n, j0, j1, kPanel, o0, o1};
    if (th == kLinalgWideThreads) slots.push_back(th);
    run_steps(
        "lu_factor", a, spec, {f.lu, f.piv, f.info, inv}, s.count, slots, j1,
        [n, j0, j1, o0, o1, th](int64_t k) {
          const int64_t w = j1 - j0, rounds = j1 == o1 && o1 < n ? (o1 - o0) / kPanel : 0;
          return 3 * per_thread(n - k, th) + 20 + per_thread(j1, th) + per_thread(n, th) +
                 2 * per_thread((n - k - 1) * (j1 - k - 1), th) + 4 +
                 (k == j1 - 1
                      ? (per_thread(n - j1, th) + 4 * kPanel) * (rounds + 1) * 8 + 3 * w * w + 2
                      : 0);
        },
        j0);
    if (j1 < o1 && s.count > 0) solve_rows(j0, j1, j1, o1);
  };
  // The rows of the outer panel in the columns right of it, panel by panel: U12, then the
  // outer panel's later rows updated by it (the panel kernel swapped these columns' rows when
  // the outer panel ended).
  auto outer = [&](int64_t o0, int64_t o1) {
    if (s.count == 0 || by_tournament) return;  // the tournament's rows launches formed them
    for (int64_t j0 = o0; j0 < o1; j0 += kPanel) {
      const int64_t j1 = std::min(j0 + kPanel, o1);
      solve_rows(j0, j1, o1, n);
      update(a, f.lu, s, false, j1, o1, o1, n, j0, j1);
    }
  };
  blocked(a, f.lu, s, false, panel, outer);
  return f;
}

}  // namespace

DType linalg_dtype(std::string_view op, DType t) {
  if (t == DType::kFloat16) {
    throw DTypeError("array type float16 is unsupported in linalg (" + std::string(op) + ")");
  }
  if (is_floating(t) || is_complex(t)) return t;
  return DType::kFloat64;
}

std::vector<Array> lu_factor(const Array& a) {
  const Stack s = stack_of("lu_factor", a, true);
  Lu f = factor(a, s);
  return {wrap(a, f.lu, s.t, a.shape()), wrap(a, f.piv, DType::kInt32, with(s.batch, {s.n}))};
}

Array solve(const Array& a, const Array& b) {
  const Stack s = stack_of("solve", a, true);
  if (b.ndim() != a.ndim() || !std::equal(s.batch.begin(), s.batch.end(), b.shape().begin()) ||
      b.shape()[b.ndim() - 2] != s.n) {
    throw ShapeError("[solve] b of shape " + to_string(b.shape()) + " does not match a of shape " +
                     to_string(a.shape()) + " (expected (..., " + std::to_string(s.n) + ", k))");
  }
  const DType t = promote(s.t, linalg_dtype("solve", b.dtype()));
  const Stack st{t, s.batch, s.count, s.n, s.n};
  const int64_t k = b.shape()[b.ndim() - 1];
  Lu f = factor(a, st);
  auto x = copy_in(b, t);
  if (any_flag(a, f.info, s.count)) throw LinAlgError("Singular matrix");
  substitute(a, t, f.lu, f.piv, x, s.count, s.n, k);
  return wrap(a, x, t, b.shape());
}

Array lu_solve(const Array& lu, const Array& pivots, const Array& b) {
  const Stack s = stack_of("lu_solve", lu, true);
  if (b.ndim() != lu.ndim() || !std::equal(s.batch.begin(), s.batch.end(), b.shape().begin()) ||
      b.shape()[b.ndim() - 2] != s.n || pivots.shape() != with(s.batch, {s.n})) {
    throw ShapeError("[lu_solve] b of shape " + to_string(b.shape()) + " and pivots of shape " +
                     to_string(pivots.shape()) + " do not match lu of shape " +
                     to_string(lu.shape()));
  }
  const DType t = promote(s.t, linalg_dtype("lu_solve", b.dtype()));
  const int64_t k = b.shape()[b.ndim() - 1];
  auto f = copy_in(lu, t), piv = copy_in(pivots, DType::kInt32), x = copy_in(b, t);
  substitute(lu, t, f, piv, x, s.count, s.n, k);
  return wrap(lu, x, t, b.shape());
}

Array inv(const Array& a) {
  const Stack s = stack_of("inv", a, true);
  Lu f = factor(a, s);
  if (any_flag(a, f.info, s.count)) throw LinAlgError("Singular matrix");
  Array eye = broadcast_to(vka::eye(s.n, s.n, 0, s.t, a.context()), a.shape());
  auto x = copy_in(eye, s.t);
  substitute(a, s.t, f.lu, f.piv, x, s.count, s.n, s.n);
  return wrap(a, x, s.t, a.shape());
}

Array cholesky(const Array& a) {
  const Stack s = stack_of("cholesky", a, true);
  const int64_t n = s.n;
  const bool panels = n >= kBlockedMin;
  auto l = copy_in(a, s.t), info = fresh(a, DType::kInt32, s.count);
  const KernelSpec spec = cholesky_spec(s.t);
  auto panel = [&](int64_t, int64_t, int64_t j0, int64_t j1) {
    if (!panels) {
      run_steps("cholesky", a, spec, {l, info}, s.count, {n, 0, 0, n, 1}, n, [n](int64_t k) {
        return per_thread(n - k) + per_thread((n - k - 1) * (n - k - 1)) + 4 +
               (k == n - 1 ? per_thread(n * n) : 0);
      });
      return;
    }
    run(a, spec, {l, info}, s.count, {n, 1, j0, j1, 1, j0, j1});
    if (j1 == n || s.count == 0) return;
    // L21 = A21 L11⁻ᴴ: a row per invocation over the whole device.
    const int64_t groups = ceil_div(n - j1, kLinalgThreads);
    run(a, spec, {l, info}, s.count * groups, {n, 2, j0, j1, groups, j0, j1});
  };
  blocked(a, l, s, true, panel, [](int64_t, int64_t) {});
  if (s.n > 0 && any_flag(a, info, s.count)) {
    throw LinAlgError("Matrix is not positive definite");
  }
  Array out = wrap(a, l, s.t, a.shape());
  if (!panels) return out;
  // The blocked factorization leaves the upper triangle undefined: L is the lower one, selected
  // by an elementwise kernel over every element at once (not one workgroup per matrix).
  Array rows = reshape(arange(0, static_cast<double>(n), 1, DType::kInt32, a.context()), {n, 1});
  Array cols = reshape(arange(0, static_cast<double>(n), 1, DType::kInt32, a.context()), {1, n});
  return where(less_equal(cols, rows), out, zeros({}, s.t, a.context()));
}

std::vector<Array> svd(const Array& a, bool full_matrices, bool compute_uv) {
  const Stack s = stack_of("svd", a, false);
  // The kernel wants m >= n: a wide matrix is factored as its conjugate transpose,
  // A = (V S Uᴴ)ᴴ.
  const bool tall = s.m >= s.n;
  const int64_t m = std::max(s.m, s.n), n = std::min(s.m, s.n);
  const int64_t uc = !compute_uv ? 0 : full_matrices ? m : n;
  const int64_t c = s.count;
  const DType r = real_dtype(s.t);
  // The wide mode (array/linalg/wide.h) reads each matrix transposed: columns contiguous.
  const bool wide = n > 0 && linalg_detail::use_wide_jacobi(a, c, n);
  const Array src = tall ? a : herm(a);
  auto w = copy_in(wide ? matrix_transpose(src) : src, s.t);
  auto v = fresh(a, s.t, c * n * n), u = fresh(a, s.t, c * m * uc), sv = fresh(a, r, c * n),
       vt = fresh(a, s.t, c * n * n), scratch = fresh(a, r, c * (n + 1)),
       info = fresh(a, DType::kInt32, 2 * c);
  if (wide) {
    linalg_detail::svd_wide(a, s.t, {w, v, u, sv, vt, scratch, info}, c, m, n, uc);
    throw_if_not_converged("SVD", a, info, 2 * c);
  } else if (n > 0) {
    const int64_t np = n + (n & 1);
    run_steps("svd", a, svd_jacobi_spec(s.t), {w, v, u, sv, vt, scratch, info}, c, {m, n, uc},
              2 + kJacobiSweeps * (np - 1), [m, n, np](int64_t step) {
                return step == 0 ? per_thread(n * n) + 2
                                 : per_thread(np / 2) * (2 * m + n + 4) + per_thread(m * n) +
                                       per_thread(n) * (2 * m + 2 * n + 4);
              });
    throw_if_not_converged("SVD", a, info, 2 * c);
  }
  Array sa = wrap(a, sv, r, with(s.batch, {n}));
  if (!compute_uv) return {sa};
  Array ua = wrap(a, u, s.t, with(s.batch, {m, uc})), vta = wrap(a, vt, s.t, with(s.batch, {n, n}));
  if (uc > 0) {
    // U's columns of singular values at most eps ||A||_F, and past n, are zero: Householder QR
    // of U keeps its orthonormal columns (up to sign) and continues them to an orthonormal
    // basis, whose columns take the zero ones' places.
    if (n == 0) {
      ua = broadcast_to(vka::eye(m, uc, 0, s.t, a.context()), with(s.batch, {m, uc}));
    } else {
      Array basis = qr(ua, uc == m ? "complete" : "reduced")[0];
      Array zero = equal(sum(abs(ua), {-2}, ReduceOptions{true}), Arg(0));
      ua = where(zero, basis, ua);
    }
  }
  if (tall) return {ua, sa, vta};
  return {herm(vta), sa, herm(ua)};
}

std::vector<Array> eigh(const Array& a, bool compute_v) {
  const Stack s = stack_of("eigh", a, true);
  const int64_t n = s.n, c = s.count;
  auto w = copy_in(a, s.t);
  const DType r = real_dtype(s.t);
  auto v = fresh(a, s.t, c * n * n), vals = fresh(a, r, c * n), vecs = fresh(a, s.t, c * n * n),
       scratch = fresh(a, s.t, c * (2 * n + 4)), info = fresh(a, DType::kInt32, 2 * c);
  if (n > 0 && linalg_detail::use_wide_jacobi(a, c, n)) {
    linalg_detail::eigh_wide(a, s.t, {w, v, vals, vecs, scratch, info}, c, n, compute_v);
    throw_if_not_converged("Eigenvalues", a, info, 2 * c);
  } else if (n > 0) {
    const int64_t np = n + (n & 1);
    run_steps("eigh", a, eigh_jacobi_spec(s.t), {w, v, vals, vecs, scratch, info}, c,
              {n, compute_v ? 1 : 0}, 2 + kJacobiSweeps * (np - 1), [n, np](int64_t step) {
                return step == 0 ? per_thread(n * n) + 2 * n * n + 2
                                 : per_thread(np / 2) + 2 * per_thread(np / 2 * n) + 8 +
                                       per_thread(n) * (2 * n + 2);
              });
    throw_if_not_converged("Eigenvalues", a, info, 2 * c);
  }
  Array wa = wrap(a, vals, r, with(s.batch, {n}));
  if (!compute_v) return {wa};
  return {wa, wrap(a, vecs, s.t, a.shape())};
}

}  // namespace vka
