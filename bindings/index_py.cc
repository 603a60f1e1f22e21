// Indexing and views of vkarray.ndarray: __getitem__, __setitem__, the view methods and
// properties (.T, .mT, reshape, transpose, ...) and the module-level view functions.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "bindings/convert.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"
#include "device/errors.h"

namespace vka {
namespace {

constexpr const char* kBadIndex =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices";

bool is_bool_scalar(py::handle h) {
  return py::isinstance<py::bool_>(h) || py::isinstance(h, py::module_::import("numpy").attr("bool_"));
}

bool is_integer(py::handle h) {
  if (is_bool_scalar(h)) return false;
  if (py::isinstance<py::int_>(h)) return true;
  return py::isinstance(h, py::module_::import("numpy").attr("integer"));
}

std::optional<int64_t> slice_bound(py::handle h) {
  if (h.is_none()) return std::nullopt;
  if (!py::hasattr(h, "__index__") || is_bool_scalar(h)) {
    if (!py::hasattr(h, "__index__")) {
      throw py::type_error("slice indices must be integers or None or have an __index__ method");
    }
  }
  py::object i = h.attr("__index__")();
  return i.cast<int64_t>();
}

IndexItem to_item(py::handle h) {
  if (h.is_none()) return NewAxis{};
  if (h.is(py::ellipsis())) return Ellipsis{};
  if (py::isinstance<py::slice>(h)) {
    SliceSpec s;
    s.start = slice_bound(h.attr("start"));
    s.stop = slice_bound(h.attr("stop"));
    std::optional<int64_t> step = slice_bound(h.attr("step"));
    s.step = step.value_or(1);
    if (s.step == 0) throw ShapeError("[index] slice step cannot be zero");
    return s;
  }
  if (is_integer(h)) {
    py::object i = h.attr("__index__")();
    try {
      return i.cast<int64_t>();
    } catch (const py::cast_error&) {
      throw IndexError("[index] index " + std::string(py::str(i)) + " is out of bounds");
    }
  }
  if (py::isinstance<Array>(h) || py::isinstance<py::list>(h) || py::isinstance<py::array>(h) ||
      is_bool_scalar(h)) {
    throw IndexError(
        "[index] integer and boolean array indices (advanced indexing) are not supported yet; "
        "got " + std::string(py::str(py::type::of(h))));
  }
  throw IndexError(std::string("[index] ") + kBadIndex);
}

Index to_index(py::handle key) {
  Index out;
  if (py::isinstance<py::tuple>(key)) {
    for (py::handle h : py::reinterpret_borrow<py::tuple>(key)) out.push_back(to_item(h));
  } else {
    out.push_back(to_item(key));
  }
  return out;
}

py::object getitem(const Array& a, py::handle key) { return py::cast(a[to_index(key)]); }

void setitem(const Array& a, py::handle key, py::handle value) {
  Index index = to_index(key);
  if (py::isinstance<Array>(value)) {
    a.set(index, value.cast<const Array&>());
    return;
  }
  if (std::optional<WeakScalar> w = to_weak(value, "setitem")) {
    if (w->kind == WeakKind::kComplex && !is_complex(a.dtype())) {
      throw DTypeError("[setitem] cannot assign the complex value " +
                       std::string(py::str(value)) + " to a " + std::string(name(a.dtype())) +
                       " array");
    }
    a.set(index, Arg(*w));
    return;
  }
  // numpy scalars and array-likes: numpy's own conversion to this dtype, then an upload.
  py::object data = py::module_::import("numpy").attr("asarray")(
      py::reinterpret_borrow<py::object>(value), to_numpy_dtype(a.dtype()));
  a.set(index, upload(data, a.dtype(), a.context(), "setitem"));
}

std::optional<std::vector<int64_t>> axes_arg(py::handle axes, std::string_view op) {
  if (axes.is_none()) return std::nullopt;
  if (is_integer(axes)) return std::vector<int64_t>{axes.attr("__index__")().cast<int64_t>()};
  std::vector<int64_t> out;
  for (py::handle h : axes) {
    if (!is_integer(h)) {
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
    if (is_integer(s)) return {s.attr("__index__")().cast<int64_t>()};
    Shape out;
    for (py::handle h : s) {
      if (!is_integer(h)) throw DTypeError("[" + std::string(op) + "] shape must be integers");
      out.push_back(h.attr("__index__")().cast<int64_t>());
    }
    return out;
  }
  Shape out;
  for (py::handle h : args) {
    if (!is_integer(h)) throw DTypeError("[" + std::string(op) + "] shape must be integers");
    out.push_back(h.attr("__index__")().cast<int64_t>());
  }
  return out;
}

void check_order(py::handle order, std::string_view op) {
  if (!order.is_none() && py::str(order).cast<std::string>() != "C") {
    throw ShapeError("[" + std::string(op) + "] only order='C' is supported, got order=" +
                     std::string(py::str(order)));
  }
}

Array as_array(py::handle x, std::string_view op) {
  if (py::isinstance<Array>(x)) return x.cast<Array>();
  return upload(x, std::nullopt, context_or_default(nullptr), op);
}

}  // namespace

void register_views(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  cls.def("__getitem__", &getitem,
          "numpy's basic indexing (integers, slices, ..., None): a view sharing this array's "
          "buffer, with no copy and no device work.");
  cls.def("__setitem__", &setitem,
          "numpy's assignment: the value is broadcast to the selection and converted to this "
          "dtype; runs at once, and every view of the buffer sees it.");
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
      "squeeze", [](const Array& a, py::object axis) { return squeeze(a, axes_arg(axis, "squeeze")); },
      py::arg("axis") = py::none());
  cls.def(
      "ravel",
      [](const Array& a, py::object order) {
        check_order(order, "ravel");
        return ravel(a);
      },
      py::arg("order") = py::none());
  cls.def(
      "flatten",
      [](const Array& a, py::object order) {
        check_order(order, "flatten");
        return flatten(a);
      },
      py::arg("order") = py::none());
  cls.def(
      "diagonal",
      [](const Array& a, int64_t offset, int64_t axis1, int64_t axis2) {
        return diagonal(a, offset, axis1, axis2);
      },
      py::arg("offset") = 0, py::arg("axis1") = 0, py::arg("axis2") = 1);
  cls.def(
      "copy",
      [](const Array& a, py::object order) {
        check_order(order, "copy");
        return copy(a);
      },
      py::arg("order") = py::none(), "A new array with the same values (never a view).");
  cls.def("__copy__", [](const Array& a) { return copy(a); });
  cls.def("__deepcopy__", [](const Array& a, py::handle) { return copy(a); });
  cls.def("fill", [](const Array& a, py::handle value) { setitem(a, py::ellipsis(), value); });

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
  m.def("matrix_transpose", [](py::object a) { return matrix_transpose(as_array(a, "matrix_transpose")); });
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
    return py::tuple(out);
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
      [](py::object a, py::object axis) { return flip(as_array(a, "flip"), axes_arg(axis, "flip")); },
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
  m.def("ascontiguousarray", [](py::object a, py::object dtype) {
        Array x = as_array(a, "ascontiguousarray");
        if (!dtype.is_none()) x = x.astype(to_dtype(dtype, "ascontiguousarray"));
        return ascontiguousarray(x);
      }, py::arg("a"), py::arg("dtype") = py::none());
  m.def(
      "copy", [](py::object a) { return copy(as_array(a, "copy")); }, py::arg("a"));
}

}  // namespace vka
