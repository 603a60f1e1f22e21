// The one map from vkarray's C++ exceptions to Python's builtin exceptions.
#pragma once

#include <pybind11/pybind11.h>

namespace vka {

// ShapeError → ValueError, DTypeError → TypeError, IndexError → IndexError,
// OverflowError → OverflowError,
// OutOfMemory → MemoryError, DeviceError / CompileError / InternalError → RuntimeError.
void register_error_translator();

// _vkarray._raise_error(kind, message): throws the named vka error (for the translator's tests).
void register_error_check(pybind11::module_& m);

}  // namespace vka
