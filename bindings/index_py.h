// Helpers the indexing, view and selection bindings share (index_args_py.cc defines them).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "array/array.h"

namespace vka {

namespace py = pybind11;

inline constexpr const char* kBadIndex =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices";

// One item of an index key: an integer (anything with __index__ that numpy takes), a slice,
// None (a new axis) or Ellipsis; IndexError with kBadIndex for anything else.
IndexItem to_item(py::handle h);

// A key of exact Python ints, slices, None and Ellipsis (x[i, j], x[1:-1], x[:, None]): basic
// indexing, read without the general path's checks for arrays, masks and numpy scalars (a loop
// over elements makes this the common key). Nullopt for any other key.
std::optional<Index> basic_index(py::handle key);

// A Python bool or numpy.bool_.
bool is_bool_scalar(py::handle h);

// A Python int or numpy integer (bools are not integers here, as in numpy's indexing).
bool is_python_integer(py::handle h);

// `x` as an ndarray: itself, or numpy's conversion of it (to `dtype` when given) uploaded to
// `context` (the default context when null).
Array as_array(py::handle x, std::string_view op, std::optional<DType> dtype = std::nullopt,
               const std::shared_ptr<Context>& context = nullptr);

// numpy's mode= of take and put: 'raise', 'wrap' or 'clip' (ValueError naming `op` otherwise).
IndexMode to_index_mode(const std::string& mode, std::string_view op);

}  // namespace vka
