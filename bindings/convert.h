// Conversions between Python/numpy values and vkarray's host-side types: dtypes, shapes,
// replica indices, and numpy arrays ↔ host bytes.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/dtype.h"

namespace vka {

namespace py = pybind11;

// Anything numpy accepts as a dtype ('f4', np.float32, np.dtype('int32'), float, ...) → DType.
// DTypeError (TypeError) naming `op` and the dtype for what vkarray cannot hold: object, str,
// datetime, structured, float128, big-endian.
DType to_dtype(py::handle dtype_like, std::string_view op);

// The numpy dtype of `t` (a cached np.dtype instance).
py::dtype to_numpy_dtype(DType t);

// An int or a sequence of ints (numpy integers accepted) → dimensions. ShapeError (ValueError)
// naming the value and the whole shape for bool, non-integer or negative dimensions.
std::vector<int64_t> to_shape(py::handle shape, std::string_view op);
py::tuple to_tuple(const std::vector<int64_t>& shape);

// None → nullopt; an int → that replica. Negative indices are rejected (IndexError), because
// vkdispatch used -1 to mean "every replica" and silently wrapping it would hide that bug.
// The range check against the context is the C++ layer's (IndexError naming the range).
// `what` names the index in messages ("device index" for Context(devices=...)).
std::optional<int> to_replica_index(py::handle index, std::string_view op,
                                    const char* what = "replica index");

// Host bytes for a write, kept alive by `owner`.
struct HostData {
  py::object owner;
  const void* ptr = nullptr;
  uint64_t nbytes = 0;
};

// `data` as bytes of a C-contiguous array of `dtype` with `size` elements laid out as `shape`.
// bytes/bytearray/memoryview are taken as raw bytes (the byte count is checked by the writer).
// Anything else goes through np.asarray and must have exactly `shape`, or be 1-d with the
// same element count. Its dtype is converted only when no value changes beyond rounding:
// bool → anything, int → int when every value fits, int/float → float/complex when no finite
// value overflows to inf. float → int, complex → real and anything → bool are refused.
HostData host_data_for_write(py::handle data, const std::vector<int64_t>& shape, DType dtype,
                             std::string_view op);

// np.asarray(data) in native byte order, with its vkarray dtype in `*dtype`; DTypeError naming
// `op` for data of a dtype vkarray cannot hold.
py::array as_supported_array(py::handle data, std::string_view op, DType* dtype);

}  // namespace vka
