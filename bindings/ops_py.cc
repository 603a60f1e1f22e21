// The elementwise rows of ops.def as the kernels of vkarray's ufunc objects (vkarray/_ufunc.py
// adds numpy's keywords and methods), plus round, clip, the dtype queries result_type and
// can_cast, the out=/dtype= finisher for Python, eval and kernel_count.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
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

// op(*xs) for Python operands (ndarrays, numpy data, array-likes, Python scalars as weak).
py::object call(Op op, const std::vector<py::handle>& xs) {
  return py::cast(call_op(op, *to_operands(xs, Accept::kFunction, name(op))));
}

// `op`'s loops as numpy's ufunc.types spells them ("ff->f"): for each dtype vkarray accepts,
// the dtype the op computes in and the result's, each loop once, ordered by the compute dtype
// (numpy's order: a loop search takes the first loop its inputs cast to safely).
py::list loop_types(Op op) {
  std::vector<std::pair<int, std::string>> loops;
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    if (!accepts(op, t)) continue;
    const DType compute = compute_dtype(op, t);
    const std::string loop = std::string(arity(op), info(compute).numpy_char) + "->" +
                             info(result_dtype(op, compute)).numpy_char;
    const std::pair<int, std::string> entry{static_cast<int>(compute), loop};
    if (std::find(loops.begin(), loops.end(), entry) == loops.end()) loops.push_back(entry);
  }
  std::stable_sort(loops.begin(), loops.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  py::list types;
  for (const auto& [compute, loop] : loops) types.append(loop);
  return types;
}

// The kernel of op's ufunc: op(*xs), positional only, no keywords (the ufunc object handles
// dtype=, casting=, out= and where=).
py::cpp_function kernel_of(Op op) {
  switch (arity(op)) {
    case 1:
      return py::cpp_function([op](py::object x) { return call(op, {x}); }, py::arg("x"),
                              py::pos_only());
    case 2:
      return py::cpp_function(
          [op](py::object x1, py::object x2) {
            return call(op, {x1, x2});
          },
          py::arg("x1"), py::arg("x2"), py::pos_only());
    case 3:
      return py::cpp_function(
          [op](py::object x1, py::object x2, py::object x3) {
            return call(op, {x1, x2, x3});
          },
          py::arg("x1"), py::arg("x2"), py::arg("x3"), py::pos_only());
    default:
      throw InternalError("[ops_py] elementwise op " + std::string(name(op)) + " has arity " +
                          std::to_string(arity(op)));
  }
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

// numpy's identity of a ufunc, from ops.def's identity column ("0", "True"; "reorder" and ""
// have none).
py::object identity_of(std::string_view text) {
  if (text.empty() || text == "reorder") return py::none();
  if (text == "True") return py::bool_(true);
  if (text == "False") return py::bool_(false);
  return py::int_(std::stoll(std::string(text)));
}

// One row of the table the package builds its ufuncs from (vkarray/_math.py).
py::dict elementwise_row(Op op) {
  const OpInfo& o = info(op);
  py::dict row;
  row["name"] = std::string(o.name);
  row["numpy"] = std::string(o.numpy.empty() ? o.name : o.numpy);
  row["public"] = !o.numpy.empty();  // rows without a numpy name are primitives
  row["nin"] = o.arity;
  row["kernel"] = kernel_of(op);
  row["types"] = loop_types(op);
  row["predicate"] = o.rule == ResultRule::kBool;
  row["accepts"] = kinds_text(o.kinds);
  py::list aliases;
  for (std::size_t at = 0; at < o.aliases.size();) {
    std::size_t end = std::min(o.aliases.find(' ', at), o.aliases.size());
    if (end > at) aliases.append(std::string(o.aliases.substr(at, end - at)));
    at = end + 1;
  }
  row["aliases"] = aliases;
  row["identity"] = identity_of(o.identity);
  row["reorderable"] = !o.identity.empty();
  return row;
}

// numpy.round: half to even at `decimals` decimal places, as numpy computes it (scale, round,
// unscale), so results match numpy's to the last bit where the scaling is exact.
py::object round_decimals(py::object a, int decimals, py::object out) {
  std::vector<PyOperand> x = *to_operands({a}, Accept::kFunction, "round");
  Array r = call_op(Op::kRound, x);
  if (decimals != 0) {
    const Array& xa = *x[0].array;
    const double f = std::pow(10.0, std::abs(decimals));
    if (!is_floating(xa.dtype()) && !is_complex(xa.dtype())) {
      if (decimals > 0) return result_or_out(r, out, Op::kRound);  // integers are already exact
      // numpy: scaled and rounded in float64, then cast back to the integer dtype.
      const Array wide = xa.astype(DType::kFloat64);
      return result_or_out((round(wide / f) * f).astype(xa.dtype()), out, Op::kRound);
    }
    r = decimals > 0 ? round(xa * f) / f : round(xa / f) * f;
  }
  return result_or_out(r, out, Op::kRound);
}

// numpy.clip: minimum(maximum(a, a_min), a_max); either bound may be None.
py::object clip_of(py::object a, py::object lo, py::object hi, py::object out) {
  py::object r = a;
  if (!lo.is_none()) r = call(Op::kMaximum, {r, lo});
  if (!hi.is_none()) r = call(Op::kMinimum, {r, hi});
  if (lo.is_none() && hi.is_none()) r = call(Op::kPositive, {r});
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
  return allows(to_cast_rule(casting, "can_cast"), f, to_dtype(to, "can_cast"));
}

// vkarray._vkarray._finish: finish() for the Python package's functions.
py::object finish_of(py::object result, py::handle out, py::handle dtype, std::string op,
                     std::string ufunc, const std::string& casting, py::handle where,
                     bool exact_shape) {
  if (!is_array(result)) {
    throw InternalError(prefix(op) + "the result to finish is not an ndarray");
  }
  Finish f;
  f.op = std::move(op);
  f.ufunc = std::move(ufunc);
  if (!dtype.is_none()) f.dtype = to_dtype(dtype, f.op);
  f.casting = to_cast_rule(casting, f.op);
  f.where = where;
  f.exact_shape = exact_shape;
  return finish(result.cast<Array>(), out, f);
}

}  // namespace

