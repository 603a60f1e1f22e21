// The ufunc-style module functions, one per elementwise row of ops.def (numpy's names and
// signatures), plus the composites numpy has beside them: round, clip, astype, and the dtype
// queries result_type and can_cast.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"
#include "ir/promotion.h"
#include "runtime/realize.h"

namespace vka {
namespace {

std::string prefix(std::string_view op) { return "[" + std::string(op) + "] "; }

std::optional<DType> optional_dtype(py::handle dtype, std::string_view op) {
  if (dtype.is_none()) return std::nullopt;
  return to_dtype(dtype, op);
}

py::object call(Op op, const std::vector<py::handle>& xs, py::handle out, py::handle dtype) {
  std::optional<DType> t = optional_dtype(dtype, name(op));
  std::vector<PyOperand> operands = *to_operands(xs, Accept::kFunction, name(op));
  return result_or_out(call_op(op, operands, t), out, op);
}

std::string kinds_text(std::string_view kinds) {
  static const std::pair<char, const char*> kNames[] = {{'b', "bool"},
                                                        {'i', "signed integer"},
                                                        {'u', "unsigned integer"},
                                                        {'f', "float"},
                                                        {'c', "complex"}};
  std::string s;
  for (auto [k, text] : kNames) {
    if (kinds.find(k) != std::string_view::npos) s += (s.empty() ? "" : ", ") + std::string(text);
  }
  return s;
}

std::string doc_of(const OpInfo& o) {
  std::string args = o.arity == 1 ? "x" : o.arity == 2 ? "x1, x2" : "x1, x2, x3";
  return std::string(o.name) + "(" + args + ", /, out=None, *, dtype=None)\n\n" + "numpy." +
         std::string(o.numpy) +
         " on vkarray arrays, elementwise and lazy (fused with its neighbours when evaluated).\n"
         "Operands: ndarrays, numpy arrays and scalars (strong), array-likes, Python scalars "
         "(weak, NEP 50).\nAccepted dtypes: " +
         kinds_text(o.kinds) +
         ".\ndtype= casts the array inputs (same_kind) and the result to that dtype; out= "
         "takes an ndarray of the result's shape whose dtype accepts the result under "
         "same_kind, stores the result in it and returns it.";
}

// Registers f under `fname` with numpy's positional-only signature for `op`'s arity.
py::object define_ufunc(py::module_& m, const std::string& fname, Op op) {
  const std::string doc = doc_of(info(op));
  switch (arity(op)) {
    case 1:
      m.def(
          fname.c_str(),
          [op](py::object x, py::object out, py::object dtype) {
            return call(op, {x}, out, dtype);
          },
          py::arg("x"), py::pos_only(), py::arg("out") = py::none(), py::kw_only(),
          py::arg("dtype") = py::none(), doc.c_str());
      break;
    case 2:
      m.def(
          fname.c_str(),
          [op](py::object x1, py::object x2, py::object out, py::object dtype) {
            return call(op, {x1, x2}, out, dtype);
          },
          py::arg("x1"), py::arg("x2"), py::pos_only(), py::arg("out") = py::none(), py::kw_only(),
          py::arg("dtype") = py::none(), doc.c_str());
      break;
    case 3:
      m.def(
          fname.c_str(),
          [op](py::object x1, py::object x2, py::object x3, py::object out, py::object dtype) {
            return call(op, {x1, x2, x3}, out, dtype);
          },
          py::arg("x1"), py::arg("x2"), py::arg("x3"), py::pos_only(), py::arg("out") = py::none(),
          py::kw_only(), py::arg("dtype") = py::none(), doc.c_str());
      break;
    default:
      throw InternalError("[ops_py] elementwise op " + std::string(name(op)) + " has arity " +
                          std::to_string(arity(op)));
  }
  return m.attr(fname.c_str());
}

// numpy.round: half to even at `decimals` decimal places, as numpy computes it (scale, round,
// unscale), so results match numpy's to the last bit where the scaling is exact.
py::object round_decimals(py::object a, int decimals, py::object out) {
  std::vector<PyOperand> x = *to_operands({a}, Accept::kFunction, "round");
  Array r = call_op(Op::kRound, x, std::nullopt);
  if (decimals != 0) {
    const Array& xa = *x[0].array;
    if (!is_floating(xa.dtype()) && !is_complex(xa.dtype())) {
      if (decimals > 0) return result_or_out(r, out, Op::kRound);  // integers are already exact
      PyErr_SetString(PyExc_NotImplementedError,
                      "[round] negative decimals for integer arrays are not supported yet");
      throw py::error_already_set();
    }
    const double f = std::pow(10.0, std::abs(decimals));
    r = decimals > 0 ? round(xa * f) / f : round(xa / f) * f;
  }
  return result_or_out(r, out, Op::kRound);
}

// numpy.clip: minimum(maximum(a, a_min), a_max); either bound may be None.
py::object clip_of(py::object a, py::object lo, py::object hi, py::object out) {
  py::object r = a;
  if (!lo.is_none()) r = call(Op::kMaximum, {r, lo}, py::none(), py::none());
  if (!hi.is_none()) r = call(Op::kMinimum, {r, hi}, py::none(), py::none());
  if (lo.is_none() && hi.is_none()) r = call(Op::kPositive, {r}, py::none(), py::none());
  return result_or_out(r.cast<Array>(), out, Op::kMinimum);
}

// numpy 2's result_type: arrays, numpy scalars and dtypes are strong; Python scalars weak.
py::dtype result_type_of(py::args values) {
  std::optional<DType> strong;
  std::vector<WeakKind> weak;
  for (py::handle v : values) {
    if (py::isinstance<Array>(v)) {
      DType t = v.cast<const Array&>().dtype();
      strong = strong ? result_type(*strong, t) : t;
    } else if (std::optional<WeakScalar> w = to_weak(v, "result_type")) {
      weak.push_back(w->kind);
    } else {
      py::handle dt =
          py::hasattr(v, "dtype") && !py::isinstance<py::type>(v) ? py::handle(v.attr("dtype")) : v;
      DType t = to_dtype(dt, "result_type");
      strong = strong ? result_type(*strong, t) : t;
    }
  }
  if (!strong && weak.empty()) {
    throw ShapeError("[result_type] at least one array or dtype is required");
  }
  DType t = strong ? *strong : DType::kBool;
  for (WeakKind k : weak)
    t = strong ? result_type(t, k) : result_type(t, result_type(DType::kBool, k));
  return to_numpy_dtype(t);
}

bool can_cast_of(py::handle from, py::handle to, const std::string& casting) {
  DType f;
  if (py::isinstance<Array>(from)) {
    f = from.cast<const Array&>().dtype();
  } else if (to_weak(from, "can_cast")) {
    throw DTypeError(
        "[can_cast] Python scalars are not accepted (numpy 2); pass a dtype or "
        "an array");
  } else {
    f = to_dtype(py::hasattr(from, "dtype") && !py::isinstance<py::type>(from)
                     ? py::handle(from.attr("dtype"))
                     : from,
                 "can_cast");
  }
  const DType t = to_dtype(to, "can_cast");
  if (casting == "no" || casting == "equiv") return f == t;
  if (casting == "safe") return can_cast(f, t, Casting::kSafe);
  if (casting == "same_kind") return can_cast(f, t, Casting::kSameKind);
  if (casting == "unsafe") return true;
  throw ShapeError(
      "[can_cast] casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
      "'unsafe', got '" +
      casting + "'");
}

}  // namespace

void register_ops(py::module_& m) {
  // numpy's ufunc names → functions, for ndarray.__array_ufunc__ (vkarray/__init__.py).
  py::dict ufuncs;
  for (int i = 0; i < kNumOps; ++i) {
    const Op op = static_cast<Op>(i);
    if (!is_elementwise(op) || op == Op::kAstype || op == Op::kRound) continue;
    const OpInfo& o = info(op);
    py::object f = define_ufunc(m, std::string(o.name), op);
    ufuncs[py::str(std::string(o.name))] = f;
    if (!o.numpy.empty() && o.numpy != o.name) {
      m.attr(py::str(std::string(o.numpy))) = f;
      ufuncs[py::str(std::string(o.numpy))] = f;
    }
  }
  m.attr("_ufuncs") = ufuncs;

  m.def("round", &round_decimals, py::arg("a"), py::arg("decimals") = 0,
        py::arg("out") = py::none(), R"doc(
numpy.round: round half to even to `decimals` decimal places (negative: tens, hundreds...),
computed as numpy does (scale, round, unscale). Integer arrays with decimals >= 0 are
returned as they are; negative decimals for integers are not supported yet.
)doc");
  m.attr("around") = m.attr("round");
  m.def("clip", &clip_of, py::arg("a"), py::arg("a_min"), py::arg("a_max"),
        py::arg("out") = py::none(),
        "numpy.clip: minimum(maximum(a, a_min), a_max) with NaNs propagated; a bound of None "
        "is not applied.");
  m.def(
      "astype",
      [](py::object x, py::handle dtype, bool copy) -> py::object {
        if (!py::isinstance<Array>(x)) {
          throw DTypeError(prefix("astype") + "expected a vkarray.ndarray, got " +
                           std::string(py::str(py::type::of(x))));
        }
        return x.attr("astype")(dtype, py::arg("copy") = copy);
      },
      py::arg("x"), py::arg("dtype"), py::pos_only(), py::kw_only(), py::arg("copy") = true,
      "The array API's astype(x, dtype): x converted to dtype with numpy's casting results.");
  m.def("result_type", &result_type_of, R"doc(
The dtype numpy 2 gives for an operation on these operands: arrays, numpy scalars and dtypes
are strong; Python scalars are weak (NEP 50), so result_type(float32_array, 2.0) is float32.
)doc");
  m.def("can_cast", &can_cast_of, py::arg("from_"), py::arg("to"), py::arg("casting") = "safe",
        "numpy.can_cast for dtypes and arrays: casting 'no', 'equiv', 'safe', 'same_kind' or "
        "'unsafe'.");
  m.def(
      "eval",
      [](py::args arrays, py::kwargs kwargs) {
        std::optional<int> replica;
        for (auto item : kwargs) {
          const std::string key = py::str(item.first);
          if (key != "index") {
            throw py::type_error(prefix("eval") + "unexpected keyword argument '" + key + "'");
          }
          replica = to_replica_index(item.second, "eval");
        }
        std::vector<Array*> targets;
        for (py::handle a : arrays) {
          if (!py::isinstance<Array>(a)) {
            throw DTypeError(prefix("eval") + "expected vkarray.ndarray arguments, got " +
                             std::string(py::str(py::type::of(a))));
          }
          targets.push_back(&a.cast<Array&>());
        }
        eval_on(targets, replica);
      },
      "Evaluate the arrays together: one schedule, so shared work runs once and independent "
      "outputs share kernels where possible. index=i evaluates on replica i only (default: "
      "every replica, or the `with vkarray.replica(i)` scope's).");
  m.def(
      "kernel_count", [] { return realize_stats().kernels; },
      "Diagnostic: the number of kernels dispatched so far in this process (each launch "
      "counted once, whatever the number of replicas). Tests use it to check laziness and "
      "fusion.");
}

}  // namespace vka
