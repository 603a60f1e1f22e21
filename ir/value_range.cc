// Host-side bounds of integer expressions (value_range.h): interval arithmetic in 128 bits,
// given up wherever a value could leave its dtype's range (a wrap would break the bounds).
#include "ir/value_range.h"

#include <algorithm>

namespace vka {
namespace {

using Wide = __int128;

// A few levels cover index arithmetic (i + 1, i[:, None] + j); deeper graphs are not worth
// walking at every bounds check.
constexpr int kMaxDepth = 6;

// The dtype's range, clipped to int64's.
std::pair<Wide, Wide> dtype_limits(DType t) {
  const int bits = static_cast<int>(itemsize(t)) * 8;
  if (info(t).kind == 'u') {
    return {0, bits >= 64 ? Wide(INT64_MAX) : (Wide(1) << bits) - 1};
  }
  return {-(Wide(1) << (bits - 1)), (Wide(1) << (bits - 1)) - 1};
}

std::optional<ValueRange> make(Wide lo, Wide hi, DType t) {
  auto [min, max] = dtype_limits(t);
  if (lo > hi || lo < min || hi > max) return std::nullopt;
  return ValueRange{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

// An affine range a + b * p over positions [0, count): its bounds, when they fit.
std::optional<ValueRange> affine(Wide a, Wide b, int64_t count, DType t) {
  if (count <= 0) return std::nullopt;
  const Wide last = a + b * Wide(count - 1);
  std::optional<ValueRange> r = make(std::min(a, last), std::max(a, last), t);
  auto [min, max] = dtype_limits(t);
  if (!r || a < min || a > max || b < min || b > max) return std::nullopt;
  r->affine = true;
  r->a = static_cast<int64_t>(a);
  r->b = static_cast<int64_t>(b);
  return r;
}

std::optional<ValueRange> integer_scalar(const Scalar& s) {
  if (!is_integer(s.dtype())) return std::nullopt;
  const int64_t v = s.as_int();
  if (info(s.dtype()).kind == 'u' && v < 0) return std::nullopt;  // above int64's range
  return ValueRange{v, v};
}

// A leaf's bounds from its buffer's known values: an affine buffer's through the positions the
// view reads, else the whole buffer's.
std::optional<ValueRange> leaf_range(const Node& n) {
  if (n.is_stale_leaf()) return std::nullopt;
  std::optional<BufferRef::KnownValues> k = n.buffer()->known_values();
  if (!k || k->dtype != n.dtype()) return std::nullopt;
  const View& v = n.view();
  if (v.size() == 0) return std::nullopt;
  const ValueRange& known = k->range;
  if (!known.affine) return ValueRange{known.lo, known.hi};
  Wide lo = v.offset, hi = v.offset;
  for (int d = 0; d < v.ndim(); ++d) {
    const Wide span = Wide(v.shape[d] - 1) * v.strides[d];
    (span < 0 ? lo : hi) += span;
  }
  const Wide x = Wide(known.a) + Wide(known.b) * lo, y = Wide(known.a) + Wide(known.b) * hi;
  std::optional<ValueRange> r = make(std::min(x, y), std::max(x, y), n.dtype());
  // A rank-1 view reads position offset + stride * p: affine again.
  if (r && v.ndim() == 1) {
    if (auto f = affine(Wide(known.a) + Wide(known.b) * v.offset, Wide(known.b) * v.strides[0],
                        v.shape[0], n.dtype())) {
      return f;
    }
  }
  return r;
}

std::optional<ValueRange> range_of(const Node& n, int depth) {
  if (!is_integer(n.dtype()) || depth > kMaxDepth) return std::nullopt;
  const DType t = n.dtype();
  switch (n.op()) {
    case Op::kBuffer:
      return leaf_range(n);
    case Op::kFull:
      return integer_scalar(n.params()[0]);
    case Op::kArange: {
      auto start = integer_scalar(n.params()[0]), step = integer_scalar(n.params()[1]);
      if (!start || !step || n.shape().size() != 1) return std::nullopt;
      return affine(start->lo, step->lo, n.shape()[0], t);
    }
    default:
      break;
  }
  const std::vector<NodePtr>& in = n.inputs();
  std::optional<ValueRange> x = in.empty() ? std::nullopt : range_of(*in[0], depth + 1);
  if (!x) return std::nullopt;
  // An elementwise input of the node's own shape keeps an affine form through the node.
  const bool x_affine = x->affine && in[0]->shape() == n.shape();
  switch (n.op()) {
    case Op::kAstype:
    case Op::kPositive:
      return x_affine ? affine(x->a, x->b, size(n.shape()), t) : make(x->lo, x->hi, t);
    case Op::kNegative:
      return x_affine ? affine(-Wide(x->a), -Wide(x->b), size(n.shape()), t)
                      : make(-Wide(x->hi), -Wide(x->lo), t);
    default:
      break;
  }
  if (in.size() != 2) return std::nullopt;
  std::optional<ValueRange> y = range_of(*in[1], depth + 1);
  if (!y) return std::nullopt;
  const bool y_affine = y->affine && in[1]->shape() == n.shape();
  const bool x_const = x->lo == x->hi, y_const = y->lo == y->hi;
  switch (n.op()) {
    case Op::kAdd:
      if (x_affine && y_const) return affine(Wide(x->a) + y->lo, x->b, size(n.shape()), t);
      if (y_affine && x_const) return affine(Wide(y->a) + x->lo, y->b, size(n.shape()), t);
      return make(Wide(x->lo) + y->lo, Wide(x->hi) + y->hi, t);
    case Op::kSubtract:
      if (x_affine && y_const) return affine(Wide(x->a) - y->lo, x->b, size(n.shape()), t);
      if (y_affine && x_const) return affine(Wide(x->lo) - y->a, -Wide(y->b), size(n.shape()), t);
      return make(Wide(x->lo) - y->hi, Wide(x->hi) - y->lo, t);
    case Op::kMultiply: {
      if (x_affine && y_const)
        return affine(Wide(x->a) * y->lo, Wide(x->b) * y->lo, size(n.shape()), t);
      if (y_affine && x_const)
        return affine(Wide(y->a) * x->lo, Wide(y->b) * x->lo, size(n.shape()), t);
      const Wide c[] = {Wide(x->lo) * y->lo, Wide(x->lo) * y->hi, Wide(x->hi) * y->lo,
                        Wide(x->hi) * y->hi};
      return make(*std::min_element(c, c + 4), *std::max_element(c, c + 4), t);
    }
    case Op::kMaximum:
      return make(std::max(x->lo, y->lo), std::max(x->hi, y->hi), t);
    case Op::kMinimum:
      return make(std::min(x->lo, y->lo), std::min(x->hi, y->hi), t);
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<ValueRange> value_range(const Node& n) { return range_of(n, 0); }

void note_values(const Node& value, BufferRef& buffer) {
  if (!is_integer(value.dtype())) return;
  std::optional<ValueRange> r = value_range(value);
  if (!r) return;
  buffer.set_known_values({buffer.version(), value.dtype(), *r});
}

}  // namespace vka
