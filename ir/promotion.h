// numpy 2 type promotion (NEP 50): dtype × dtype, and arrays with weak Python scalars.
#pragma once

#include <cstdint>
#include <string_view>

#include "ir/dtype.h"

namespace vka {

// numpy 2's np.result_type / np.promote_types for two dtypes (symmetric, associative on the
// 14 dtypes here).
DType result_type(DType a, DType b);

// numpy's np.can_cast(from, to, casting) for casting "safe" (no value can change) and
// "same_kind" (safe, or within the order bool < unsigned < signed < float < complex).
enum class Casting : uint8_t { kSafe, kSameKind };
bool can_cast(DType from, DType to, Casting casting);

// The kind of a Python scalar operand. NEP 50: Python bool/int/float/complex are "weak":
// they take the array's dtype when the array's kind is at least the scalar's kind.
enum class WeakKind : uint8_t { kBool, kInt, kFloat, kComplex };
std::string_view name(WeakKind k);

// The dtype of (array of dtype `t`) ⊕ (weak Python scalar of kind `k`).
DType result_type(DType t, WeakKind k);

// A Python integer as it reaches C++: values in [-2^63, 2^64). Larger ones are rejected by
// the binding before they get here, as numpy rejects them when converting to int64/uint64.
struct PyInt {
  bool negative;       // value < 0
  uint64_t magnitude;  // |value|
  static PyInt of(int64_t v);
  static PyInt of_unsigned(uint64_t v);
};

// NEP 50 / numpy 2: a Python int that does not fit the integer dtype it is converted to is
// an error, not a silent upcast (`int8_array + 300` raises "Python integer 300 out of bounds
// for int8"). Throws OverflowError with op and values; no-op for non-integer `t`.
void check_weak_int_fits(std::string_view op, PyInt value, DType t);

// True when `value` lies in the range of dtype `t` (integers: exact range; bool: 0 and 1;
// floats and complex: always, as numpy converts and may overflow to inf).
bool weak_int_fits(PyInt value, DType t);

}  // namespace vka
