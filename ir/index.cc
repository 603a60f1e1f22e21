// Basic indexing and the view functions on Views.
#include "ir/index.h"

#include <algorithm>
#include <numeric>

#include "base/errors.h"
#include "ir/shape.h"

namespace vka {
namespace {

std::vector<int> normalized_axes(std::string_view op, const std::vector<int64_t>& axes, int ndim) {
  std::vector<int> out;
  for (int64_t a : axes) {
    int n = normalize_axis(op, a, ndim);
    if (std::find(out.begin(), out.end(), n) != out.end()) {
      throw ShapeError("[" + std::string(op) + "] repeated axis");
    }
    out.push_back(n);
  }
  return out;
}

}  // namespace

std::string to_string(const IndexItem& item) {
  if (auto* i = std::get_if<int64_t>(&item)) return std::to_string(*i);
  if (auto* s = std::get_if<SliceSpec>(&item)) {
    auto part = [](const std::optional<int64_t>& x) { return x ? std::to_string(*x) : ""; };
    return part(s->start) + ":" + part(s->stop) + (s->step != 1 ? ":" + std::to_string(s->step) : "");
  }
  if (std::holds_alternative<NewAxis>(item)) return "None";
  return "...";
}

View apply_index(const View& v, const Index& index) {
  int ellipses = 0, consumed = 0;
  for (const IndexItem& it : index) {
    if (std::holds_alternative<Ellipsis>(it)) ++ellipses;
    if (std::holds_alternative<int64_t>(it) || std::holds_alternative<SliceSpec>(it)) ++consumed;
  }
  if (ellipses > 1) throw IndexError("[index] an index can only have a single ellipsis ('...')");
  if (consumed > v.ndim()) {
    throw IndexError("[index] too many indices for array: array is " + std::to_string(v.ndim()) +
                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
  }
  View out{v.offset, {}, {}};
  int axis = 0;  // next axis of v
  auto take_rest = [&](int upto) {
    for (; axis < upto; ++axis) {
      out.shape.push_back(v.shape[axis]);
      out.strides.push_back(v.strides[axis]);
    }
  };
  for (const IndexItem& it : index) {
    if (auto* i = std::get_if<int64_t>(&it)) {
      int64_t n = v.shape[axis];
      if (*i < -n || *i >= n) {
        throw IndexError("[index] index " + std::to_string(*i) + " is out of bounds for axis " +
                         std::to_string(axis) + " with size " + std::to_string(n));
      }
      out.offset += (*i < 0 ? *i + n : *i) * v.strides[axis];
      ++axis;
    } else if (auto* s = std::get_if<SliceSpec>(&it)) {
      SliceRange r = normalize_slice(*s, v.shape[axis]);
      if (r.count > 0) out.offset += r.start * v.strides[axis];
      out.shape.push_back(r.count);
      out.strides.push_back(v.strides[axis] * r.step);
      ++axis;
    } else if (std::holds_alternative<NewAxis>(it)) {
      out.shape.push_back(1);
      out.strides.push_back(0);
    } else {
      take_rest(axis + (v.ndim() - consumed));
    }
  }
  take_rest(v.ndim());
  // An empty result touches nothing: keep the offset in range for any later view of it.
  if (vka::size(out.shape) == 0) out.offset = v.offset;
  return out;
}

View expand_dims(const View& v, std::vector<int64_t> axes) {
  const int n = v.ndim() + static_cast<int>(axes.size());
  std::vector<int> ax = normalized_axes("expand_dims", axes, n);
  View out{v.offset, {}, {}};
  int src = 0;
  for (int d = 0; d < n; ++d) {
    if (std::find(ax.begin(), ax.end(), d) != ax.end()) {
      out.shape.push_back(1);
      out.strides.push_back(0);
    } else {
      out.shape.push_back(v.shape[src]);
      out.strides.push_back(v.strides[src++]);
    }
  }
  return out;
}

View squeeze(const View& v, std::optional<std::vector<int64_t>> axes) {
  std::vector<int> ax;
  if (axes) {
    ax = normalized_axes("squeeze", *axes, v.ndim());
    for (int a : ax) {
      if (v.shape[a] != 1) {
        throw ShapeError("[squeeze] cannot select an axis to squeeze out which has size not "
                         "equal to one (axis " + std::to_string(a) + " has size " +
                         std::to_string(v.shape[a]) + ")");
      }
    }
  } else {
    for (int d = 0; d < v.ndim(); ++d) {
      if (v.shape[d] == 1) ax.push_back(d);
    }
  }
  View out{v.offset, {}, {}};
  for (int d = 0; d < v.ndim(); ++d) {
    if (std::find(ax.begin(), ax.end(), d) != ax.end()) continue;
    out.shape.push_back(v.shape[d]);
    out.strides.push_back(v.strides[d]);
  }
  return out;
}

View swapaxes(const View& v, int64_t a, int64_t b) {
  int x = normalize_axis("swapaxes", a, v.ndim()), y = normalize_axis("swapaxes", b, v.ndim());
  std::vector<int64_t> perm(v.ndim());
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[x], perm[y]);
  return permute("swapaxes", v, perm);
}

View moveaxis(const View& v, std::vector<int64_t> source, std::vector<int64_t> destination) {
  if (source.size() != destination.size()) {
    throw ShapeError("[moveaxis] `source` and `destination` arguments must have the same number "
                     "of elements");
  }
  std::vector<int> src = normalized_axes("moveaxis", source, v.ndim());
  std::vector<int> dst = normalized_axes("moveaxis", destination, v.ndim());
  std::vector<int64_t> order;
  for (int d = 0; d < v.ndim(); ++d) {
    if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
  }
  std::vector<std::pair<int, int>> moves;
  for (size_t i = 0; i < src.size(); ++i) moves.push_back({dst[i], src[i]});
  std::sort(moves.begin(), moves.end());
  for (auto [d, s] : moves) order.insert(order.begin() + d, s);
  return permute("moveaxis", v, order);
}

View flip(const View& v, std::optional<std::vector<int64_t>> axes) {
  std::vector<int> ax;
  if (axes) {
    ax = normalized_axes("flip", *axes, v.ndim());
  } else {
    for (int d = 0; d < v.ndim(); ++d) ax.push_back(d);
  }
  View out = v;
  for (int a : ax) out = slice(out, a, SliceSpec{std::nullopt, std::nullopt, -1});
  return out;
}

View diagonal(const View& v, int64_t offset, int64_t axis1, int64_t axis2) {
  if (v.ndim() < 2) throw ShapeError("[diagonal] diag requires an array of at least two dimensions");
  int a = normalize_axis("diagonal", axis1, v.ndim()), b = normalize_axis("diagonal", axis2, v.ndim());
  if (a == b) throw ShapeError("[diagonal] axis1 and axis2 cannot be the same");
  int64_t rows = v.shape[a], cols = v.shape[b];
  int64_t start_r = offset < 0 ? -offset : 0, start_c = offset > 0 ? offset : 0;
  int64_t n = std::max<int64_t>(0, std::min(rows - start_r, cols - start_c));
  View out{v.offset, {}, {}};
  for (int d = 0; d < v.ndim(); ++d) {
    if (d == a || d == b) continue;
    out.shape.push_back(v.shape[d]);
    out.strides.push_back(v.strides[d]);
  }
  if (n > 0) out.offset += start_r * v.strides[a] + start_c * v.strides[b];
  out.shape.push_back(n);
  out.strides.push_back(v.strides[a] + v.strides[b]);
  return out;
}

}  // namespace vka
