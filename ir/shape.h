// Shapes: element counts, numpy broadcasting, axis normalization, printing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vka {

using Shape = std::vector<int64_t>;

// Number of elements (1 for a 0-d shape). Throws ShapeError on negative extents.
int64_t size(const Shape& shape);

// numpy's printing: "(3, 4)", "(5,)", "()".
std::string to_string(const Shape& shape);

// numpy broadcasting of any number of shapes: align on the right, extents must match or be 1.
// Throws ShapeError "[op] cannot broadcast shapes (3, 4) and (5,)" naming every shape.
Shape broadcast_shapes(std::string_view op, const std::vector<Shape>& shapes);
inline Shape broadcast_shapes(std::string_view op, const Shape& a, const Shape& b) {
  return broadcast_shapes(op, std::vector<Shape>{a, b});
}

// True when `from` can be broadcast to `to` (numpy's broadcast_to rule: no dimension grows
// except from 1, and `from` has no more dimensions than `to`).
bool can_broadcast_to(const Shape& from, const Shape& to);

// numpy's normalize_axis_index: -ndim <= axis < ndim maps to [0, ndim); otherwise IndexError
// "[op] axis 3 is out of bounds for array of dimension 2" (numpy's AxisError text).
int normalize_axis(std::string_view op, int64_t axis, int ndim);

// Row-major (C order) strides in elements for `shape`.
std::vector<int64_t> contiguous_strides(const Shape& shape);

}  // namespace vka
