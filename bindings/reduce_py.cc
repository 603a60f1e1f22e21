// numpy's reductions as module functions and ndarray methods (array/reduce.h): numpy's
// signatures (axis, dtype, out, keepdims, initial, where, ddof) and results.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "array/reduce.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/index_py.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"

namespace vka {
namespace {

std::string prefix(std::string_view op) { return "[" + std::string(op) + "] "; }

int64_t to_axis(py::handle h, std::string_view op) {
  if (!is_python_integer(h)) {
    throw DTypeError(prefix(op) + "axis must be an integer or a tuple of integers, got " +
                     std::string(py::str(py::type::of(h).attr("__name__"))));
  }
  return h.attr("__index__")().cast<int64_t>();
}

Axes to_axes(py::handle axis, std::string_view op) {
  if (axis.is_none()) return Axes();
  if (py::isinstance<py::tuple>(axis) || py::isinstance<py::list>(axis)) {
    std::vector<int64_t> out;
    for (py::handle h : axis) out.push_back(to_axis(h, op));
    return Axes(out);
  }
  return Axes(to_axis(axis, op));
}

std::optional<int64_t> to_single_axis(py::handle axis, std::string_view op) {
  if (axis.is_none()) return std::nullopt;
  return to_axis(axis, op);
}

ReduceOptions options(const Array& a, py::handle dtype, bool keepdims, py::handle initial,
                      py::handle where, std::string_view op) {
  ReduceOptions o;
  o.keepdims = keepdims;
  if (!dtype.is_none()) o.dtype = to_dtype(dtype, op);
  if (!initial.is_none()) {
    std::optional<WeakScalar> w = to_weak(initial, op);
    if (!w) w = WeakScalar::of_float(initial.cast<double>());
    o.initial = w;
  }
  if (!where.is_none() && !(py::isinstance<py::bool_>(where) && where.cast<bool>())) {
    o.where = as_array(where, op, DType::kBool, a.context());
  }
  return o;
}

py::object finish(Array r, py::handle out, Op op) { return result_or_out(std::move(r), out, op); }

using Reduction = std::function<Array(const Array&, const Axes&, const ReduceOptions&)>;
using ReduceFn = Array (*)(const Array&, const Axes&, const ReduceOptions&);
using Variance = std::function<Array(const Array&, const Axes&, double, const ReduceOptions&)>;

// numpy's three reduction signatures: sum-like functions take a result dtype, max-like ones
// do not (so `max(a, 0, out)` passes out positionally), and all/any take no initial either.
enum class Signature { kSum, kMax, kAll };

// Defines `name` on `target` (the module, with `extra` = py::arg("a"), or the ndarray class)
// with `sig`'s parameters; `call` takes all of them.
template <typename Target, typename Call, typename... Extra>
void define(Target& target, const char* name, Signature sig, Call call, const char* doc,
            Extra... extra) {
  switch (sig) {
    case Signature::kSum:
      target.def(name, call, extra..., py::arg("axis") = py::none(),
                 py::arg("dtype") = py::none(), py::arg("out") = py::none(),
                 py::arg("keepdims") = false, py::arg("initial") = py::none(),
                 py::arg("where") = py::none(), doc);
      return;
    case Signature::kMax:
      target.def(
          name,
          [call](py::object a, py::object axis, py::object out, bool keepdims,
                 py::object initial, py::object where) {
            return call(a, axis, py::none(), out, keepdims, initial, where);
          },
          extra..., py::arg("axis") = py::none(), py::arg("out") = py::none(),
          py::arg("keepdims") = false, py::arg("initial") = py::none(),
          py::arg("where") = py::none(), doc);
      return;
    case Signature::kAll:
      target.def(
          name,
          [call](py::object a, py::object axis, py::object out, bool keepdims, py::object where) {
            return call(a, axis, py::none(), out, keepdims, py::none(), where);
          },
          extra..., py::arg("axis") = py::none(), py::arg("out") = py::none(),
          py::arg("keepdims") = false, py::kw_only(), py::arg("where") = py::none(), doc);
      return;
  }
}

// f(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True) as a module
// function with `sig`'s parameters only and, when `method`, as an ndarray method with
// `method_sig`'s (numpy 1.24's all/any methods take dtype=, its functions do not).
void def_reduction(py::module_& m, py::class_<Array>& cls, const char* name, Op op, Reduction f,
                   bool method, const char* doc, Signature sig = Signature::kSum,
                   std::optional<Signature> method_sig = std::nullopt) {
  auto call = [f, name, op](py::object a, py::object axis, py::object dtype, py::object out,
                            bool keepdims, py::object initial, py::object where) {
    Array x = as_array(a, name);
    return finish(f(x, to_axes(axis, name), options(x, dtype, keepdims, initial, where, name)), out,
                  op);
  };
  define(m, name, sig, call, doc, py::arg("a"));
  if (method) define(cls, name, method_sig.value_or(sig), call, doc);
}

// `module_name`: the module function's name (var and std are private there: the Python
// package adds the array API's correction=).
void def_variance(py::module_& m, py::class_<Array>& cls, const char* name, const char* module_name,
                  Op op, Variance f, bool method, const char* doc) {
  auto call = [f, name, op](py::object a, py::object axis, py::object dtype, py::object out,
                            double ddof, bool keepdims, py::object where) {
    Array x = as_array(a, name);
    ReduceOptions o = options(x, dtype, keepdims, py::none(), where, name);
    return finish(f(x, to_axes(axis, name), ddof, o), out, op);
  };
  m.def(module_name, call, py::arg("a"), py::arg("axis") = py::none(),
        py::arg("dtype") = py::none(), py::arg("out") = py::none(), py::arg("ddof") = 0.0,
        py::arg("keepdims") = false, py::kw_only(), py::arg("where") = py::none(), doc);
  if (method) {
    cls.def(name, call, py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
            py::arg("out") = py::none(), py::arg("ddof") = 0.0, py::arg("keepdims") = false,
            py::kw_only(), py::arg("where") = py::none(), doc);
  }
}

using ArgReduction = std::function<Array(const Array&, std::optional<int64_t>, bool)>;

void def_arg(py::module_& m, py::class_<Array>& cls, const char* name, Op op, ArgReduction f,
             bool method, const char* doc) {
  auto call = [f, name, op](py::object a, py::object axis, py::object out, bool keepdims) {
    return finish(f(as_array(a, name), to_single_axis(axis, name), keepdims), out, op);
  };
  m.def(name, call, py::arg("a"), py::arg("axis") = py::none(), py::arg("out") = py::none(),
        py::kw_only(), py::arg("keepdims") = false, doc);
  if (method) {
    cls.def(name, call, py::arg("axis") = py::none(), py::arg("out") = py::none(), py::kw_only(),
            py::arg("keepdims") = false, doc);
  }
}

}  // namespace

void register_reductions(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  def_reduction(m, cls, "sum", Op::kSum, &sum, true,
                "numpy.sum: integers and bool add in int64/uint64, float16 in float32; floating "
                "sums are compensated (accurate to an ulp or two), deterministic, and fused "
                "with the expression that feeds them.");
  def_reduction(m, cls, "prod", Op::kProd, &prod, true, "numpy.prod (fused, deterministic).");
  def_reduction(m, cls, "nansum", Op::kSum, &nansum, false, "numpy.nansum: NaN counts as 0.");
  def_reduction(m, cls, "nanprod", Op::kProd, &nanprod, false, "numpy.nanprod: NaN counts as 1.");
  for (const char* n : {"max", "amax"}) {
    def_reduction(m, cls, n, Op::kMax, &max, std::string(n) == "max",
                  "numpy.max: NaN propagates; empty reductions need initial=.", Signature::kMax);
  }
  for (const char* n : {"min", "amin"}) {
    def_reduction(m, cls, n, Op::kMin, &min, std::string(n) == "min",
                  "numpy.min: NaN propagates; empty reductions need initial=.", Signature::kMax);
  }
  def_reduction(m, cls, "nanmax", Op::kNanMax, &nanmax, false,
                "numpy.nanmax: NaN ignored; an all-NaN result is NaN.", Signature::kMax);
  def_reduction(m, cls, "nanmin", Op::kNanMin, &nanmin, false,
                "numpy.nanmin: NaN ignored; an all-NaN result is NaN.", Signature::kMax);
  def_reduction(m, cls, "ptp", Op::kMax, &ptp, true, "numpy.ptp: max - min.", Signature::kMax);
  def_reduction(m, cls, "any", Op::kAny, static_cast<ReduceFn>(&any), true, "numpy.any.",
                Signature::kAll, Signature::kSum);
  def_reduction(m, cls, "all", Op::kAll, static_cast<ReduceFn>(&all), true, "numpy.all.",
                Signature::kAll, Signature::kSum);
  auto mean_fn = [](const Array& a, const Axes& ax, const ReduceOptions& o) {
    return mean(a, ax, o);
  };
  auto nanmean_fn = [](const Array& a, const Axes& ax, const ReduceOptions& o) {
    return nanmean(a, ax, o);
  };
  // mean's signature has no initial=.
  for (auto [n, fn, method] : {std::make_tuple("mean", Reduction(mean_fn), true),
                               std::make_tuple("nanmean", Reduction(nanmean_fn), false)}) {
    auto call = [fn = fn, n = n](py::object a, py::object axis, py::object dtype, py::object out,
                                 bool keepdims, py::object where) {
      Array x = as_array(a, n);
      return finish(fn(x, to_axes(axis, n), options(x, dtype, keepdims, py::none(), where, n)), out,
                    Op::kMean);
    };
    const char* doc = "numpy.mean: integers average in float64, float16 in float32.";
    m.def(n, call, py::arg("a"), py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
          py::arg("out") = py::none(), py::arg("keepdims") = false, py::kw_only(),
          py::arg("where") = py::none(), doc);
    if (method) {
      cls.def(n, call, py::arg("axis") = py::none(), py::arg("dtype") = py::none(),
              py::arg("out") = py::none(), py::arg("keepdims") = false, py::kw_only(),
              py::arg("where") = py::none(), doc);
    }
  }
  def_variance(m, cls, "var", "_var", Op::kMean, &var, true, "numpy.var (ddof=).");
  def_variance(m, cls, "std", "_std", Op::kMean, &stddev, true, "numpy.std (ddof=).");
  def_variance(m, cls, "nanvar", "nanvar", Op::kMean, &nanvar, false, "numpy.nanvar (ddof=).");
  def_variance(m, cls, "nanstd", "nanstd", Op::kMean, &nanstd, false, "numpy.nanstd (ddof=).");
  def_arg(m, cls, "argmax", Op::kArgmax, &argmax, true,
          "numpy.argmax: the first maximum's index (NaN counts as the maximum).");
  def_arg(m, cls, "argmin", Op::kArgmin, &argmin, true,
          "numpy.argmin: the first minimum's index (NaN counts as the minimum).");
  def_arg(m, cls, "nanargmax", Op::kArgmax, &nanargmax, false,
          "numpy.nanargmax: NaN skipped; ValueError for an all-NaN slice.");
  def_arg(m, cls, "nanargmin", Op::kArgmin, &nanargmin, false,
          "numpy.nanargmin: NaN skipped; ValueError for an all-NaN slice.");
  m.def(
      "_count_nonzero",
      [](py::object a, py::object axis, bool keepdims) {
        return count_nonzero(as_array(a, "count_nonzero"), to_axes(axis, "count_nonzero"),
                             keepdims);
      },
      py::arg("a"), py::arg("axis") = py::none(), py::kw_only(), py::arg("keepdims") = false,
      "numpy.count_nonzero (int64 results).");
  m.def(
      "vdot",
      [](py::object a, py::object b) { return vdot(as_array(a, "vdot"), as_array(b, "vdot")); },
      py::arg("a"), py::arg("b"), "numpy.vdot: sum(conj(a) * b) of the flattened operands.");
  m.def(
      "vecdot",
      [](py::object a, py::object b, int64_t axis) {
        return vecdot(as_array(a, "vecdot"), as_array(b, "vecdot"), axis);
      },
      py::arg("x1"), py::arg("x2"), py::pos_only(), py::kw_only(), py::arg("axis") = -1,
      "The array API's vecdot: sum(conj(x1) * x2, axis) over broadcast operands.");
  m.def(
      "inner",
      [](py::object a, py::object b) { return inner(as_array(a, "inner"), as_array(b, "inner")); },
      py::arg("a"), py::arg("b"), "numpy.inner: sums of products over the last axes.");
}

}  // namespace vka
