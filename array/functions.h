// The C++ operators and numpy-named functions of vka::Array, expanded from ir/ops.def.
#pragma once

namespace vka {

// One function per elementwise row of ir/ops.def (a kUnary, kBinary or kTernary row with a
// real form): fn(x), fn(a, b) or fn(a, b, c) calling apply() with the row's op.
#define VKA_FN_kUnary(fn, op) \
  inline Array fn(const Array& x) { return apply(Op::op, {x}); }
#define VKA_FN_kBinary(fn, op) \
  inline Array fn(const Arg& a, const Arg& b) { return apply(Op::op, {a, b}); }
#define VKA_FN_kTernary(fn, op) \
  inline Array fn(const Arg& a, const Arg& b, const Arg& c) { return apply(Op::op, {a, b, c}); }
#define VKA_FN_kLeaf(fn, op)
#define VKA_FN_kSource(fn, op)
#define VKA_FN_kMovement(fn, op)
#define VKA_FN_kReduce(fn, op)
#define VKA_FN_kContract(fn, op)
#define VKA_FN_FORM_kNone(kind, fn, op)
#define VKA_FN_FORM_kTemplate(kind, fn, op) VKA_FN_##kind(fn, op)
#define VKA_FN_FORM_kMath(kind, fn, op) VKA_FN_##kind(fn, op)
#define VKA_FN_FORM_kCustom(kind, fn, op) VKA_FN_##kind(fn, op)
#define VKA_OP(e, name, arity, kind, kinds, rule, real, ...) VKA_FN_FORM_##real(kind, name, e)
#include "ir/ops.def"
#undef VKA_OP
#undef VKA_FN_FORM_kNone
#undef VKA_FN_FORM_kTemplate
#undef VKA_FN_FORM_kMath
#undef VKA_FN_FORM_kCustom
#undef VKA_FN_kUnary
#undef VKA_FN_kBinary
#undef VKA_FN_kTernary
#undef VKA_FN_kLeaf
#undef VKA_FN_kSource
#undef VKA_FN_kMovement
#undef VKA_FN_kReduce
#undef VKA_FN_kContract

// numpy's clip: minimum(maximum(x, lo), hi), NaN propagating as numpy's does.
inline Array clip(const Arg& x, const Arg& lo, const Arg& hi) {
  return minimum(maximum(x, lo), hi);
}

// Operators, as numpy defines them on arrays.
inline Array operator+(const Arg& a, const Arg& b) { return add(a, b); }
inline Array operator-(const Arg& a, const Arg& b) { return subtract(a, b); }
inline Array operator*(const Arg& a, const Arg& b) { return multiply(a, b); }
inline Array operator/(const Arg& a, const Arg& b) { return divide(a, b); }
inline Array operator%(const Arg& a, const Arg& b) { return remainder(a, b); }
inline Array operator&(const Arg& a, const Arg& b) { return bitwise_and(a, b); }
inline Array operator|(const Arg& a, const Arg& b) { return bitwise_or(a, b); }
inline Array operator^(const Arg& a, const Arg& b) { return bitwise_xor(a, b); }
inline Array operator<<(const Arg& a, const Arg& b) { return left_shift(a, b); }
inline Array operator>>(const Arg& a, const Arg& b) { return right_shift(a, b); }
inline Array operator==(const Arg& a, const Arg& b) { return equal(a, b); }
inline Array operator!=(const Arg& a, const Arg& b) { return not_equal(a, b); }
inline Array operator<(const Arg& a, const Arg& b) { return less(a, b); }
inline Array operator<=(const Arg& a, const Arg& b) { return less_equal(a, b); }
inline Array operator>(const Arg& a, const Arg& b) { return greater(a, b); }
inline Array operator>=(const Arg& a, const Arg& b) { return greater_equal(a, b); }
inline Array operator-(const Array& x) { return negative(x); }
inline Array operator+(const Array& x) { return positive(x); }
inline Array operator~(const Array& x) { return bitwise_not(x); }

}  // namespace vka
