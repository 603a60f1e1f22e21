// Shape arithmetic with numpy's rules and numpy's error texts.
#include "ir/shape.h"

#include <algorithm>

#include "base/errors.h"

namespace vka {

int64_t size(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw ShapeError("[shape] negative dimensions are not allowed: " + to_string(shape));
    n *= d;
  }
  return n;
}

std::string to_string(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

Shape broadcast_shapes(std::string_view op, const std::vector<Shape>& shapes) {
  std::size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  Shape out(rank, 1);
  for (const Shape& s : shapes) {
    std::size_t lead = rank - s.size();
    for (std::size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[lead + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o == 1) {
        o = s[i];
        continue;
      }
      std::string msg = "[" + std::string(op) + "] cannot broadcast shapes ";
      for (std::size_t k = 0; k < shapes.size(); ++k) {
        if (k) msg += k + 1 == shapes.size() ? " and " : ", ";
        msg += to_string(shapes[k]);
      }
      throw ShapeError(msg);
    }
  }
  return out;
}

bool can_broadcast_to(const Shape& from, const Shape& to) {
  if (from.size() > to.size()) return false;
  std::size_t lead = to.size() - from.size();
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (from[i] != to[lead + i] && from[i] != 1) return false;
  }
  return true;
}

int normalize_axis(std::string_view op, int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim) {
    throw AxisError("[" + std::string(op) + "] axis " + std::to_string(axis) +
                     " is out of bounds for array of dimension " + std::to_string(ndim));
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<int64_t> contiguous_strides(const Shape& shape) {
  std::vector<int64_t> st(shape.size());
  int64_t acc = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    st[i] = acc;
    acc *= std::max<int64_t>(shape[i], 1);
  }
  return st;
}

}  // namespace vka
