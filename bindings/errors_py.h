// The one map from vkarray's C++ exceptions to Python's builtin exceptions.
#pragma once

#include <pybind11/pybind11.h>

namespace vka {

// ShapeError → ValueError, DTypeError → TypeError, IndexError → IndexError,
// OutOfMemory → MemoryError, DeviceError / CompileError / InternalError → RuntimeError.
void register_error_translator();

}  // namespace vka
