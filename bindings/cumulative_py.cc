// Scans and differences (array/cumulative.h). The numpy-facing signatures (out=, the ndarray
// methods) are in vkarray/_cumulative.py, over these core functions.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>

#include "array/array.h"
#include "bindings/convert.h"
#include "bindings/index_py.h"
#include "bindings/registry.h"

namespace vka {
namespace {

std::optional<int64_t> axis_of(py::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return py::cast<int64_t>(py::module_::import("operator").attr("index")(axis));
}

std::optional<DType> optional_dtype(py::handle dtype, std::string_view op) {
  if (dtype.is_none()) return std::nullopt;
  return to_dtype(dtype, op);
}

using Scan = Array (*)(const Array&, std::optional<int64_t>, std::optional<DType>);

void def_scan(py::module_& m, const char* name, Scan fn, const char* doc) {
  m.def(
      name,
      [fn, name](py::object a, py::object axis, py::object dtype) {
        return fn(as_array(a, name), axis_of(axis), optional_dtype(dtype, name));
      },
      py::arg("a"), py::arg("axis") = py::none(), py::arg("dtype") = py::none(), doc);
}

}  // namespace

void register_cumulative(py::module_& m) {
  def_scan(m, "_cumsum", &cumsum, "numpy.cumsum without out= (see vkarray.cumsum).");
  def_scan(m, "_cumprod", &cumprod, "numpy.cumprod without out= (see vkarray.cumprod).");
  def_scan(m, "_nancumsum", &nancumsum, "numpy.nancumsum without out=.");
  def_scan(m, "_nancumprod", &nancumprod, "numpy.nancumprod without out=.");
  m.def(
      "_cumulative",
      [](py::object x, bool product, py::object axis, py::object dtype, bool include_initial) {
        const char* op = product ? "cumulative_prod" : "cumulative_sum";
        Array a = as_array(x, op);
        const std::optional<int64_t> ax = axis_of(axis);
        const std::optional<DType> t = optional_dtype(dtype, op);
        return product ? cumulative_prod(a, ax, t, include_initial)
                       : cumulative_sum(a, ax, t, include_initial);
      },
      py::arg("x"), py::arg("product"), py::arg("axis"), py::arg("dtype"),
      py::arg("include_initial"), "numpy 2's cumulative_sum / cumulative_prod without out=.");
  m.def(
      "cummax", [](py::object a, py::object axis) {
        return cummax(as_array(a, "cummax"), *axis_of(axis));
      },
      py::arg("a"), py::arg("axis") = 0,
      "np.maximum.accumulate(a, axis): the running maximum along axis, in a's dtype; NaN "
      "propagates. One scan on the device, bit-identical from run to run.");
  m.def(
      "cummin", [](py::object a, py::object axis) {
        return cummin(as_array(a, "cummin"), *axis_of(axis));
      },
      py::arg("a"), py::arg("axis") = 0,
      "np.minimum.accumulate(a, axis): the running minimum along axis, in a's dtype; NaN "
      "propagates.");
  m.def(
      "_diff",
      [](py::object a, py::object n, py::object axis, py::object prepend, py::object append) {
        Array x = as_array(a, "diff");
        std::optional<Array> pre, app;
        if (!prepend.is_none()) pre = as_array(prepend, "diff", std::nullopt, x.context());
        if (!append.is_none()) app = as_array(append, "diff", std::nullopt, x.context());
        return diff(x, py::cast<int64_t>(py::module_::import("operator").attr("index")(n)),
                    *axis_of(axis), pre, app);
      },
      py::arg("a"), py::arg("n"), py::arg("axis"), py::arg("prepend"), py::arg("append"),
      "numpy.diff (vkarray.diff handles numpy's no-value defaults).");
  m.def(
      "ediff1d",
      [](py::object ary, py::object to_end, py::object to_begin) {
        Array x = as_array(ary, "ediff1d");
        std::optional<Array> end, begin;
        if (!to_end.is_none()) end = as_array(to_end, "ediff1d", std::nullopt, x.context());
        if (!to_begin.is_none()) begin = as_array(to_begin, "ediff1d", std::nullopt, x.context());
        return ediff1d(x, end, begin);
      },
      py::arg("ary"), py::arg("to_end") = py::none(), py::arg("to_begin") = py::none(),
      "numpy.ediff1d: differences of the flattened array, with to_begin and to_end (cast to "
      "ary's dtype; TypeError unless same_kind) at the ends.");
}

}  // namespace vka
