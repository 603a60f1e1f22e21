// The helpers the indexing, view and selection bindings share (bindings/index_py.h): what is an
// integer or a boolean scalar, operands as arrays, and take's and put's mode=.
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "array/array.h"
#include "base/errors.h"
#include "bindings/index_py.h"
#include "bindings/operands_py.h"

namespace vka {

bool is_bool_scalar(py::handle h) {
  return py::isinstance<py::bool_>(h) ||
         py::isinstance(h, py::module_::import("numpy").attr("bool_"));
}

bool is_python_integer(py::handle h) {
  if (is_bool_scalar(h)) return false;
  if (py::isinstance<py::int_>(h)) return true;
  return py::isinstance(h, py::module_::import("numpy").attr("integer"));
}

Array as_array(py::handle x, std::string_view op, std::optional<DType> dtype,
               const std::shared_ptr<Context>& context) {
  if (py::isinstance<Array>(x)) return x.cast<Array>();
  return upload(x, dtype, context ? context : context_or_default(nullptr), op);
}

IndexMode to_index_mode(const std::string& mode, std::string_view op) {
  if (mode == "raise") return IndexMode::kRaise;
  if (mode == "wrap") return IndexMode::kWrap;
  if (mode == "clip") return IndexMode::kClip;
  throw ShapeError("[" + std::string(op) + "] mode must be 'raise', 'wrap' or 'clip', got '" +
                   mode + "'");
}

}  // namespace vka
