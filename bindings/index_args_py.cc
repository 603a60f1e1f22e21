// The helpers the indexing, view and selection bindings share (bindings/index_py.h): index
// items and basic keys, what is an integer or a boolean scalar, operands as arrays, and take's and
// put's mode=.
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "array/array.h"
#include "base/errors.h"
#include "bindings/index_py.h"
#include "bindings/operands_py.h"

namespace vka {

namespace {

// numpy's scalar type `name`, looked up once: indexing asks for each item of every key, and an
// import costs more than the rest of a basic index. Never released (numpy outlives every call).
py::handle numpy_type(const char* name) {
  return py::object(py::module_::import("numpy").attr(name)).release();
}

}  // namespace

bool is_bool_scalar(py::handle h) {
  static const py::handle numpy_bool = numpy_type("bool_");
  return py::isinstance<py::bool_>(h) || py::isinstance(h, numpy_bool);
}

bool is_python_integer(py::handle h) {
  static const py::handle numpy_integer = numpy_type("integer");
  if (PyLong_CheckExact(h.ptr())) return true;
  if (is_bool_scalar(h)) return false;
  if (py::isinstance<py::int_>(h)) return true;
  return py::isinstance(h, numpy_integer);
}

Array as_array(py::handle x, std::string_view op, std::optional<DType> dtype,
               const std::shared_ptr<Context>& context) {
  if (py::isinstance<Array>(x)) return x.cast<Array>();
  return upload(x, dtype, context ? context : context_or_default(nullptr), op);
}

namespace {

std::optional<int64_t> slice_bound(py::handle h) {
  if (h.is_none()) return std::nullopt;
  if (!py::hasattr(h, "__index__")) {
    throw py::type_error("slice indices must be integers or None or have an __index__ method");
  }
  py::object i = h.attr("__index__")();
  return i.cast<int64_t>();
}

}  // namespace

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
  if (is_python_integer(h)) {
    py::object i = h.attr("__index__")();
    try {
      return i.cast<int64_t>();
    } catch (const py::cast_error&) {
      throw IndexError("[index] index " + std::string(py::str(i)) + " is out of bounds");
    }
  }
  throw IndexError(std::string("[index] ") + kBadIndex);
}

std::optional<Index> basic_index(py::handle key) {
  Index out;
  auto add = [&out](py::handle h) {
    if (PyLong_CheckExact(h.ptr())) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
      if (overflow != 0) return false;  // the general path names the index
      out.push_back(static_cast<int64_t>(v));
    } else if (PySlice_Check(h.ptr()) || h.is_none() || h.ptr() == Py_Ellipsis) {
      out.push_back(to_item(h));
    } else {
      return false;
    }
    return true;
  };
  if (PyTuple_CheckExact(key.ptr())) {
    for (py::handle h : py::reinterpret_borrow<py::tuple>(key)) {
      if (!add(h)) return std::nullopt;
    }
  } else if (!add(key)) {
    return std::nullopt;
  }
  return out;
}

IndexMode to_index_mode(const std::string& mode, std::string_view op) {
  if (mode == "raise") return IndexMode::kRaise;
  if (mode == "wrap") return IndexMode::kWrap;
  if (mode == "clip") return IndexMode::kClip;
  throw ShapeError("[" + std::string(op) + "] mode must be 'raise', 'wrap' or 'clip', got '" +
                   mode + "'");
}

}  // namespace vka
