// Python values as operands of vkarray ops (ndarrays, weak Python scalars, strong numpy values)
// and the rules every op call shares: ufunc dtype=, out= and in-place stores, uploads.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "array/array.h"
#include "bindings/convert.h"

namespace vka {

// One converted operand: an array (strong), or a Python scalar (weak, NEP 50).
struct PyOperand {
  std::optional<Array> array;
  WeakScalar weak;
};

// What counts as an operand. Operators take ndarrays, numpy scalars and arrays, and Python
// scalars, and return NotImplemented for anything else; ufunc-style functions also take any
// array-like through np.asarray (lists), as numpy's ufuncs do.
enum class Accept { kOperator, kFunction };

// True when `h` is a vkarray.ndarray (or a subclass): one type check, without pybind11's
// registry lookup.
bool is_array(py::handle h);

// Converts `values` for `op`; nullopt when one is not an operand under kOperator. numpy data
// is uploaded to the context of the first ndarray operand (the default context if none). Under
// kFunction, when no operand is an array, Python scalars become strong arrays of numpy's
// default dtype (vk.add(1, 2.5) is float64), as numpy does with Python-only operands.
std::optional<std::vector<PyOperand>> to_operands(const std::vector<py::handle>& values,
                                                  Accept accept, std::string_view op);

// op(operands...) with numpy's ufunc `dtype=`: array inputs are cast to `dtype` first (only
// under same_kind), and the result must cast to it under same_kind (predicates stay bool).
Array call_op(Op op, const std::vector<PyOperand>& operands, std::optional<DType> dtype);

// numpy's `out=` and in-place store: `result` must have out's shape and cast to out's dtype
// under same_kind; otherwise ValueError/TypeError and `out` is unchanged. On success `out`
// (and every Python name bound to it) takes the value.
void store_into(Array& out, Array result, Op op);

// Python object `value` (ndarray or not) as an ndarray bound into `out` (None: a new array).
py::object result_or_out(Array result, py::handle out, Op op);

// np.asarray(data[, dtype]) on `context`: 0-d data becomes a constant node (no transfer),
// anything else is uploaded to every replica.
Array upload(py::handle data, std::optional<DType> dtype, const std::shared_ptr<Context>& context,
             std::string_view op);

// A Python or numpy scalar as a Scalar: of `dtype` when given (Python ints must fit it, else
// OverflowError as numpy 2 raises), else of its own (numpy scalar) or numpy's default dtype.
// Throws DTypeError naming `op` for values that are not scalars.
Scalar to_scalar(py::handle value, std::optional<DType> dtype, std::string_view op);

// Python bool/int/float/complex → WeakScalar; nullopt for anything else (numpy scalars too).
// Python ints outside [-2^63, 2^64) raise OverflowError naming `op`.
std::optional<WeakScalar> to_weak(py::handle value, std::string_view op);

// `context` or the process default.
std::shared_ptr<Context> context_or_default(std::shared_ptr<Context> context);

// Throws OverflowError (Python's builtin; the C++ error map has no overflow type).
[[noreturn]] void throw_overflow(const std::string& message);

}  // namespace vka