void register_ops(py::module_& m) {
  py::list rows;
  for (int i = 0; i < kNumOps; ++i) {
    const Op op = static_cast<Op>(i);
    if (is_elementwise(op) && op != Op::kAstype) rows.append(elementwise_row(op));
  }
  m.attr("_elementwise") = rows;
  m.def("_finish", &finish_of, py::arg("result"), py::arg("out") = py::none(),
        py::arg("dtype") = py::none(), py::kw_only(), py::arg("op"), py::arg("ufunc") = "",
        py::arg("casting") = "same_kind", py::arg("where") = py::none(),
        py::arg("exact_shape") = false,
        "The out=/dtype= finisher (bindings/operands_py.h, finish): result converted to "
        "dtype, then returned, or stored into out (numpy's checks, where= mask) and out "
        "returned. ufunc= names the ufunc for numpy's UFuncTypeError wording.");
  m.def("round", &round_decimals, py::arg("a"), py::arg("decimals") = 0,
        py::arg("out") = py::none(), R"doc(
numpy.round: round half to even to `decimals` decimal places (negative: tens, hundreds...),
computed as numpy does (scale, round, unscale). Integer arrays with decimals >= 0 are
returned as they are; negative decimals round integers in float64, as numpy's.
)doc");
  m.attr("around") = m.attr("round");
  m.def("_clip", &clip_of, py::arg("a"), py::arg("a_min"), py::arg("a_max"),
        py::arg("out") = py::none(),
        "numpy.clip: minimum(maximum(a, a_min), a_max) with NaNs propagated; a bound of None "
        "is not applied.");
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
