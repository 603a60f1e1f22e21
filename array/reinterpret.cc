// Views that reinterpret an array's bytes or change the array object in place: view(dtype),
// a.dtype = t, a.shape = s, ndarray(buffer=a) (array/views.h).
#include <string>

#include "array/array.h"
#include "base/errors.h"
#include "runtime/device_support.h"

namespace vka {
namespace {

std::string str(int64_t v) { return std::to_string(v); }

// A byte count as whole `dtype` elements: views address elements, never bytes.
int64_t elements(const char* op, const char* what, int64_t bytes, DType dtype) {
  const auto n = static_cast<int64_t>(itemsize(dtype));
  if (bytes % n != 0) {
    throw ShapeError("[" + std::string(op) + "] the " + what + " would be " + str(bytes) +
                     " bytes, not a multiple of " + std::string(name(dtype)) + "'s itemsize " +
                     str(n) + ": device views address whole elements");
  }
  return bytes / n;
}

View dtype_view(const Array& a, DType t, const char* op) {
  require_dtype(*a.context(), t, op);
  const auto from = static_cast<int64_t>(itemsize(a.dtype()));
  const auto to = static_cast<int64_t>(itemsize(t));
  if (from != to && a.ndim() == 0) {
    throw ShapeError("[" + std::string(op) +
                     "] Changing the dtype of a 0d array is only supported if the itemsize is "
                     "unchanged");
  }
  View v = a.storage()->view();
  if (from == to) return v;
  const int last = v.ndim() - 1;
  if (v.shape[last] != 1 && v.strides[last] != 1) {
    throw ShapeError("[" + std::string(op) +
                     "] To change to a dtype of a different size, the last axis must be "
                     "contiguous");
  }
  const int64_t last_bytes = v.shape[last] * from;
  if (last_bytes % to != 0) {
    throw ShapeError("[" + std::string(op) +
                     "] When changing to a larger dtype, its size must be a divisor of the total "
                     "size in bytes of the last axis of the array.");
  }
  View out;
  out.offset = elements(op, "offset", v.offset * from, t);
  out.shape = v.shape;
  out.shape[last] = last_bytes / to;
  out.strides.resize(v.strides.size());
  for (int k = 0; k < last; ++k) out.strides[k] = elements(op, "stride", v.strides[k] * from, t);
  out.strides[last] = 1;
  return out;
}

}  // namespace

Array view_dtype(const Array& a, DType dtype) {
  return a.view_as(dtype, dtype_view(a, dtype, "view"));
}

void set_dtype(Array& a, DType dtype) {
  if (dtype == a.dtype()) return;
  a.become_view(dtype, dtype_view(a, dtype, "dtype"));
}

bool set_shape(Array& a, Shape shape) {
  // The sizes are checked on the shape alone: a bad shape computes nothing.
  Shape resolved = reshape_view(View::contiguous(a.shape()), shape)->shape;
  if (resolved == a.shape()) return true;
  std::optional<View> v = reshape_view(a.storage()->view(), resolved);
  if (!v) return false;
  a.become_view(a.dtype(), *v);
  return true;
}

Array view_field(const Array& a, DType dtype, int64_t offset) {
  require_dtype(*a.context(), dtype, "getfield");
  const auto from = static_cast<int64_t>(a.itemsize());
  const auto to = static_cast<int64_t>(itemsize(dtype));
  if (offset < 0 || offset + to > from) {
    throw ShapeError("[getfield] Need 0 <= offset <= " + str(from - to) + " for requested type " +
                     std::string(name(dtype)) + " but received offset = " + str(offset));
  }
  const View& v = a.storage()->view();
  View out;
  out.offset = elements("getfield", "offset", v.offset * from + offset, dtype);
  out.shape = v.shape;
  for (int64_t s : v.strides) out.strides.push_back(elements("getfield", "stride", s * from, dtype));
  return a.view_as(dtype, out);
}

Array view_bytes(const Array& a, DType dtype, const Shape& shape, int64_t offset,
                 std::optional<std::vector<int64_t>> strides) {
  require_dtype(*a.context(), dtype, "ndarray");
  for (int64_t d : shape) {
    if (d < 0) throw ShapeError("[ndarray] negative dimensions are not allowed");
  }
  const auto n = static_cast<int64_t>(itemsize(dtype));
  const auto length = static_cast<int64_t>(a.nbytes());
  if (offset < 0 || offset > length) {
    throw ShapeError("[ndarray] offset must be non-negative and no greater than buffer length (" +
                     str(length) + ")");
  }
  if (!strides) {
    if (size(shape) * n > length - offset) {
      throw DTypeError("[ndarray] buffer is too small for requested array");
    }
    strides = std::vector<int64_t>(shape.size());
    int64_t step = n;
    for (size_t k = shape.size(); k-- > 0;) {
      (*strides)[k] = step;
      step *= shape[k];
    }
  } else {
    if (strides->size() != shape.size()) {
      throw ShapeError("[ndarray] strides, if given, must be the same length as shape");
    }
    // numpy's check: the lowest and highest bytes the view touches lie in the buffer.
    int64_t lo = offset, hi = offset + n;
    for (size_t k = 0; k < shape.size() && size(shape) > 0; ++k) {
      const int64_t span = (shape[k] - 1) * (*strides)[k];
      (span < 0 ? lo : hi) += span;
    }
    if (size(shape) > 0 && (lo < 0 || hi > length)) {
      throw ShapeError(
          "[ndarray] strides is incompatible with shape of requested array and size of buffer");
    }
  }
  if (!a.storage()->view().is_contiguous()) throw ShapeError("[ndarray] ndarray is not contiguous");
  const int64_t start = a.storage()->view().offset * static_cast<int64_t>(a.itemsize());
  View v;
  v.offset = elements("ndarray", "offset", start + offset, dtype);
  v.shape = shape;
  for (int64_t s : *strides) v.strides.push_back(elements("ndarray", "stride", s, dtype));
  return a.view_as(dtype, v);
}

}  // namespace vka
