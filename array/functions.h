// The C++ operators and numpy-named functions of vka::Array: each is one line calling apply()
// with its op from ops.def (tests/array/functions_test.cc checks none is missing).
#pragma once

namespace vka {

#define VKA_UNARY(fn, op) \
  inline Array fn(const Array& x) { return apply(Op::op, {x}); }
#define VKA_BINARY(fn, op) \
  inline Array fn(const Arg& a, const Arg& b) { return apply(Op::op, {a, b}); }

VKA_UNARY(negative, kNegative)
VKA_UNARY(positive, kPositive)
VKA_UNARY(abs, kAbs)
VKA_UNARY(sign, kSign)
VKA_UNARY(square, kSquare)
VKA_UNARY(reciprocal, kReciprocal)
VKA_UNARY(conj, kConj)
VKA_UNARY(real, kReal)
VKA_UNARY(imag, kImag)
VKA_UNARY(sqrt, kSqrt)
VKA_UNARY(exp, kExp)
VKA_UNARY(exp2, kExp2)
VKA_UNARY(expm1, kExpm1)
VKA_UNARY(log, kLog)
VKA_UNARY(log2, kLog2)
VKA_UNARY(log10, kLog10)
VKA_UNARY(log1p, kLog1p)
VKA_UNARY(sin, kSin)
VKA_UNARY(cos, kCos)
VKA_UNARY(tan, kTan)
VKA_UNARY(arcsin, kArcsin)
VKA_UNARY(arccos, kArccos)
VKA_UNARY(arctan, kArctan)
VKA_UNARY(sinh, kSinh)
VKA_UNARY(cosh, kCosh)
VKA_UNARY(tanh, kTanh)
VKA_UNARY(arcsinh, kArcsinh)
VKA_UNARY(arccosh, kArccosh)
VKA_UNARY(arctanh, kArctanh)
VKA_UNARY(floor, kFloor)
VKA_UNARY(ceil, kCeil)
VKA_UNARY(trunc, kTrunc)
VKA_UNARY(round, kRound)
VKA_UNARY(rint, kRint)
VKA_UNARY(isnan, kIsnan)
VKA_UNARY(isinf, kIsinf)
VKA_UNARY(isfinite, kIsfinite)
VKA_UNARY(signbit, kSignbit)
VKA_UNARY(logical_not, kLogicalNot)
VKA_UNARY(bitwise_not, kBitwiseNot)
VKA_UNARY(frexp_exponent, kFrexpExponent)

VKA_BINARY(add, kAdd)
VKA_BINARY(subtract, kSubtract)
VKA_BINARY(multiply, kMultiply)
VKA_BINARY(divide, kDivide)
VKA_BINARY(floor_divide, kFloorDivide)
VKA_BINARY(remainder, kRemainder)
VKA_BINARY(power, kPower)
VKA_BINARY(arctan2, kArctan2)
VKA_BINARY(hypot, kHypot)
VKA_BINARY(copysign, kCopysign)
VKA_BINARY(maximum, kMaximum)
VKA_BINARY(minimum, kMinimum)
VKA_BINARY(fmax, kFmax)
VKA_BINARY(fmin, kFmin)
VKA_BINARY(ldexp, kLdexp)
VKA_BINARY(nextafter, kNextafter)
VKA_BINARY(logical_and, kLogicalAnd)
VKA_BINARY(logical_or, kLogicalOr)
VKA_BINARY(logical_xor, kLogicalXor)
VKA_BINARY(bitwise_and, kBitwiseAnd)
VKA_BINARY(bitwise_or, kBitwiseOr)
VKA_BINARY(bitwise_xor, kBitwiseXor)
VKA_BINARY(left_shift, kLeftShift)
VKA_BINARY(right_shift, kRightShift)
VKA_BINARY(equal, kEqual)
VKA_BINARY(not_equal, kNotEqual)
VKA_BINARY(less, kLess)
VKA_BINARY(less_equal, kLessEqual)
VKA_BINARY(greater, kGreater)
VKA_BINARY(greater_equal, kGreaterEqual)

#undef VKA_UNARY
#undef VKA_BINARY

inline Array where(const Arg& cond, const Arg& a, const Arg& b) {
  return apply(Op::kWhere, {cond, a, b});
}
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
