// Python values as operands of vkarray ops (ndarrays, weak Python scalars, strong numpy values)
// and the rules every op call shares: numpy's casting rules, the out=/dtype= finisher, in-place
// stores, uploads.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
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
// The Array inside an ndarray `h` (is_array(h)): its one value slot, without a type lookup.
const Array& array_in(py::handle h);

// Converts `values` for `op`; nullopt when one is not an operand under kOperator. numpy data
// is uploaded to the context of the first ndarray operand (the default context if none). Under
// kFunction, when no operand is an array, Python scalars become strong arrays of numpy's
// default dtype (vk.add(1, 2.5) is float64), as numpy does with Python-only operands.
std::optional<std::vector<PyOperand>> to_operands(const std::vector<py::handle>& values,
                                                  Accept accept, std::string_view op);

// op(operands...): arrays strong, Python scalars weak (NEP 50).
Array call_op(Op op, const std::vector<PyOperand>& operands);

// numpy's casting= rules: 'no' and 'equiv' (the same dtype), 'safe', 'same_kind', 'unsafe'.
enum class CastRule : uint8_t { kNo, kEquiv, kSafe, kSameKind, kUnsafe };
// The rule named `text`; ValueError naming `op` for any other text.
CastRule to_cast_rule(std::string_view text, std::string_view op);
std::string_view name(CastRule rule);
bool allows(CastRule rule, DType from, DType to);

// How finish() treats a result: `dtype=` (the result is converted to it first), the casting
// rule for that conversion and for the store into out=, a ufunc's where= mask, whether out must
// have the result's shape exactly (numpy's non-ufunc functions and reductions) or takes it
// broadcast (ufuncs), and the names errors carry: "[op]" and, for ufuncs, numpy's "ufunc 'x'".
struct Finish {
  std::string op;
  std::string ufunc;  // empty: not a ufunc; cast errors use numpy's array-cast wording
  std::optional<DType> dtype;
  CastRule casting = CastRule::kSameKind;
  py::handle where;  // None or True: store everywhere
  bool exact_shape = false;
};

// The one out=/dtype= finisher every function with out= or dtype= ends in (C++ and, through
// vkarray._vkarray._finish, Python): `result` converted to `f.dtype`, then, without out=,
// returned; with out= (an ndarray, or a 1-tuple of one), checked against out's shape and dtype
// under `f.casting` and stored into it where `f.where` holds, and out returned. On an error out
// is unchanged.
py::object finish(Array result, py::handle out, const Finish& f);

// finish() for op-table ops: "[name] ... ufunc 'numpy name'", same_kind, broadcast.
py::object result_or_out(Array result, py::handle out, Op op);

// numpy's in-place store (x += y): `result` must have out's shape up to broadcasting and cast
// to out's dtype under same_kind; otherwise ValueError/TypeError and `out` is unchanged. On
// success `out` (and every Python name bound to it) takes the value.
void store_into(Array& out, Array result, Op op);

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
