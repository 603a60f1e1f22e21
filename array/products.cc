// tensordot, dot, outer and kron: numpy's operand rules, reduced to matmul (array/matmul.h)
// or, for outer and kron, to one broadcast multiply.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "array/array.h"
#include "base/errors.h"

namespace vka {
namespace {

std::string list_text(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// The axes normalized, each at most once.
std::vector<int> axes_of(std::string_view op, const std::vector<int64_t>& axes, int ndim) {
  std::vector<int> out;
  for (int64_t ax : axes) {
    const int a = normalize_axis(op, ax, ndim);
    if (std::find(out.begin(), out.end(), a) != out.end()) {
      throw AxisError("[" + std::string(op) + "] repeated axis " + std::to_string(ax) + " in " +
                      list_text(axes));
    }
    out.push_back(a);
  }
  return out;
}

}  // namespace

Array tensordot(const Array& a, const Array& b, const std::vector<int64_t>& axes_a,
                const std::vector<int64_t>& axes_b) {
  if (axes_a.size() != axes_b.size()) {
    throw ShapeError("[tensordot] shape-mismatch for sum: " + std::to_string(axes_a.size()) +
                     " axes of a " + list_text(axes_a) + " against " +
                     std::to_string(axes_b.size()) + " of b " + list_text(axes_b));
  }
  const std::vector<int> sa = axes_of("tensordot", axes_a, a.ndim());
  const std::vector<int> sb = axes_of("tensordot", axes_b, b.ndim());
  int64_t k = 1;
  for (size_t i = 0; i < sa.size(); ++i) {
    if (a.shape()[sa[i]] != b.shape()[sb[i]]) {
      throw ShapeError("[tensordot] shape-mismatch for sum: axis " + std::to_string(sa[i]) +
                       " of a " + to_string(a.shape()) + " has extent " +
                       std::to_string(a.shape()[sa[i]]) + ", axis " + std::to_string(sb[i]) +
                       " of b " + to_string(b.shape()) + " has " +
                       std::to_string(b.shape()[sb[i]]));
    }
    k *= a.shape()[sa[i]];
  }
  std::vector<int64_t> perm_a, perm_b;
  Shape out_shape;
  int64_t m = 1, n = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    if (std::find(sa.begin(), sa.end(), d) != sa.end()) continue;
    perm_a.push_back(d);
    out_shape.push_back(a.shape()[d]);
    m *= a.shape()[d];
  }
  for (int d : sa) perm_a.push_back(d);
  for (int d : sb) perm_b.push_back(d);
  for (int d = 0; d < b.ndim(); ++d) {
    if (std::find(sb.begin(), sb.end(), d) != sb.end()) continue;
    perm_b.push_back(d);
    out_shape.push_back(b.shape()[d]);
    n *= b.shape()[d];
  }
  const Array a2 = reshape(transpose(a, perm_a), {m, k});
  const Array b2 = reshape(transpose(b, perm_b), {k, n});
  return reshape(matmul(a2, b2), out_shape);
}

Array tensordot(const Array& a, const Array& b, int64_t n) {
  if (n < 0 || n > a.ndim() || n > b.ndim()) {
    throw ShapeError("[tensordot] axes=" + std::to_string(n) + " needs 0 <= axes <= the " +
                     "dimensions of both operands (shapes " + to_string(a.shape()) + " and " +
                     to_string(b.shape()) + ")");
  }
  std::vector<int64_t> axes_a(static_cast<size_t>(n)), axes_b(static_cast<size_t>(n));
  std::iota(axes_a.begin(), axes_a.end(), a.ndim() - n);
  std::iota(axes_b.begin(), axes_b.end(), 0);
  return tensordot(a, b, axes_a, axes_b);
}

Array dot(const Array& a, const Array& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return a * b;
  const int ax_a = a.ndim() - 1, ax_b = b.ndim() >= 2 ? b.ndim() - 2 : 0;
  if (a.shape()[ax_a] != b.shape()[ax_b]) {
    throw ShapeError("shapes " + to_string(a.shape()) + " and " + to_string(b.shape()) +
                     " not aligned: " + std::to_string(a.shape()[ax_a]) + " (dim " +
                     std::to_string(ax_a) + ") != " + std::to_string(b.shape()[ax_b]) +
                     " (dim " + std::to_string(ax_b) + ")");
  }
  // matmul itself where numpy's dot and matmul agree (no batch dimensions): no reshapes.
  if (a.ndim() <= 2 && b.ndim() <= 2) return matmul(a, b);
  return tensordot(a, b, {ax_a}, {ax_b});
}

Array outer(const Array& a, const Array& b) {
  return reshape(a, {-1, 1}) * reshape(b, {1, -1});
}

Array kron(const Array& a, const Array& b) {
  const int nd = std::max(a.ndim(), b.ndim());
  Shape pa(static_cast<size_t>(nd - a.ndim()), 1), pb(static_cast<size_t>(nd - b.ndim()), 1);
  pa.insert(pa.end(), a.shape().begin(), a.shape().end());
  pb.insert(pb.end(), b.shape().begin(), b.shape().end());
  // a as (a0, 1, a1, 1, ...) times b as (1, b0, 1, b1, ...): element (i0, j0, i1, j1, ...) is
  // a[i] * b[j], which read as (a0*b0, a1*b1, ...) is the Kronecker product.
  Shape ia, ib, out;
  for (int d = 0; d < nd; ++d) {
    ia.insert(ia.end(), {pa[d], 1});
    ib.insert(ib.end(), {1, pb[d]});
    out.push_back(pa[d] * pb[d]);
  }
  return reshape(reshape(a, ia) * reshape(b, ib), out);
}

}  // namespace vka
