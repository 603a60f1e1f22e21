// Selections by index arrays, masks and search: take, take_along_axis, put, nonzero,
// flatnonzero, compress, extract and searchsorted (array/gather.h, array/nonzero.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/index_py.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"

namespace vka {
namespace {

// A condition as a bool array on x's context: nonzero elements are true (numpy's rule).
Array condition_of(py::handle condition, const Array& x, std::string_view op) {
  Array c = as_array(condition, op, std::nullopt, x.context());
  return c.dtype() == DType::kBool ? c : not_equal(c, Arg(0));
}

}  // namespace

void register_selection(py::module_& m) {
  m.def(
      "take",
      [](py::object a, py::object indices, py::object axis, py::object out, std::string mode) {
        Array x = as_array(a, "take");
        IndexMode m = to_index_mode(mode, "take");
        std::optional<int64_t> ax;
        if (!axis.is_none()) ax = axis.cast<int64_t>();
        // numpy takes axis 0 or -1 of a 0-d array as the axis of its one element
        if (x.ndim() == 0 && ax && (*ax == 0 || *ax == -1)) x = reshape(x, {1});
        Array idx = as_array(indices, "take", std::nullopt, x.context());
        return result_or_out(take(x, idx, ax, m), out, Op::kGather);
      },
      py::arg("a"), py::arg("indices"), py::arg("axis") = py::none(), py::arg("out") = py::none(),
      py::arg("mode") = "raise",
      "numpy.take: elements along an axis (the flattened array when axis is None); indices "
      "out of range raise IndexError (mode='raise'), wrap or clip.");
  m.def(
      "searchsorted",
      [](py::object a, py::object v, std::string side, py::object sorter) {
        if (side != "left" && side != "right") {
          throw ShapeError("[searchsorted] side must be 'left' or 'right', got '" + side + "'");
        }
        Array x = as_array(a, "searchsorted");
        if (!sorter.is_none())
          x = take(x, as_array(sorter, "searchsorted", std::nullopt, x.context()));
        const bool scalar = !py::isinstance<Array>(v) &&
                            py::module_::import("numpy").attr("ndim")(v).cast<int>() == 0;
        Array values = as_array(v, "searchsorted", std::nullopt, x.context());
        Array out = searchsorted(x, values, side == "right");
        if (scalar) return py::module_::import("numpy").attr("int64")(out.to_vector<int64_t>()[0]);
        return py::cast(out);
      },
      py::arg("a"), py::arg("v"), py::arg("side") = "left", py::arg("sorter") = py::none(),
      "numpy.searchsorted: insertion points of v in the sorted 1-d array a (NaN sorts last); a "
      "binary search per value on the device.");
  m.def(
      "put",
      [](py::object a, py::object ind, py::object v, std::string mode) {
        if (!py::isinstance<Array>(a)) {
          throw DTypeError("[put] the array must be a vkarray.ndarray (it is written in place)");
        }
        const Array& x = a.cast<const Array&>();
        IndexMode m = to_index_mode(mode, "put");
        put(x, as_array(ind, "put", std::nullopt, x.context()),
            as_array(v, "put", x.dtype(), x.context()), m);
      },
      py::arg("a"), py::arg("ind"), py::arg("v"), py::arg("mode") = "raise",
      "numpy.put: a.flat[ind] = v in place (v repeated to ind's size); where indices repeat, "
      "the last value wins.");
  m.def(
      "nonzero",
      [](py::object a) {
        Array x = as_array(a, "nonzero");
        if (x.ndim() == 0) {  // numpy 2 and the array API: an error (numpy 1.24 deprecates it)
          throw ShapeError(
              "[nonzero] calling nonzero on a 0-d array is not allowed; use x.reshape(1) "
              "for a 1-d array of its one element");
        }
        py::list out;
        for (Array& i : nonzero(x)) out.append(py::cast(i));
        return py::tuple(out);
      },
      py::arg("a"),
      "numpy.nonzero: a tuple of int64 index arrays, one per axis. The count is computed on "
      "the device (a prefix sum); only it comes back to the host.");
  m.def(
      "flatnonzero", [](py::object a) { return flatnonzero(as_array(a, "flatnonzero")); },
      py::arg("a"));
  m.def(
      "compress",
      [](py::object condition, py::object a, py::object axis) {
        std::optional<int64_t> ax;
        if (!axis.is_none()) ax = axis.cast<int64_t>();
        Array x = as_array(a, "compress");
        return compress(condition_of(condition, x, "compress"), x, ax);
      },
      py::arg("condition"), py::arg("a"), py::arg("axis") = py::none());
  m.def(
      "extract",
      [](py::object condition, py::object arr) {
        Array x = as_array(arr, "extract");
        return extract(condition_of(condition, x, "extract"), x);
      },
      py::arg("condition"), py::arg("arr"));
  m.def(
      "take_along_axis",
      [](py::object a, py::object indices, int64_t axis) {
        Array x = as_array(a, "take_along_axis");
        return take_along_axis(x, as_array(indices, "take_along_axis", std::nullopt, x.context()),
                               axis);
      },
      py::arg("arr"), py::arg("indices"), py::arg("axis"));
}

}  // namespace vka
