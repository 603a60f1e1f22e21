// numpy 2 dtype resolution for elementwise calls, then node construction.
#include "ir/node_ops.h"

#include <string>

#include "base/errors.h"

namespace vka {
namespace {

bool is_comparison(Op op) {
  return op == Op::kEqual || op == Op::kNotEqual || op == Op::kLess || op == Op::kLessEqual ||
         op == Op::kGreater || op == Op::kGreaterEqual;
}

struct Resolved {
  DType promoted;  // operands' common dtype before the op's rule
  DType compute;   // what operands are converted to
  DType result;
};

Resolved resolve(Op op, const std::vector<Operand>& operands) {
  const OpInfo& o = info(op);
  if (static_cast<int>(operands.size()) != o.arity || o.arity == 0) {
    throw ShapeError("[" + std::string(o.name) + "] takes " + std::to_string(o.arity) +
                     " operands, got " + std::to_string(operands.size()));
  }
  std::size_t first = o.rule == ResultRule::kWhere ? 1 : 0;
  // NEP 50: arrays decide among themselves; weak scalars then adapt (promotion.h).
  bool have_array = false;
  DType t = DType::kBool;
  for (std::size_t i = first; i < operands.size(); ++i) {
    if (auto* n = std::get_if<NodePtr>(&operands[i])) {
      t = have_array ? result_type(t, (*n)->dtype()) : (*n)->dtype();
      have_array = true;
    }
  }
  if (!have_array && first == 1 && std::holds_alternative<NodePtr>(operands[0])) {
    // where(array_cond, 1, 2.0): only scalars among the values; numpy treats them as if
    // they were strong Python-default dtypes.
    t = DType::kBool;
  } else if (!have_array) {
    throw DTypeError("[" + std::string(o.name) + "] needs at least one array operand");
  }
  bool weak_only = !have_array;
  for (std::size_t i = first; i < operands.size(); ++i) {
    if (auto* w = std::get_if<WeakScalar>(&operands[i])) {
      if (weak_only) {
        // Python-only values: int → int64, float → float64, complex → complex128.
        t = result_type(t, result_type(DType::kBool, w->kind));
      } else {
        t = result_type(t, w->kind);
      }
    }
  }
  for (std::size_t i = first; i < operands.size(); ++i) {
    auto* w = std::get_if<WeakScalar>(&operands[i]);
    if (!w || w->kind != WeakKind::kInt || weak_int_fits(w->i, t)) continue;
    if (!is_comparison(op)) check_weak_int_fits(o.name, w->i, t);
    // numpy 2 compares out-of-range Python ints exactly (int8_array == 300 is all False):
    // compare in a dtype that holds both.
    bool fits_i64 = weak_int_fits(w->i, DType::kInt64);
    t = (fits_i64 && t != DType::kUInt64) ? DType::kInt64 : DType::kFloat64;
  }
  check_accepts(op, t);
  DType c = compute_dtype(op, t);
  return Resolved{t, c, result_dtype(op, c)};
}

}  // namespace

Scalar WeakScalar::to(DType t) const {
  switch (kind) {
    case WeakKind::kBool:
    case WeakKind::kInt:
      if (i.negative) return Scalar::of_int(static_cast<int64_t>(~i.magnitude + 1), t);
      return Scalar::of_uint(i.magnitude, t);
    case WeakKind::kFloat:
    case WeakKind::kComplex:
      return Scalar::of_complex(c, t);
  }
  return Scalar::of_complex(c, t);
}

DType apply_result_dtype(Op op, const std::vector<Operand>& operands) {
  return resolve(op, operands).result;
}

NodePtr apply(Graph& g, Op op, const std::vector<Operand>& operands) {
  Resolved r = resolve(op, operands);
  bool is_where = info(op).rule == ResultRule::kWhere;
  std::vector<NodePtr> inputs;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    DType want = (is_where && i == 0) ? DType::kBool : r.compute;
    if (auto* n = std::get_if<NodePtr>(&operands[i])) {
      inputs.push_back(g.astype(*n, want));
    } else {
      inputs.push_back(g.full(std::get<WeakScalar>(operands[i]).to(want)));
    }
  }
  return g.elementwise(op, r.result, std::move(inputs));
}

}  // namespace vka
