// Python operands → vka::Arg, and numpy's dtype=/out=/in-place rules around apply().
#include "bindings/operands_py.h"

#include <pybind11/complex.h>
#include <pybind11/numpy.h>

#include <complex>
#include <limits>
#include <string>

#include "base/errors.h"
#include "ir/promotion.h"

namespace vka {
namespace {

py::module_ numpy() { return py::module_::import("numpy"); }

std::string prefix(std::string_view op) { return "[" + std::string(op) + "] "; }

std::string ufunc_name(Op op) {
  std::string_view n = info(op).numpy;
  return std::string(n.empty() ? name(op) : n);
}

std::string numpy_dtype_text(DType t) { return "dtype('" + std::string(name(t)) + "')"; }

// numpy's UFuncTypeError text, after vkarray's "[op]" prefix.
std::string cast_message(Op op, const std::string& what, DType from, DType to) {
  return prefix(name(op)) + "Cannot cast ufunc '" + ufunc_name(op) + "' " + what + " from " +
         numpy_dtype_text(from) + " to " + numpy_dtype_text(to) + " with casting rule 'same_kind'";
}

// Exactly a Python bool, int, float or complex (not a subclass such as numpy's float64): the
// operators' common case, decided without asking numpy.
bool is_plain_python_scalar(py::handle v) {
  PyObject* p = v.ptr();
  return PyFloat_CheckExact(p) || PyLong_CheckExact(p) || PyBool_Check(p) ||
         PyComplex_CheckExact(p);
}

bool is_numpy_scalar(py::handle v) {
  if (is_plain_python_scalar(v)) return false;
  // Looked up once and kept past interpreter shutdown: this runs on every operator call.
  static py::object* generic = new py::object(numpy().attr("generic"));
  return py::isinstance(v, *generic);
}

// The Arg a WeakScalar came from (Arg has no WeakScalar constructor; its scalar constructors
// rebuild the same WeakScalar).
Arg arg_of(const WeakScalar& w) {
  switch (w.kind) {
    case WeakKind::kBool:
      return Arg(w.i.magnitude != 0);
    case WeakKind::kInt:
      if (w.i.negative) return Arg(static_cast<int64_t>(~w.i.magnitude + 1));
      return Arg(w.i.magnitude);
    case WeakKind::kFloat:
      return Arg(w.c.real());
    case WeakKind::kComplex:
      return Arg(w.c);
  }
  throw InternalError("[operand] unknown weak scalar kind");
}

// A numpy scalar or 0-d array of dtype `t` as a Scalar of `t`.
Scalar numpy_scalar(py::handle v, DType t) {
  py::object item = v.attr("item")();
  switch (info(t).kind) {
    case 'b':
      return Scalar::of_bool(item.cast<bool>(), t);
    case 'i':
      return Scalar::of_int(item.cast<int64_t>(), t);
    case 'u':
      return Scalar::of_uint(item.cast<uint64_t>(), t);
    case 'f':
      return Scalar::of_double(item.cast<double>(), t);
    default:
      return Scalar::of_complex(item.cast<std::complex<double>>(), t);
  }
}

// Strong operand from numpy data (scalar, array, or under kFunction any array-like).
Array strong_operand(py::handle v, const std::shared_ptr<Context>& ctx, std::string_view op) {
  if (is_numpy_scalar(v)) {
    DType t = to_dtype(v.attr("dtype"), op);
    return full({}, numpy_scalar(v, t), ctx);
  }
  return upload(v, std::nullopt, ctx, op);
}

}  // namespace

[[noreturn]] void throw_overflow(const std::string& message) {
  PyErr_SetString(PyExc_OverflowError, message.c_str());
  throw py::error_already_set();
}

std::shared_ptr<Context> context_or_default(std::shared_ptr<Context> context) {
  return context ? std::move(context) : Context::default_context();
}

std::optional<WeakScalar> to_weak(py::handle v, std::string_view op) {
  if (PyBool_Check(v.ptr())) return WeakScalar::of_bool(v.ptr() == Py_True);
  if (PyLong_Check(v.ptr())) {
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (overflow == 0) return WeakScalar::of_int(x);
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
      if (!PyErr_Occurred()) return WeakScalar::of_uint(u);
      PyErr_Clear();
    }
    throw_overflow(prefix(op) + "Python integer " + std::string(py::repr(v)) +
                   " is out of bounds for int64 and uint64");
  }
  if (!PyFloat_CheckExact(v.ptr()) && is_numpy_scalar(v)) {
    return std::nullopt;  // np.float64 subclasses float, but is strong
  }
  if (PyFloat_Check(v.ptr())) return WeakScalar::of_float(PyFloat_AsDouble(v.ptr()));
  if (PyComplex_Check(v.ptr())) {
    return WeakScalar::of_complex(
        {PyComplex_RealAsDouble(v.ptr()), PyComplex_ImagAsDouble(v.ptr())});
  }
  return std::nullopt;
}

