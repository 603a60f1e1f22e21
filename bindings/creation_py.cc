// Array creation from Python: asarray/array (uploads) and the constants numpy makes from
// shapes and ranges (zeros, full, arange, linspace, eye, ...), generated on the device.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>

#include "array/array.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"
#include "ir/promotion.h"
#include "runtime/device_support.h"
#include "runtime/realize.h"

namespace vka {
namespace {

using Ctx = std::shared_ptr<Context>;

py::module_ numpy() { return py::module_::import("numpy"); }

std::optional<DType> optional_dtype(py::handle dtype, std::string_view op) {
  if (dtype.is_none()) return std::nullopt;
  return to_dtype(dtype, op);
}

// Moves an ndarray to another context through the host (an explicit transfer).
Array to_context(const Array& a, const Ctx& ctx) {
  py::array host(to_numpy_dtype(a.dtype()),
                 std::vector<py::ssize_t>(a.shape().begin(), a.shape().end()));
  a.read(host.mutable_data(), a.nbytes(), 0);
  return Array::from_host(host.data(), a.shape(), a.dtype(), ctx);
}

py::object asarray(py::object obj, py::handle dtype, Ctx context, bool copy) {
  std::optional<DType> t = optional_dtype(dtype, copy ? "array" : "asarray");
  // A host view of device memory (vkarray.mapped_empty) stands for its device array.
  if (!py::isinstance<Array>(obj) && py::hasattr(obj, "__vkarray_device_array__")) {
    py::object device = obj.attr("__vkarray_device_array__")();
    if (!device.is_none()) obj = device;
  }
  if (py::isinstance<Array>(obj)) {
    const Array& a = obj.cast<const Array&>();
    Array r = (context && context != a.context()) ? to_context(a, context) : a;
    const bool same = !t || *t == r.dtype();
    if (same && !copy && r.context() == a.context()) return obj;  // numpy: the same object
    return py::cast(Array(same ? r.node() : r.astype(*t).node(), r.context()));
  }
  return py::cast(upload(obj, t, context_or_default(std::move(context)), "asarray"));
}

Array empty(py::handle shape, py::handle dtype, Ctx context) {
  Shape s = to_shape(shape, "empty");
  DType t = optional_dtype(dtype, "empty").value_or(DType::kFloat64);
  Ctx ctx = context_or_default(std::move(context));
  require_dtype(*ctx, t, "empty");
  // No kernel and no transfer: a fresh buffer, contents undefined as numpy's.
  return Array(default_graph().buffer(allocate_for(ctx, t, s, "empty"), t, View::contiguous(s)),
               ctx);
}

Array full_of(py::handle shape, py::handle fill, py::handle dtype, Ctx context) {
  Shape s = to_shape(shape, "full");
  Scalar v = to_scalar(fill, optional_dtype(dtype, "full"), "full");
  return full(s, v, context_or_default(std::move(context)));
}

// shape, dtype and context of a `*_like` prototype (an ndarray, or any array-like).
struct Like {
  Shape shape;
  DType dtype;
  Ctx context;
};

Like like(py::handle proto, py::handle dtype, py::handle shape, Ctx context, const char* op) {
  Like l;
  if (py::isinstance<Array>(proto)) {
    const Array& a = proto.cast<const Array&>();
    l = {a.shape(), a.dtype(), a.context()};
  } else {
    py::array a = numpy().attr("asarray")(proto);
    l = {Shape(a.shape(), a.shape() + a.ndim()), to_dtype(a.dtype(), op), nullptr};
  }
  if (!dtype.is_none()) l.dtype = to_dtype(dtype, op);
  if (!shape.is_none()) l.shape = to_shape(shape, op);
  if (context) l.context = context;
  l.context = context_or_default(l.context);
  return l;
}

// numpy 2's dtype for arange/linspace arguments: numpy scalars are strong, Python scalars
// weak (ints alone give int64); `floating` adds a weak float, as linspace's float(num) does.
DType infer_range_dtype(const std::vector<py::handle>& values, bool floating, const char* op) {
  std::optional<DType> strong;
  std::vector<WeakKind> weak;
  if (floating) weak.push_back(WeakKind::kFloat);
  for (py::handle v : values) {
    if (v.is_none()) continue;
    if (std::optional<WeakScalar> w = to_weak(v, op)) {
      weak.push_back(w->kind == WeakKind::kBool ? WeakKind::kInt : w->kind);
    } else {
      DType t = to_dtype(v.attr("dtype"), op);
      strong = strong ? result_type(*strong, t) : t;
    }
  }
  DType t = strong.value_or(DType::kBool);
  for (WeakKind k : weak) {
    t = strong ? result_type(t, k) : result_type(t, result_type(DType::kBool, k));
  }
  return t;
}

double to_double(py::handle v, const char* op) {
  try {
    return py::float_(py::reinterpret_borrow<py::object>(v)).cast<double>();
  } catch (py::error_already_set&) {
    throw DTypeError("[" + std::string(op) + "] expected a real number, got " +
                     std::string(py::repr(v)));
  }
}

Array arange_of(py::handle start, py::handle stop, py::handle step, py::handle dtype, Ctx context) {
  DType t = dtype.is_none() ? infer_range_dtype({start, stop, step}, false, "arange")
                            : to_dtype(dtype, "arange");
  double lo = 0, hi = to_double(start, "arange");
  if (!stop.is_none()) {
    lo = hi;
    hi = to_double(stop, "arange");
  }
  return arange(lo, hi, to_double(step, "arange"), t, context_or_default(std::move(context)));
}

Array linspace_of(py::handle start, py::handle stop, int64_t num, bool endpoint, py::handle dtype,
                  Ctx context) {
  DType t = dtype.is_none() ? infer_range_dtype({start, stop}, true, "linspace")
                            : to_dtype(dtype, "linspace");
  return linspace(to_double(start, "linspace"), to_double(stop, "linspace"), num, endpoint, t,
                  context_or_default(std::move(context)));
}

}  // namespace

void register_creation(py::module_& m) {
  const auto ctx_arg = py::arg("context") = nullptr;
  m.def(
      "_asarray",
      [](py::object obj, py::handle dtype, Ctx context) {
        return asarray(obj, dtype, std::move(context), false);
      },
      py::arg("obj"), py::arg("dtype") = py::none(), py::kw_only(), ctx_arg, R"doc(
An ndarray holding obj: obj itself when it is an ndarray of this dtype and context; otherwise
numpy.asarray(obj, dtype) uploaded to every replica of `context` (default vkarray.context()).
Lists infer their dtype as numpy does (ints → int64, floats → float64). 0-d data becomes a
device constant with no transfer.
)doc");
  m.def(
      "_array",
      [](py::object obj, py::handle dtype, Ctx context) {
        return asarray(obj, dtype, std::move(context), true);
      },
      py::arg("obj"), py::arg("dtype") = py::none(), py::kw_only(), ctx_arg,
      "Like asarray, but always a new ndarray (copying an ndarray is free: values are "
      "immutable until rebound).");
  m.def("_empty", &empty, py::arg("shape"), py::arg("dtype") = py::none(), py::kw_only(), ctx_arg,
        "A new array of shape and dtype (default float64), contents undefined.");
  m.def(
      "_zeros",
      [](py::handle shape, py::handle dtype, Ctx context) {
        return zeros(to_shape(shape, "zeros"),
                     optional_dtype(dtype, "zeros").value_or(DType::kFloat64),
                     context_or_default(std::move(context)));
      },
      py::arg("shape"), py::arg("dtype") = py::none(), py::kw_only(), ctx_arg,
      "An array of zeros (dtype default float64), generated on the device.");
  m.def(
      "_ones",
      [](py::handle shape, py::handle dtype, Ctx context) {
        return ones(to_shape(shape, "ones"),
                    optional_dtype(dtype, "ones").value_or(DType::kFloat64),
                    context_or_default(std::move(context)));
      },
      py::arg("shape"), py::arg("dtype") = py::none(), py::kw_only(), ctx_arg,
      "An array of ones (dtype default float64), generated on the device.");
  m.def("_full", &full_of, py::arg("shape"), py::arg("fill_value"), py::arg("dtype") = py::none(),
        py::kw_only(), ctx_arg,
        "An array filled with fill_value (a scalar); dtype defaults to the value's numpy "
        "dtype (int → int64, float → float64). Generated on the device.");
  m.def(
      "_empty_like",
      [](py::handle a, py::handle dtype, py::handle shape, Ctx context) {
        Like l = like(a, dtype, shape, std::move(context), "empty_like");
        return empty(to_tuple(l.shape), to_numpy_dtype(l.dtype), l.context);
      },
      py::arg("prototype"), py::arg("dtype") = py::none(), py::kw_only(),
      py::arg("shape") = py::none(), ctx_arg, "empty() with the shape and dtype of prototype.");
  m.def(
      "_zeros_like",
      [](py::handle a, py::handle dtype, py::handle shape, Ctx context) {
        Like l = like(a, dtype, shape, std::move(context), "zeros_like");
        return zeros(l.shape, l.dtype, l.context);
      },
      py::arg("a"), py::arg("dtype") = py::none(), py::kw_only(), py::arg("shape") = py::none(),
      ctx_arg, "zeros() with the shape, dtype and context of a.");
  m.def(
      "_ones_like",
      [](py::handle a, py::handle dtype, py::handle shape, Ctx context) {
        Like l = like(a, dtype, shape, std::move(context), "ones_like");
        return ones(l.shape, l.dtype, l.context);
      },
      py::arg("a"), py::arg("dtype") = py::none(), py::kw_only(), py::arg("shape") = py::none(),
      ctx_arg, "ones() with the shape, dtype and context of a.");
  m.def(
      "_full_like",
      [](py::handle a, py::handle fill, py::handle dtype, py::handle shape, Ctx context) {
        Like l = like(a, dtype, shape, std::move(context), "full_like");
        return full(l.shape, to_scalar(fill, l.dtype, "full_like"), l.context);
      },
      py::arg("a"), py::arg("fill_value"), py::arg("dtype") = py::none(), py::kw_only(),
      py::arg("shape") = py::none(), ctx_arg, "full() with the shape, dtype and context of a.");
  m.def("_arange", &arange_of, py::arg("start"), py::arg("stop") = py::none(), py::arg("step") = 1,
        py::arg("dtype") = py::none(), py::kw_only(), ctx_arg, R"doc(
numpy.arange: values start, start+step, ... below stop (arange(n) is 0..n-1), generated on
the device; ceil((stop - start) / step) elements. dtype as numpy infers it: int64 for ints,
float64 once a float is involved. Bounds travel as float64 (exact up to 2^53).
)doc");
  m.def("_linspace", &linspace_of, py::arg("start"), py::arg("stop"), py::arg("num") = 50,
        py::arg("endpoint") = true, py::arg("dtype") = py::none(), py::kw_only(), ctx_arg,
        "numpy.linspace: num evenly spaced values from start to stop (included when "
        "endpoint), generated on the device; dtype float64 unless given.");
  m.def(
      "_eye",
      [](int64_t n, std::optional<int64_t> cols, int64_t k, py::handle dtype, Ctx context) {
        return eye(n, cols, k, optional_dtype(dtype, "eye").value_or(DType::kFloat64),
                   context_or_default(std::move(context)));
      },
      py::arg("N"), py::arg("M") = py::none(), py::arg("k") = 0, py::arg("dtype") = py::none(),
      py::kw_only(), ctx_arg,
      "numpy.eye: ones on diagonal k of an N x M array (M defaults to N), zeros elsewhere.");
  m.def(
      "identity",
      [](int64_t n, py::handle dtype, Ctx context) {
        return eye(n, std::nullopt, 0, optional_dtype(dtype, "identity").value_or(DType::kFloat64),
                   context_or_default(std::move(context)));
      },
      py::arg("n"), py::arg("dtype") = py::none(), py::kw_only(), ctx_arg,
      "numpy.identity: the n x n identity matrix.");
}

}  // namespace vka
