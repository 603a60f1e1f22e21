// The exception vocabulary of vkarray; the Python binding maps each type to one builtin.
#pragma once

#include <stdexcept>
#include <string>

namespace vka {

// Base of every vkarray error. Messages start with "[op]" and print the offending values.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ShapeError : public Error {  // Python ValueError
 public:
  using Error::Error;
};
class DTypeError : public Error {  // Python TypeError
 public:
  using Error::Error;
};
// A Python integer that does not fit the dtype it must become (numpy 2: `int8_array + 300`).
class OverflowError : public Error {  // Python OverflowError
 public:
  using Error::Error;
};
class IndexError : public Error {  // Python IndexError
 public:
  using Error::Error;
};
// An axis out of range: numpy's AxisError in Python (both a ValueError and an IndexError).
class AxisError : public IndexError {
 public:
  using IndexError::IndexError;
};
class OutOfMemory : public Error {  // Python MemoryError
 public:
  using Error::Error;
};
class DeviceError : public Error {  // Python RuntimeError
 public:
  using Error::Error;
};
class CompileError : public Error {  // Python RuntimeError
 public:
  using Error::Error;
};

// Thrown when an internal invariant breaks: a bug in vkarray, never a user error.
class InternalError : public Error {
 public:
  using Error::Error;
};

[[noreturn]] void internal_error(const char* what, const char* file, int line);

}  // namespace vka

// Internal invariant check; active in every build. Says "internal error" so users report it.
#define VKA_ASSERT(cond)                                           \
  do {                                                             \
    if (!(cond)) ::vka::internal_error(#cond, __FILE__, __LINE__); \
  } while (0)