Scalar to_scalar(py::handle v, std::optional<DType> dtype, std::string_view op) {
  if (std::optional<WeakScalar> w = to_weak(v, op)) {
    // numpy's default dtype for a lone Python scalar: bool, int64 (uint64 above its range),
    // float64, complex128.
    DType t = dtype.value_or(w->kind == WeakKind::kInt && !weak_int_fits(w->i, DType::kInt64)
                                 ? DType::kUInt64
                                 : result_type(DType::kBool, w->kind));
    if (w->kind == WeakKind::kInt && !weak_int_fits(w->i, t)) {
      throw_overflow(prefix(op) + "Python integer " + std::string(py::repr(v)) +
                     " out of bounds for " + std::string(name(t)));
    }
    return w->to(t);
  }
  const bool zero_d_array =
      py::isinstance<py::array>(v) && py::reinterpret_borrow<py::array>(v).ndim() == 0;
  if (!is_numpy_scalar(v) && !zero_d_array) {
    throw DTypeError(prefix(op) +
                     "expected a scalar (bool, int, float, complex or a numpy "
                     "scalar), got " +
                     std::string(py::repr(v)));
  }
  DType own = to_dtype(v.attr("dtype"), op);
  Scalar s = numpy_scalar(v, own);
  return dtype ? s.astype(*dtype) : s;
}

Array upload(py::handle data, std::optional<DType> dtype, const std::shared_ptr<Context>& context,
             std::string_view op) {
  py::object src = py::reinterpret_borrow<py::object>(data);
  if (dtype) src = numpy().attr("asarray")(src, to_numpy_dtype(*dtype));
  DType t;
  py::array a = as_supported_array(src, op, &t);
  if (a.ndim() == 0) return full({}, numpy_scalar(a, t), context);
  a = numpy().attr("ascontiguousarray")(a);
  Shape shape(a.shape(), a.shape() + a.ndim());
  return Array::from_host(a.data(), shape, t, context);
}

bool is_array(py::handle h) {
  // The type is looked up once: this runs on every operator call.
  static PyTypeObject* const type = reinterpret_cast<PyTypeObject*>(py::type::of<Array>().ptr());
  return h && PyObject_TypeCheck(h.ptr(), type);
}

namespace {

// The Array inside an ndarray `h` (is_array(h)): its one value slot, without a type lookup.
const Array& array_in(py::handle h) {
  auto* inst = reinterpret_cast<py::detail::instance*>(h.ptr());
  return *static_cast<const Array*>(inst->get_value_and_holder().value_ptr());
}

}  // namespace

