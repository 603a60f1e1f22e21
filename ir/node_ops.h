// Typed construction of elementwise nodes: numpy 2 promotion, weak Python scalars, casts.
#pragma once

#include <complex>
#include <variant>
#include <vector>

#include "ir/graph.h"
#include "ir/promotion.h"

namespace vka {

// A Python scalar operand (NEP 50 "weak": it adapts to the array's dtype).
struct WeakScalar {
  WeakKind kind = WeakKind::kFloat;
  PyInt i{false, 0};             // kBool (0/1) and kInt
  std::complex<double> c{0, 0};  // kFloat (real part) and kComplex

  static WeakScalar of_bool(bool v) { return {WeakKind::kBool, PyInt::of(v ? 1 : 0), {}}; }
  static WeakScalar of_int(int64_t v) { return {WeakKind::kInt, PyInt::of(v), {}}; }
  static WeakScalar of_uint(uint64_t v) { return {WeakKind::kInt, PyInt::of_unsigned(v), {}}; }
  static WeakScalar of_float(double v) { return {WeakKind::kFloat, {}, {v, 0}}; }
  static WeakScalar of_complex(std::complex<double> v) { return {WeakKind::kComplex, {}, v}; }

  // The value as a Scalar of dtype t (numpy's conversion of a Python scalar).
  Scalar to(DType t) const;
};

using Operand = std::variant<NodePtr, WeakScalar>;

// Builds op(operands...) with numpy 2 semantics: promotes array dtypes and weak scalars,
// checks the op accepts the promoted dtype (DTypeError), checks Python ints fit (DTypeError
// "[add] Python integer 300 out of bounds for int8"; comparisons instead widen, as numpy 2
// compares exactly), converts operands to the compute dtype with astype nodes, and broadcasts
// shapes (ShapeError). At least one operand must be an array.
NodePtr apply(Graph& g, Op op, const std::vector<Operand>& operands);
inline NodePtr apply(Op op, const std::vector<Operand>& operands) {
  return apply(default_graph(), op, operands);
}

// The dtype apply() would give, without building anything (for `out=` checks and the binding).
DType apply_result_dtype(Op op, const std::vector<Operand>& operands);

}  // namespace vka
