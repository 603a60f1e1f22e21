// vkarray.ndarray's memory layout as numpy's: the constructor ndarray(shape, dtype, buffer,
// offset, strides, order), settable shape and dtype, strides in bytes, base, and the
// primitives of view(dtype), flags and setflags (array/views.h: reinterpreting bytes).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/index_py.h"
#include "bindings/registry.h"

namespace vka {
namespace {

// a.shape = value: an int or a sequence of ints, one of which may be -1 (numpy's rules).
Shape assigned_shape(py::handle value) {
  auto bad = [&]() {
    return DTypeError("[shape] expected a sequence of integers or a single integer, got '" +
                      std::string(py::str(value)) + "'");
  };
  if (is_python_integer(value)) return {value.attr("__index__")().cast<int64_t>()};
  if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value)) throw bad();
  Shape out;
  for (py::handle h : value) {
    if (!is_python_integer(h)) throw bad();
    out.push_back(h.attr("__index__")().cast<int64_t>());
  }
  return out;
}

void set_shape_attr(Array& a, py::handle value) {
  if (!set_shape(a, assigned_shape(value))) {
    throw py::attribute_error(
        "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with "
        "the desired shape.");
  }
}

// The view this array has of its buffer, without computing anything: a value (an
// expression, or a buffer no view shares) is C-contiguous from element 0.
View current_view(const Array& a) {
  const NodePtr& n = a.node();
  if (n->is_leaf() && n->buffer()->is_storage()) return n->view();
  return View::contiguous(a.shape());
}

py::tuple byte_strides(const Array& a) {
  const View v = current_view(a);
  // numpy gives new memory of no elements zero strides (views of such memory keep theirs).
  const int64_t scale = a.size() == 0 && !a.is_storage() ? 0 : static_cast<int64_t>(a.itemsize());
  std::vector<int64_t> out;
  for (int64_t s : v.strides) out.push_back(s * scale);
  return to_tuple(out);
}

// (buffer id or None, offset, strides in elements, arrays viewing the buffer): what
// may_share_memory, flags, isfortran and resize's reference check read. An array with no
// storage shares memory with nothing.
py::tuple layout(const Array& a) {
  const View v = current_view(a);
  const NodePtr& n = a.node();
  if (!(n->is_leaf() && n->buffer()->is_storage())) {
    return py::make_tuple(py::none(), v.offset, to_tuple(v.strides), 1);
  }
  return py::make_tuple(py::int_(n->buffer()->id()), v.offset, to_tuple(v.strides),
                        n->buffer().use_count());
}

}  // namespace

void register_layout(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  cls.def(py::init([](py::args args, py::kwargs kwargs) {
            return py::module_::import("vkarray._layout")
                .attr("construct")(*args, **kwargs)
                .cast<Array>();
          }),
          R"doc(
numpy's ndarray(shape, dtype=float, buffer=None, offset=0, strides=None, order=None): an
uninitialized array on the default context; with `buffer` a vkarray.ndarray, a view of its
bytes (C-contiguous; offset and strides in bytes); with a host buffer (bytes, a numpy array,
anything with the buffer protocol), those bytes uploaded (a copy: host memory is not device
memory).
)doc");
  cls.def_property(
      "shape", [](const Array& a) { return to_tuple(a.shape()); }, &set_shape_attr,
      "The dimensions. Assigning reshapes this array in place, as numpy: a view of the same "
      "elements (no copy), or AttributeError where only a copy could have the new shape.");
  cls.def_property(
      "dtype", [](const Array& a) { return to_numpy_dtype(a.dtype()); },
      [](Array& a, py::handle dtype) { set_dtype(a, to_dtype(dtype, "dtype")); },
      "The element type. Assigning reinterprets the bytes in place, as numpy (a.view(dtype) "
      "without a new array).");
  cls.def_property_readonly("strides", &byte_strides,
                            "Bytes to step in each dimension (numpy's strides), of this "
                            "array's view of its device buffer.");
  cls.def_property_readonly(
      "base", [](const Array& a) -> py::object {
        std::optional<Array> b = a.base();
        return b ? py::cast(*b) : py::none();
      },
      "For a view, the array owning the memory it views (numpy's base); None for an owner. "
      "An object of its own: compare memory with numpy.shares_memory, not `is`.");
  m.def("_view_dtype", [](const Array& a, py::handle dtype) {
    return view_dtype(a, to_dtype(dtype, "view"));
  });
  m.def("_view_bytes", [](const Array& a, py::handle dtype, py::handle shape, int64_t offset,
                          std::optional<std::vector<int64_t>> strides) {
    return view_bytes(a, to_dtype(dtype, "ndarray"), to_shape(shape, "ndarray"), offset,
                      std::move(strides));
  });
  m.def("_view_field", [](const Array& a, py::handle dtype, int64_t offset) {
    return view_field(a, to_dtype(dtype, "getfield"), offset);
  });
  m.def("_replace", [](Array& a, const Array& other) { a.replace(other); });
  m.def("_set_writeable", [](Array& a, bool w) { a.set_writeable(w); });
  m.def("_layout", &layout);
}

}  // namespace vka