std::optional<std::vector<PyOperand>> to_operands(const std::vector<py::handle>& values,
                                                  Accept accept, std::string_view op) {
  std::shared_ptr<Context> ctx;
  for (py::handle v : values) {
    if (is_array(v)) {
      ctx = array_in(v).context();
      break;
    }
  }
  const bool have_array_like = [&] {
    for (py::handle v : values) {
      if (is_array(v) || (!is_plain_python_scalar(v) &&
                           (is_numpy_scalar(v) || py::isinstance<py::array>(v)))) {
        return true;
      }
      if (accept == Accept::kFunction && !to_weak(v, op)) return true;  // a list, say
    }
    return false;
  }();
  if (!ctx) ctx = Context::default_context();
  std::vector<PyOperand> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    py::handle v = values[i];
    if (is_array(v)) {
      out[i].array = array_in(v);
    } else if (std::optional<WeakScalar> w = to_weak(v, op)) {
      if (have_array_like || accept == Accept::kOperator) {
        out[i].weak = *w;
      } else {
        out[i].array = full({}, to_scalar(v, std::nullopt, op), ctx);
      }
    } else if (accept == Accept::kFunction || is_numpy_scalar(v) || py::isinstance<py::array>(v)) {
      out[i].array = strong_operand(v, ctx, op);
    } else {
      return std::nullopt;
    }
  }
  return out;
}

Array call_op(Op op, const std::vector<PyOperand>& operands, std::optional<DType> dtype) {
  std::vector<Array> arrays;
  arrays.reserve(operands.size());  // Args point into it
  std::vector<Arg> args;
  for (size_t i = 0; i < operands.size(); ++i) {
    const PyOperand& o = operands[i];
    if (!o.array) {
      args.push_back(arg_of(o.weak));
      continue;
    }
    Array a = *o.array;
    const bool is_condition = info(op).rule == ResultRule::kWhere && i == 0;
    if (dtype && !is_condition && a.dtype() != *dtype) {
      if (!can_cast(a.dtype(), *dtype, Casting::kSameKind)) {
        throw DTypeError(cast_message(op, "input " + std::to_string(i), a.dtype(), *dtype));
      }
      a = a.astype(*dtype);
    }
    arrays.push_back(a);
    args.emplace_back(arrays.back());
  }
  Array result = vka::apply(op, args);
  if (!dtype || result.dtype() == *dtype || info(op).rule == ResultRule::kBool) return result;
  if (!can_cast(result.dtype(), *dtype, Casting::kSameKind)) {
    throw DTypeError(cast_message(op, "output", result.dtype(), *dtype));
  }
  return result.astype(*dtype);
}

void store_into(Array& out, Array result, Op op) {
  if (out.context() != result.context()) {
    throw ShapeError(prefix(name(op)) +
                     "out= array lives on a different context than the "
                     "operands");
  }
  if (result.shape() != out.shape() && can_broadcast_to(result.shape(), out.shape())) {
    // numpy broadcasts the result of a ufunc to out's shape (out=zeros((6, 4)) for shape (4,)).
    NodePtr value = default_graph().convert(result.release(), result.dtype(), out.shape());
    result = Array(std::move(value), out.context());
  }
  if (result.shape() != out.shape()) {
    throw ShapeError(prefix(name(op)) + "non-broadcastable output operand with shape " +
                     to_string(out.shape()) + " doesn't match the broadcast shape " +
                     to_string(result.shape()));
  }
  if (result.dtype() != out.dtype() && !can_cast(result.dtype(), out.dtype(), Casting::kSameKind)) {
    throw DTypeError(cast_message(op, "output", result.dtype(), out.dtype()));
  }
  NodePtr value = result.release();  // the only reference: a write may then fuse it
  out.assign(std::move(value));
}

py::object result_or_out(Array result, py::handle out, Op op) {
  if (out.is_none()) return py::cast(std::move(result));
  py::handle target = out;
  if (py::isinstance<py::tuple>(out)) {  // numpy also takes out=(array,)
    py::tuple t = py::reinterpret_borrow<py::tuple>(out);
    if (t.size() != 1) {
      throw ShapeError(prefix(name(op)) + "out= tuple must have 1 element, got " +
                       std::to_string(t.size()));
    }
    target = t[0];
  }
  if (!py::isinstance<Array>(target)) {
    throw DTypeError(prefix(name(op)) + "out= must be a vkarray.ndarray, got " +
                     std::string(py::str(py::type::of(target))));
  }
  store_into(target.cast<Array&>(), std::move(result), op);
  return py::reinterpret_borrow<py::object>(target);
}

}  // namespace vka
