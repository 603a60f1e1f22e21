// numpy ↔ vkarray conversions. Every check runs before any byte reaches a device, so a
// rejected write leaves every replica as it was.
#include "bindings/convert.h"

#include <array>
#include <limits>

#include "array/buffer.h"
#include "base/errors.h"

namespace vka {
namespace {

py::module_ numpy() { return py::module_::import("numpy"); }

std::string op_prefix(std::string_view op) { return "[" + std::string(op) + "] "; }

std::string supported_list() {
  std::string s;
  for (int i = 0; i < kNumDTypes; ++i) {
    s += (i ? ", " : "") + std::string(name(static_cast<DType>(i)));
  }
  return s;
}

// The DType with numpy's (kind, itemsize), if vkarray has one.
std::optional<DType> match(char kind, int64_t itemsize) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const DTypeInfo& d = info(static_cast<DType>(i));
    if (d.kind == kind && static_cast<int64_t>(d.itemsize) == itemsize) return d.dtype;
  }
  return std::nullopt;
}

// A numpy dtype → DType, or DTypeError: "[op] <what> <dtype> is not supported ...".
DType from_numpy(const py::dtype& dt, std::string_view op, const char* what) {
  // numpy's dtype.__str__ is Python code: formatted for errors only (every conversion of a
  // dtype argument passes here).
  auto text = [&dt] { return std::string(py::str(py::handle(dt))); };
  if (py::str(dt.attr("byteorder")).cast<std::string>() == ">") {
    throw DTypeError(op_prefix(op) + what + " " + text() +
                     " is big-endian; vkarray stores native (little-endian) byte order, use "
                     "dtype.newbyteorder('<')");
  }
  std::optional<DType> t;
  if (!dt.attr("fields").is_none() || !dt.attr("subdtype").is_none()) {
    t = std::nullopt;  // structured and sub-array dtypes are not elements
  } else {
    t = match(dt.kind(), dt.itemsize());
  }
  if (!t) {
    throw DTypeError(op_prefix(op) + what + " " + text() +
                     " is not supported; supported: " + supported_list());
  }
  return *t;
}

bool is_bool_like(py::handle v) {
  return py::isinstance<py::bool_>(v) || py::isinstance(v, numpy().attr("bool_"));
}

bool is_integer_like(py::handle v) { return !is_bool_like(v) && py::hasattr(v, "__index__"); }

std::string tuple_repr(py::handle v) { return py::repr(v); }

// Python int → int64, or a ValueError naming the value and the shape.
int64_t to_dimension(py::handle d, py::handle whole, std::string_view op) {
  if (!is_integer_like(d)) {
    throw ShapeError(op_prefix(op) + "dimension " + std::string(py::repr(d)) + " in shape " +
                     tuple_repr(whole) + " is not an integer");
  }
  py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(d.ptr()));
  if (!v) throw py::error_already_set();
  int overflow = 0;
  const long long n = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow != 0 || n < 0) {
    const bool negative = overflow < 0 || (overflow == 0 && n < 0);
    throw ShapeError(op_prefix(op) + (negative ? "negative" : "too large a") + " dimension " +
                     std::string(py::repr(d)) + " in shape " + tuple_repr(whole));
  }
  return n;
}

std::string index_repr(const py::array& a, py::ssize_t flat) {
  return py::repr(numpy().attr("unravel_index")(flat, a.attr("shape")));
}

std::string value_at(const py::array& a, py::ssize_t flat) {
  return py::str(a.attr("reshape")(-1).attr("__getitem__")(flat));
}

// int → int: every value must lie in the destination's range.
void check_int_range(const py::array& a, DType src, DType dst, std::string_view op) {
  const py::dtype to = to_numpy_dtype(dst);
  if (a.size() == 0 || numpy().attr("can_cast")(a.dtype(), to, "safe").cast<bool>()) return;
  py::object lo = numpy().attr("iinfo")(to).attr("min");
  py::object hi = numpy().attr("iinfo")(to).attr("max");
  // Python ints compare exactly across int64 and uint64, which numpy 1.24 arrays do not.
  py::object mn = a.attr("min")().attr("item")();
  py::object mx = a.attr("max")().attr("item")();
  py::ssize_t bad = -1;
  if (mn < lo) bad = a.attr("argmin")().cast<py::ssize_t>();
  if (bad < 0 && mx > hi) bad = a.attr("argmax")().cast<py::ssize_t>();
  if (bad >= 0) {
    throw py::value_error(op_prefix(op) + "value " + value_at(a, bad) + " at data index " +
                          index_repr(a, bad) + " does not fit " + std::string(name(dst)) +
                          " (range " + std::string(py::str(lo)) + " to " +
                          std::string(py::str(hi)) + "); " + std::string(name(src)) +
                          " data is converted only when every value fits");
  }
}

