// Python operands → vka::Arg, numpy's casting rules, and the out=/dtype= finisher and in-place
// store around apply().
#include "bindings/operands_py.h"

#include <pybind11/complex.h>
#include <pybind11/numpy.h>

#include <complex>
#include <limits>
#include <string>
#include <utility>

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

// numpy's cast error text after vkarray's "[op]" prefix: a ufunc's UFuncTypeError, or for
// other functions the array-cast wording.
std::string cast_message(const Finish& f, const std::string& what, DType from, DType to) {
  if (f.ufunc.empty()) {
    return prefix(f.op) + "Cannot cast array data from " + numpy_dtype_text(from) + " to " +
           numpy_dtype_text(to) + " according to the rule '" + std::string(name(f.casting)) + "'";
  }
  return prefix(f.op) + "Cannot cast ufunc '" + f.ufunc + "' " + what + " from " +
         numpy_dtype_text(from) + " to " + numpy_dtype_text(to) + " with casting rule '" +
         std::string(name(f.casting)) + "'";
}

Finish op_finish(Op op) {
  Finish f;
  f.op = std::string(name(op));
  f.ufunc = ufunc_name(op);
  return f;
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

const Array& array_in(py::handle h) {
  auto* inst = reinterpret_cast<py::detail::instance*>(h.ptr());
  return *static_cast<const Array*>(inst->get_value_and_holder().value_ptr());
}

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
      if (is_array(v) ||
          (!is_plain_python_scalar(v) && (is_numpy_scalar(v) || py::isinstance<py::array>(v)))) {
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

Array call_op(Op op, const std::vector<PyOperand>& operands) {
  std::vector<Array> arrays;
  arrays.reserve(operands.size());  // Args point into it
  std::vector<Arg> args;
  for (const PyOperand& o : operands) {
    if (!o.array) {
      args.push_back(arg_of(o.weak));
      continue;
    }
    arrays.push_back(*o.array);
    args.emplace_back(arrays.back());
  }
  return vka::apply(op, args);
}

namespace {

// numpy's casting= names, in numpy's order (least to most permissive).
constexpr std::pair<CastRule, std::string_view> kCastRules[] = {{CastRule::kNo, "no"},
                                                                {CastRule::kEquiv, "equiv"},
                                                                {CastRule::kSafe, "safe"},
                                                                {CastRule::kSameKind, "same_kind"},
                                                                {CastRule::kUnsafe, "unsafe"}};

}  // namespace

CastRule to_cast_rule(std::string_view text, std::string_view op) {
  for (auto [rule, rule_name] : kCastRules) {
    if (rule_name == text) return rule;
  }
  throw ShapeError(prefix(op) +
                   "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe', "
                   "got '" +
                   std::string(text) + "'");
}

std::string_view name(CastRule rule) {
  for (auto [r, rule_name] : kCastRules) {
    if (r == rule) return rule_name;
  }
  throw InternalError("[casting] unknown rule");
}

bool allows(CastRule rule, DType from, DType to) {
  switch (rule) {
    case CastRule::kNo:
    case CastRule::kEquiv:  // vkarray's dtypes have one byte order: equiv is no
      return from == to;
    case CastRule::kSafe:
      return can_cast(from, to, Casting::kSafe);
    case CastRule::kSameKind:
      return can_cast(from, to, Casting::kSameKind);
    case CastRule::kUnsafe:
      return true;
  }
  throw InternalError("[casting] unknown rule");
}

namespace {

bool everywhere(py::handle where) {
  return !where || where.is_none() || (PyBool_Check(where.ptr()) && where.ptr() == Py_True);
}

// out= as the ndarray it names: an ndarray, or numpy's 1-tuple form.
Array& out_array(py::handle out, const Finish& f) {
  py::handle target = out;
  if (py::isinstance<py::tuple>(out)) {
    py::tuple t = py::reinterpret_borrow<py::tuple>(out);
    if (t.size() != 1) {
      throw ShapeError(prefix(f.op) + "out= tuple must have 1 element, got " +
                       std::to_string(t.size()));
    }
    target = t[0];
  }
  if (!is_array(target)) {
    throw DTypeError(prefix(f.op) + "out= must be a vkarray.ndarray, got " +
                     std::string(py::str(py::type::of(target))));
  }
  return target.cast<Array&>();
}

// `result` into `out` under `f`'s rules; out is unchanged when a check fails.
void store(Array& out, Array result, const Finish& f) {
  if (out.context() != result.context()) {
    throw ShapeError(prefix(f.op) + "out= array lives on a different context than the operands");
  }
  if (result.shape() != out.shape() && !f.exact_shape &&
      can_broadcast_to(result.shape(), out.shape())) {
    // numpy broadcasts the result of a ufunc to out's shape (out=zeros((6, 4)) for shape (4,)).
    NodePtr value = default_graph().convert(result.release(), result.dtype(), out.shape());
    result = Array(std::move(value), out.context());
  }
  if (result.shape() != out.shape()) {
    if (f.exact_shape) {
      throw ShapeError(prefix(f.op) + "out has shape " + to_string(out.shape()) +
                       ", but the result has shape " + to_string(result.shape()));
    }
    throw ShapeError(prefix(f.op) + "non-broadcastable output operand with shape " +
                     to_string(out.shape()) + " doesn't match the broadcast shape " +
                     to_string(result.shape()));
  }
  if (!allows(f.casting, result.dtype(), out.dtype())) {
    throw DTypeError(cast_message(f, "output", result.dtype(), out.dtype()));
  }
  if (!everywhere(f.where)) {
    // numpy's where= leaves out's other elements as they were.
    Array mask = is_array(f.where) ? f.where.cast<Array>()
                                   : upload(f.where, std::nullopt, out.context(), f.op);
    if (mask.dtype() != DType::kBool) {
      throw DTypeError(prefix(f.op) + "where= must be a boolean array, got " +
                       std::string(name(mask.dtype())));
    }
    if (!can_broadcast_to(mask.shape(), out.shape())) {
      throw ShapeError(prefix(f.op) + "where= of shape " + to_string(mask.shape()) +
                       " does not broadcast to the output's shape " + to_string(out.shape()));
    }
    result = where(mask, result.dtype() == out.dtype() ? result : result.astype(out.dtype()), out);
  }
  NodePtr value = result.release();  // the only reference: a write may then fuse it
  out.assign(std::move(value));
}

}  // namespace

py::object finish(Array result, py::handle out, const Finish& f) {
  if (f.dtype && result.dtype() != *f.dtype) {
    if (!allows(f.casting, result.dtype(), *f.dtype)) {
      throw DTypeError(cast_message(f, "output", result.dtype(), *f.dtype));
    }
    result = result.astype(*f.dtype);
  }
  if (!out || out.is_none()) return py::cast(std::move(result));
  store(out_array(out, f), std::move(result), f);
  return py::reinterpret_borrow<py::object>(
      py::isinstance<py::tuple>(out) ? py::handle(py::reinterpret_borrow<py::tuple>(out)[0]) : out);
}

py::object result_or_out(Array result, py::handle out, Op op) {
  return finish(std::move(result), out, op_finish(op));
}

void store_into(Array& out, Array result, Op op) { store(out, std::move(result), op_finish(op)); }

}  // namespace vka
