// Gathers: index conversion, bounds checks, and the gather node.
#include "array/array.h"  // includes gather.h after vka::Array
#include "array/realize.h"
#include "device/errors.h"

namespace vka {
namespace {

void require_integer(const Array& i, std::string_view op) {
  if (!is_integer(i.dtype())) {
    throw IndexError("[" + std::string(op) + "] arrays used as indices must be of integer (or "
                     "boolean) type, got " + std::string(name(i.dtype())));
  }
}

}  // namespace

void check_index_bounds(const Array& indices, int64_t n, int64_t axis, std::string_view op) {
  if (indices.size() == 0) return;
  const std::shared_ptr<Context>& ctx = indices.context();
  Array bad = logical_or(less(indices, Arg(-n)), greater_equal(indices, Arg(n)));
  // One byte, zeroed, seen by the kernel as a broadcast of the index shape: a bool written
  // through a broadcast view is an "any" (kernels/elementwise.cc).
  auto flag = allocate_for(ctx, DType::kBool, {1});
  const uint8_t zero = 0;
  device_buffer(*flag)->write(&zero, 0, 1, std::nullopt);
  NodePtr dest = default_graph().buffer(
      flag, DType::kBool, View{0, bad.shape(), std::vector<int64_t>(bad.ndim(), 0)});
  realize(ctx, {bad.node()}, std::nullopt, {dest});
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    uint8_t hit = 0;
    device_buffer(*flag)->read(&hit, 0, 1, r);
    if (hit) {
      throw IndexError("[" + std::string(op) + "] index out of range for axis " +
                       std::to_string(axis) + " with size " + std::to_string(n) +
                       " (indices must lie in [" + std::to_string(-n) + ", " + std::to_string(n) +
                       "))");
    }
  }
}

Array gather(const Array& x, const std::vector<Array>& indices, const std::vector<int64_t>& axes,
             int64_t at, bool checked, std::string_view op) {
  if (indices.empty() || indices.size() > 3 || indices.size() != axes.size()) {
    throw IndexError("[" + std::string(op) + "] vkarray gathers with 1 to 3 index arrays, got " +
                     std::to_string(indices.size()));
  }
  std::vector<Shape> shapes;
  for (const Array& i : indices) shapes.push_back(i.shape());
  Shape ishape;
  try {
    ishape = broadcast_shapes(op, shapes);
  } catch (const ShapeError&) {
    std::string list;
    for (const Shape& s : shapes) list += " " + to_string(s);
    throw IndexError("[" + std::string(op) + "] shape mismatch: indexing arrays could not be "
                     "broadcast together with shapes" + list);
  }
  // Trailing extent-1 axes place the index axes in front of x's axes after `at`.
  const int64_t trailing = at == Graph::kAlong ? 0 : x.ndim() - static_cast<int64_t>(axes.size()) - at;
  std::vector<NodePtr> nodes;
  for (size_t k = 0; k < indices.size(); ++k) {
    const Array& i = indices[k];
    require_integer(i, op);
    if (i.context() != x.context()) {
      throw ShapeError("[" + std::string(op) + "] index array lives on a different context");
    }
    const int64_t n = x.shape()[normalize_axis(op, axes[k], x.ndim())];
    if (n == 0 && i.size() > 0) {
      throw IndexError("[" + std::string(op) + "] cannot do a non-empty take from an empty axis");
    }
    if (!checked) check_index_bounds(i, n, axes[k], op);
    if (trailing == 0) {
      nodes.push_back(i.node());
    } else {
      Shape placed = i.shape();
      placed.insert(placed.end(), trailing, 1);
      nodes.push_back(reshape(i, placed).node());
    }
  }
  // The array is read as a buffer: a storage leaf as it is, anything else once computed.
  NodePtr base = x.is_lazy() ? Array(x).eval().node() : x.node();
  return Array(default_graph().gather(base, std::move(nodes), axes, at, ishape), x.context());
}

Array take(const Array& x, const Array& indices, std::optional<int64_t> axis, IndexMode mode) {
  require_integer(indices, "take");
  Array src = axis ? x : reshape(x, {-1});
  const int a = normalize_axis("take", axis.value_or(0), src.ndim());
  const int64_t n = src.shape()[a];
  Array idx = indices;
  bool checked = false;
  if (mode == IndexMode::kWrap && n > 0) {
    idx = remainder(indices, Arg(n));
    checked = true;
  } else if (mode == IndexMode::kClip) {
    idx = minimum(maximum(indices, Arg(0)), Arg(n - 1));
    checked = true;
  }
  return gather(src, {idx}, {a}, a, checked, "take");
}

Array take_along_axis(const Array& x, const Array& indices, int64_t axis) {
  require_integer(indices, "take_along_axis");
  if (indices.ndim() != x.ndim()) {
    throw ShapeError("[take_along_axis] `indices` and `arr` must have the same number of "
                     "dimensions, got " + std::to_string(indices.ndim()) + " and " +
                     std::to_string(x.ndim()));
  }
  const int a = normalize_axis("take_along_axis", axis, x.ndim());
  Shape xs = x.shape(), is = indices.shape();
  xs[a] = 1;
  is[a] = 1;
  broadcast_shapes("take_along_axis", xs, is);  // ShapeError when the other axes disagree
  return gather(x, {indices}, {a}, Graph::kAlong, false, "take_along_axis");
}

}  // namespace vka
