// The view methods and properties of vkarray.ndarray (.T, .mT, reshape, transpose, ...) and
// the module-level view functions: each a view of the array's storage, or a copy where numpy
// copies (array/views.h).
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

std::optional<std::vector<int64_t>> axes_arg(py::handle axes, std::string_view op) {
  if (axes.is_none()) return std::nullopt;
  if (is_python_integer(axes))
    return std::vector<int64_t>{axes.attr("__index__")().cast<int64_t>()};
  std::vector<int64_t> out;
  for (py::handle h : axes) {
    if (!is_python_integer(h)) {
      throw DTypeError("[" + std::string(op) + "] axes must be integers, got " +
                       std::string(py::str(h)));
    }
    out.push_back(h.attr("__index__")().cast<int64_t>());
  }
  return out;
}

// reshape(*shape) and reshape(shape): numpy takes both spellings; -1 is inferred.
Shape shape_args(py::args args, std::string_view op) {
  if (args.size() == 1) {
    py::handle s = args[0];
    if (is_python_integer(s)) return {s.attr("__index__")().cast<int64_t>()};
    Shape out;
    for (py::handle h : s) {
      if (!is_python_integer(h))
        throw DTypeError("[" + std::string(op) + "] shape must be integers");
      out.push_back(h.attr("__index__")().cast<int64_t>());
    }
    return out;
  }
  Shape out;
  for (py::handle h : args) {
    if (!is_python_integer(h)) throw DTypeError("[" + std::string(op) + "] shape must be integers");
    out.push_back(h.attr("__index__")().cast<int64_t>());
  }
  return out;
}

void check_order(py::handle order, std::string_view op) {
  if (!order.is_none() && py::str(order).cast<std::string>() != "C") {
    throw ShapeError("[" + std::string(op) +
                     "] only order='C' is supported, got order=" + std::string(py::str(order)));
  }
}

}  // namespace