// numpy's overflow warnings silenced while in scope: an overflow found is raised as an error,
// so a RuntimeWarning about the same cast would only be noise.
class QuietOverflow {
 public:
  QuietOverflow() : state_(numpy().attr("errstate")(py::arg("over") = "ignore")) {
    state_.attr("__enter__")();
  }
  ~QuietOverflow() {
    try {
      state_.attr("__exit__")(py::none(), py::none(), py::none());
    } catch (py::error_already_set&) {  // restoring numpy's error state cannot fail in practice
    }
  }

 private:
  py::object state_;
};

// → float/complex: rounding is accepted (numpy's same_kind casting), overflow to inf is not.
py::array convert_checking_overflow(const py::array& a, DType src, DType dst, std::string_view op) {
  const py::dtype to = to_numpy_dtype(dst);
  py::array out;
  {
    QuietOverflow quiet;
    out = numpy().attr("ascontiguousarray")(a, to);
  }
  if (a.size() == 0 || numpy().attr("can_cast")(a.dtype(), to, "safe").cast<bool>()) return out;
  py::module_ np = numpy();
  py::object bad = np.attr("logical_and")(np.attr("isfinite")(a),
                                          np.attr("logical_not")(np.attr("isfinite")(out)));
  if (np.attr("any")(bad).cast<bool>()) {
    const auto i = np.attr("argmax")(bad).cast<py::ssize_t>();
    throw py::value_error(op_prefix(op) + "value " + value_at(a, i) + " at data index " +
                          index_repr(a, i) + " overflows " + std::string(name(dst)) + "; " +
                          std::string(name(src)) +
                          " data is converted only when no finite value becomes inf");
  }
  return out;
}

// The C-contiguous array of `dst` holding `a`'s values, or an error naming what would change.
py::array convert_lossless(const py::array& a, DType src, DType dst, std::string_view op) {
  if (src == dst) return numpy().attr("ascontiguousarray")(a);
  const char sk = info(src).kind;
  const char dk = info(dst).kind;
  const char* refused = nullptr;
  if (dk == 'b' && sk != 'b') refused = "values other than 0 and 1 would change";
  if ((dk == 'i' || dk == 'u') && (sk == 'f' || sk == 'c')) refused = "fractions would be cut";
  if (dk == 'f' && sk == 'c') refused = "imaginary parts would be dropped";
  if (refused) {
    throw DTypeError(op_prefix(op) + "cannot write " + std::string(name(src)) +
                     " data into a buffer of " + std::string(name(dst)) + " (" + refused +
                     "); convert it first, e.g. data.astype(numpy." + std::string(name(dst)) + ")");
  }
  if ((sk == 'i' || sk == 'u') && (dk == 'i' || dk == 'u')) {
    check_int_range(a, src, dst, op);
    return numpy().attr("ascontiguousarray")(a, to_numpy_dtype(dst));
  }
  if (dk == 'f' || dk == 'c') return convert_checking_overflow(a, src, dst, op);
  return numpy().attr("ascontiguousarray")(a, to_numpy_dtype(dst));  // bool → integer
}

std::vector<int64_t> shape_of(const py::array& a) {
  return std::vector<int64_t>(a.shape(), a.shape() + a.ndim());
}

}  // namespace

DType to_dtype(py::handle dtype_like, std::string_view op) {
  py::object dt;
  try {
    dt = numpy().attr("dtype")(dtype_like);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_ValueError)) throw;
    throw DTypeError(op_prefix(op) + "dtype " + std::string(py::repr(dtype_like)) +
                     " is not understood; supported: " + supported_list());
  }
  return from_numpy(dt.cast<py::dtype>(), op, "dtype");
}

