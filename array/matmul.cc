// matmul: numpy's operand rules (1-d promotion, batch broadcasting, dtypes, errors) and the
// lazy product node; its tiling and launch are runtime/gemm.h's.
#include <string>

#include "array/array.h"
#include "array/reduce.h"
#include "array/views.h"
#include "base/errors.h"
#include "runtime/gemm.h"

namespace vka {
namespace {

constexpr const char* kSignature = "(n?,k),(k,m?)->(n?,m?)";

std::string shape_text(const Shape& s) { return to_string(s); }

// `x` (batch dims then two core dims) broadcast to `batch` and reshaped to 3-d.
Array as_batched(const Array& x, const Shape& batch, int64_t batch_size) {
  Shape full = batch;
  full.push_back(x.shape()[x.ndim() - 2]);
  full.push_back(x.shape()[x.ndim() - 1]);
  Array b = x.shape() == full ? x : broadcast_to(x, full);
  return reshape(b, {batch_size, full[full.size() - 2], full[full.size() - 1]});
}

}  // namespace

Array matmul(const Array& a, const Array& b) {
  for (int i = 0; i < 2; ++i) {
    const Array& x = i == 0 ? a : b;
    if (x.ndim() == 0) {
      throw ShapeError("matmul: Input operand " + std::to_string(i) +
                       " does not have enough dimensions (has 0, gufunc core with signature " +
                       kSignature + " requires 1)");
    }
  }
  const std::shared_ptr<Context>& ctx = a.context();
  if (b.context() != ctx) throw ShapeError("[matmul] operands live on different contexts");
  const DType t = result_type(a.dtype(), b.dtype());
  const Array a2 = a.ndim() == 1 ? reshape(a, {1, a.shape()[0]}) : a;
  const Array b2 = b.ndim() == 1 ? reshape(b, {b.shape()[0], 1}) : b;
  const int64_t m = a2.shape()[a2.ndim() - 2], k = a2.shape()[a2.ndim() - 1];
  const int64_t kb = b2.shape()[b2.ndim() - 2], n = b2.shape()[b2.ndim() - 1];
  if (k != kb) {
    throw ShapeError("matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                     "gufunc signature " + std::string(kSignature) + " (size " +
                     std::to_string(kb) + " is different from " + std::to_string(k) + ")");
  }
  const Shape batch_a(a2.shape().begin(), a2.shape().end() - 2);
  const Shape batch_b(b2.shape().begin(), b2.shape().end() - 2);
  Shape batch;
  try {
    batch = broadcast_shapes("matmul", batch_a, batch_b);
  } catch (const ShapeError&) {
    throw ShapeError("matmul: operands could not be broadcast together: batch shapes " +
                     shape_text(batch_a) + " and " + shape_text(batch_b) + " (shapes " +
                     shape_text(a.shape()) + " and " + shape_text(b.shape()) + ")");
  }
  Shape out_shape = batch;
  if (a.ndim() > 1) out_shape.push_back(m);
  if (b.ndim() > 1) out_shape.push_back(n);
  const int64_t nbatch = size(batch);
  if (nbatch == 0 || m == 0 || n == 0) return zeros(out_shape, t, ctx);
  const int64_t limit = int64_t{1} << 31;
  if (nbatch * m * n >= limit || nbatch * m * k >= limit || nbatch * k * n >= limit) {
    throw ShapeError("[matmul] operands or results of 2^31 elements or more are not supported "
                     "yet (shapes " + shape_text(a.shape()) + " and " + shape_text(b.shape()) +
                     ")");
  }
  if (k == 0) return zeros(out_shape, t, ctx);
  if ((m == 1 || n == 1) && t != DType::kBool && t != DType::kFloat16) {
    // A matrix-vector product reads the matrix once: as the fused reduction sum(A * x), with
    // the matrix as the leading operand (it picks the reduction's memory-friendly strategy),
    // it runs at the bandwidth roofline, where a GEMM leaves all but one row or column of its
    // tiles idle and parallelizes over one dimension only.
    const Array ac = a2.dtype() == t ? a2 : a2.astype(t);
    const Array bc = b2.dtype() == t ? b2 : b2.astype(t);
    ReduceOptions o;
    o.dtype = t;
    if (a.ndim() == 1 && b.ndim() == 1) {
      return sum((a.dtype() == t ? a : a.astype(t)) * (b.dtype() == t ? b : b.astype(t)), Axes(),
                 o);
    }
    const Array r = n == 1 ? sum(ac * swapaxes(bc, -1, -2), Axes(int64_t{-1}), o)
                           : sum(bc * swapaxes(ac, -1, -2), Axes(int64_t{-2}), o);
    return r.shape() == out_shape ? r : reshape(r, out_shape);
  }
  const Array ac = as_batched(a2.dtype() == t ? a2 : a2.astype(t), batch, nbatch);
  const Array bc = as_batched(b2.dtype() == t ? b2 : b2.astype(t), batch, nbatch);
  // Operands are read in place through their 3-d views (as_batched realizes them).
  const NodePtr na = Array(ac).eval().node(), nb = Array(bc).eval().node();
  const View& va = na->view();
  const View& vb = nb->view();
  // Each tile loader walks the operand's stride-1 axis fastest (A: m when A is a transposed
  // view; B: n unless B is transposed).
  const bool a_m_fast = va.strides[1] == 1 && va.strides[2] != 1;
  const bool b_n_fast = !(vb.strides[1] == 1 && vb.strides[2] != 1);
  // The tiling is chosen when the product is scheduled; asking for it now raises, at the call,
  // for a configuration the devices cannot run (set_gemm_config).
  gemm_tiling(ctx, t, a_m_fast, b_n_fast);
  const MatmulInfo layout{a_m_fast, b_n_fast, gemm_config_epoch()};
  return Array(default_graph().matmul(na, nb, out_shape, layout), ctx);
}

}  // namespace vka