void register_views(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  cls.def_property_readonly(
      "T", [](const Array& a) { return a.ndim() < 2 ? a.view(a.storage()->view()) : transpose(a); },
      "The axes reversed (a view).");
  cls.def_property_readonly("mT", &matrix_transpose, "The last two axes swapped (a view).");
  cls.def_property_readonly(
      "flags_writeable", &Array::is_writeable,
      "False for read-only views (broadcast_to, diagonal), as numpy's flags.writeable.");
  cls.def(
      "reshape",
      [](const Array& a, py::args shape, py::object order) {
        check_order(order, "reshape");
        return reshape(a, shape_args(shape, "reshape"));
      },
      py::kw_only(), py::arg("order") = py::none(),
      "numpy's reshape: a view when the strides allow, else a copy; one extent may be -1.");
  cls.def(
      "transpose",
      [](const Array& a, py::args axes) {
        if (axes.size() == 0 || (axes.size() == 1 && axes[0].is_none())) return transpose(a);
        if (axes.size() == 1) return transpose(a, axes_arg(axes[0], "transpose"));
        return transpose(a, axes_arg(axes, "transpose"));
      },
      "The axes reversed, or permuted as given (a view).");
  cls.def(
      "swapaxes", [](const Array& a, int64_t x, int64_t y) { return swapaxes(a, x, y); },
      py::arg("axis1"), py::arg("axis2"));
  cls.def(
      "squeeze",
      [](const Array& a, py::object axis) { return squeeze(a, axes_arg(axis, "squeeze")); },
      py::arg("axis") = py::none());
  cls.def(
      "ravel",
      [](const Array& a, py::object order) {
        check_order(order, "ravel");
        return ravel(a);
      },
      py::arg("order") = py::none());
  m.def("_flatten", [](const Array& a) { return flatten(a); });  // ndarray.flatten's C order
  cls.def(
      "diagonal",
      [](const Array& a, int64_t offset, int64_t axis1, int64_t axis2) {
        return diagonal(a, offset, axis1, axis2);
      },
      py::arg("offset") = 0, py::arg("axis1") = 0, py::arg("axis2") = 1);
  m.def(
      "reshape",
      [](py::object a, py::object shape, py::object order, py::object copy_) {
        check_order(order, "reshape");
        Array x = as_array(a, "reshape");
        Shape s = shape_args(py::make_tuple(shape), "reshape");
        if (!copy_.is_none() && copy_.cast<bool>()) return reshape(copy(x), s);
        return reshape(x, s);
      },
      py::arg("a"), py::arg("shape"), py::kw_only(), py::arg("order") = py::none(),
      py::arg("copy") = py::none());
  m.def("ravel", [](py::object a) { return ravel(as_array(a, "ravel")); });
  m.def(
      "transpose",
      [](py::object a, py::object axes) {
        return transpose(as_array(a, "transpose"), axes_arg(axes, "transpose"));
      },
      py::arg("a"), py::arg("axes") = py::none());
  m.def(
      "permute_dims",
      [](py::object a, py::object axes) {
        return permute_dims(as_array(a, "permute_dims"), *axes_arg(axes, "permute_dims"));
      },
      py::arg("a"), py::arg("axes"));
  m.def("matrix_transpose",
        [](py::object a) { return matrix_transpose(as_array(a, "matrix_transpose")); });
  m.def(
      "swapaxes",
      [](py::object a, int64_t x, int64_t y) { return swapaxes(as_array(a, "swapaxes"), x, y); },
      py::arg("a"), py::arg("axis1"), py::arg("axis2"));
  m.def(
      "moveaxis",
      [](py::object a, py::object src, py::object dst) {
        return moveaxis(as_array(a, "moveaxis"), *axes_arg(src, "moveaxis"),
                        *axes_arg(dst, "moveaxis"));
      },
      py::arg("a"), py::arg("source"), py::arg("destination"));
  m.def(
      "broadcast_to",
      [](py::object a, py::object shape) {
        return broadcast_to(as_array(a, "broadcast_to"), to_shape(shape, "broadcast_to"));
      },
      py::arg("array"), py::arg("shape"));
  m.def("broadcast_arrays", [](py::args arrays) {
    std::vector<Array> xs;
    for (py::handle h : arrays) xs.push_back(as_array(h, "broadcast_arrays"));
    py::list out;
    for (Array& a : broadcast_arrays(xs)) out.append(py::cast(a));
    return out;  // a list, as numpy 1.24 and the array API 2023.12 return
  });
  m.def(
      "expand_dims",
      [](py::object a, py::object axis) {
        return expand_dims(as_array(a, "expand_dims"), *axes_arg(axis, "expand_dims"));
      },
      py::arg("a"), py::arg("axis"));
  m.def(
      "squeeze",
      [](py::object a, py::object axis) {
        return squeeze(as_array(a, "squeeze"), axes_arg(axis, "squeeze"));
      },
      py::arg("a"), py::arg("axis") = py::none());
  m.def(
      "flip",
      [](py::object a, py::object axis) {
        return flip(as_array(a, "flip"), axes_arg(axis, "flip"));
      },
      py::arg("m"), py::arg("axis") = py::none());
  m.def("fliplr", [](py::object a) {
    Array x = as_array(a, "fliplr");
    if (x.ndim() < 2) throw ShapeError("[fliplr] Input must be >= 2-d.");
    return flip(x, std::vector<int64_t>{1});
  });
  m.def("flipud", [](py::object a) {
    Array x = as_array(a, "flipud");
    if (x.ndim() < 1) throw ShapeError("[flipud] Input must be >= 1-d.");
    return flip(x, std::vector<int64_t>{0});
  });
  m.def(
      "diagonal",
      [](py::object a, int64_t offset, int64_t axis1, int64_t axis2) {
        return diagonal(as_array(a, "diagonal"), offset, axis1, axis2);
      },
      py::arg("a"), py::arg("offset") = 0, py::arg("axis1") = 0, py::arg("axis2") = 1);
  m.def(
      "ascontiguousarray",
      [](py::object a, py::object dtype) {
        Array x = as_array(a, "ascontiguousarray");
        if (!dtype.is_none()) x = x.astype(to_dtype(dtype, "ascontiguousarray"));
        return ascontiguousarray(x);
      },
      py::arg("a"), py::arg("dtype") = py::none());
  m.def(
      "copy", [](py::object a) { return copy(as_array(a, "copy")); }, py::arg("a"));
}

}  // namespace vka