py::dtype to_numpy_dtype(DType t) {
  // Leaked on purpose: these live until the process ends, past the interpreter's finalization,
  // when a static py::object's destructor could no longer touch Python.
  static std::array<py::dtype*, kNumDTypes> cache{};
  py::dtype*& slot = cache[static_cast<size_t>(t)];
  if (!slot) slot = new py::dtype(std::string(name(t)));
  return *slot;
}

std::vector<int64_t> to_shape(py::handle shape, std::string_view op) {
  std::vector<int64_t> dims;
  if (py::isinstance<py::sequence>(shape) && !py::isinstance<py::str>(shape)) {
    py::tuple whole = py::tuple(py::reinterpret_borrow<py::object>(shape));
    for (py::handle d : whole) dims.push_back(to_dimension(d, whole, op));
  } else if (is_integer_like(shape) || is_bool_like(shape) || py::isinstance<py::float_>(shape)) {
    dims.push_back(to_dimension(shape, py::make_tuple(shape), op));
  } else {
    throw ShapeError(op_prefix(op) + "shape must be an int or a tuple of ints, got " +
                     std::string(py::repr(shape)));
  }
  return dims;
}

py::tuple to_tuple(const std::vector<int64_t>& shape) {
  py::tuple t(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) t[i] = py::int_(shape[i]);
  return t;
}

std::optional<int> to_replica_index(py::handle index, std::string_view op, const char* what) {
  if (index.is_none()) return std::nullopt;
  if (!is_integer_like(index)) {
    throw DTypeError(op_prefix(op) + what + " must be an int or None, got " +
                     std::string(py::repr(index)));
  }
  py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(index.ptr()));
  if (!v) throw py::error_already_set();
  int overflow = 0;
  const long long i = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow != 0 || i < 0 || i > std::numeric_limits<int>::max()) {
    throw IndexError(
        op_prefix(op) + what + " " + std::string(py::repr(index)) + " is out of range" +
        (overflow < 0 || (overflow == 0 && i < 0) ? " (negative indices are not accepted)" : ""));
  }
  return static_cast<int>(i);
}

py::array as_supported_array(py::handle data, std::string_view op, DType* dtype) {
  py::array a;
  try {
    a = numpy().attr("asarray")(data);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ValueError)) throw;
    throw ShapeError(op_prefix(op) + "data is not a rectangular array: " + e.what());
  }
  if (py::str(a.dtype().attr("byteorder")).cast<std::string>() == ">") {
    // Byte order is layout, not value: swapping it changes nothing the user can see.
    a = a.attr("astype")(a.dtype().attr("newbyteorder")("<"));
  }
  *dtype = from_numpy(a.dtype(), op, "data of dtype");
  return a;
}

HostData host_data_for_write(py::handle data, const std::vector<int64_t>& shape, DType dtype,
                             std::string_view op) {
  HostData out;
  if (py::isinstance<py::bytes>(data) || py::isinstance<py::bytearray>(data) ||
      py::isinstance<py::memoryview>(data)) {
    py::memoryview view = py::reinterpret_borrow<py::object>(data);
    if (!view.attr("c_contiguous").cast<bool>()) {
      view = py::memoryview(view.attr("tobytes")());
    }
    // The memoryview holds its own export of the bytes, so `ptr` stays valid (and a bytearray
    // cannot be resized) for as long as `owner` lives.
    out.ptr = py::buffer(view).request().ptr;
    out.nbytes = view.attr("nbytes").cast<uint64_t>();
    out.owner = std::move(view);
    return out;
  }
  DType src;
  py::array a = as_supported_array(data, op, &src);
  const std::vector<int64_t> have = shape_of(a);
  int64_t size = 1;
  for (int64_t d : shape) size *= d;
  if (have != shape && !(have.size() == 1 && have[0] == size)) {
    throw ShapeError(op_prefix(op) + "data of shape " + shape_to_string(have) + " (" +
                     std::to_string(a.size()) + " elements) does not match buffer shape " +
                     shape_to_string(shape) + " (" + std::to_string(size) +
                     " elements); pass an array of shape " + shape_to_string(shape) +
                     " or a 1-d array of " + std::to_string(size) + " elements");
  }
  py::array c = convert_lossless(a, src, dtype, op);
  out.ptr = c.data();
  out.nbytes = static_cast<uint64_t>(c.nbytes());
  out.owner = std::move(c);
  return out;
}

}  // namespace vka
