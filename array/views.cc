// The view functions: each is a View transformation (ir/index.h, ir/view.h) applied to
// the array's storage.
#include "array/array.h"
#include "base/errors.h"
#include "runtime/realize.h"

namespace vka {

Array reshape(const Array& a, Shape shape) {
  // Check the sizes on the shape alone first: a bad reshape computes nothing.
  reshape_view(View::contiguous(a.shape()), shape);
  const View& v = a.storage()->view();
  if (std::optional<View> r = reshape_view(v, shape)) return a.view(*r);
  Array c = copy(a);
  c.eval();
  return c.view(*reshape_view(c.storage()->view(), shape));
}

Array ravel(const Array& a) {
  // numpy's ravel is a view of C-contiguous arrays only (reshape(-1) views more).
  if (a.storage()->view().is_contiguous()) return reshape(a, {-1});
  return flatten(a);
}

Array flatten(const Array& a) { return reshape(copy(a), {-1}); }

Array transpose(const Array& a, std::optional<std::vector<int64_t>> axes) {
  if (axes) return permute_dims(a, *axes);
  return a.view(transpose(a.storage()->view()));
}

Array permute_dims(const Array& a, const std::vector<int64_t>& axes) {
  permute("transpose", View::contiguous(a.shape()), axes);  // errors before any work
  return a.view(permute("transpose", a.storage()->view(), axes));
}

Array matrix_transpose(const Array& a) {
  if (a.ndim() < 2) {
    throw ShapeError("[matrix_transpose] matrix transpose with ndim < 2 is undefined");
  }
  return swapaxes(a, -1, -2);
}

Array swapaxes(const Array& a, int64_t axis1, int64_t axis2) {
  swapaxes(View::contiguous(a.shape()), axis1, axis2);
  return a.view(swapaxes(a.storage()->view(), axis1, axis2));
}

Array moveaxis(const Array& a, std::vector<int64_t> source, std::vector<int64_t> destination) {
  moveaxis(View::contiguous(a.shape()), source, destination);
  return a.view(moveaxis(a.storage()->view(), source, destination));
}

Array broadcast_to(const Array& a, const Shape& shape) {
  for (int64_t d : shape) {
    if (d < 0) throw ShapeError("[broadcast_to] all elements of broadcast shape must be non-negative");
  }
  broadcast_to("broadcast_to", View::contiguous(a.shape()), shape);
  return a.view(broadcast_to("broadcast_to", a.storage()->view(), shape), /*writeable=*/false);
}

std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays) {
  std::vector<Shape> shapes;
  for (const Array& a : arrays) shapes.push_back(a.shape());
  Shape shape = broadcast_shapes("broadcast_arrays", shapes);
  std::vector<Array> out;
  for (const Array& a : arrays) out.push_back(broadcast_to(a, shape));
  return out;
}

Array expand_dims(const Array& a, std::vector<int64_t> axes) {
  expand_dims(View::contiguous(a.shape()), axes);
  return a.view(expand_dims(a.storage()->view(), axes));
}

Array squeeze(const Array& a, std::optional<std::vector<int64_t>> axes) {
  squeeze(View::contiguous(a.shape()), axes);
  return a.view(squeeze(a.storage()->view(), axes));
}

Array flip(const Array& a, std::optional<std::vector<int64_t>> axes) {
  flip(View::contiguous(a.shape()), axes);
  return a.view(flip(a.storage()->view(), axes));
}

Array diagonal(const Array& a, int64_t offset, int64_t axis1, int64_t axis2) {
  diagonal(View::contiguous(a.shape()), offset, axis1, axis2);
  return a.view(diagonal(a.storage()->view(), offset, axis1, axis2), /*writeable=*/false);
}

Array ascontiguousarray(const Array& a) {
  if (!a.is_storage() || a.storage()->view().is_contiguous()) return a;
  return copy(a);
}

Array copy(const Array& a) {
  return Array(default_graph().convert(a.node(), a.dtype(), a.shape()), a.context());
}

Array flat_buffer(const Array& a, DType t) {
  // A lazy array of more than one axis is computed by its reshape; a 1-d one stays lazy, so
  // that a conversion computes it straight into the new buffer.
  Array flat = a.ndim() == 1 ? a : reshape(a, {-1});
  if (t == a.dtype()) {
    flat.eval();
    const NodePtr& node = flat.node();
    if (node->is_leaf() && node->view().offset == 0 && node->view().is_contiguous()) return flat;
  }
  Array data(default_graph().convert(flat.node(), t, {a.size()}), a.context());
  data.eval();
  VKA_ASSERT(data.node()->is_leaf() && data.node()->view().offset == 0);
  return data;
}

}  // namespace vka
