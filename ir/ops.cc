// The op table expanded once, and the per-op dtype rules (which dtypes, which result).
#include "ir/ops.h"

#include <array>
#include <string>

#include "base/errors.h"
#include "ir/promotion.h"

namespace vka {
namespace {

constexpr std::array<OpInfo, kNumOps> kTable = {{
#define VKA_OP(e, name, arity, kind, kinds, rule, real, complex, glsl, numpy, aliases, identity, \
               cost)                                                                             \
  {Op::e,          #name,                                                                        \
   arity,          OpKind::kind,                                                                 \
   kinds,          ResultRule::rule,                                                             \
   EmitForm::real, EmitForm::complex,                                                            \
   glsl,           numpy,                                                                        \
   aliases,        identity,                                                                     \
   Cost::cost},
#include "ir/ops.def"
#undef VKA_OP
}};

// Position of dtype t's kind letter in an op's `kinds` string, or npos.
std::size_t find_kind(const OpInfo& op, DType t, bool* implemented) {
  char k = info(t).kind;
  for (std::size_t i = 0; i < op.kinds.size(); ++i) {
    char c = op.kinds[i];
    // ASCII case folding: this runs on every elementwise call, and std::tolower consults the
    // locale.
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) == k) {
      *implemented = (c == k);
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

const OpInfo& info(Op op) { return kTable[static_cast<std::size_t>(op)]; }

std::string_view name(OpKind k) {
  switch (k) {
    case OpKind::kLeaf:
      return "leaf";
    case OpKind::kSource:
      return "source";
    case OpKind::kUnary:
      return "unary";
    case OpKind::kBinary:
      return "binary";
    case OpKind::kTernary:
      return "ternary";
    case OpKind::kReduce:
      return "reduce";
    case OpKind::kMovement:
      return "movement";
    case OpKind::kContract:
      return "contract";
    case OpKind::kLibrary:
      return "library";
  }
  return "?";
}

Op op_from_name(std::string_view text) {
  for (const OpInfo& o : kTable) {
    if (text == o.name || (!o.numpy.empty() && text == o.numpy)) return o.op;
  }
  throw DTypeError("[op] unknown operation '" + std::string(text) + "'");
}

bool accepts(Op op, DType t) {
  bool implemented = false;
  return find_kind(info(op), t, &implemented) != std::string_view::npos && implemented;
}

void check_accepts(Op op, DType t) {
  bool implemented = false;
  const OpInfo& o = info(op);
  if (find_kind(o, t, &implemented) == std::string_view::npos) {
    throw DTypeError("[" + std::string(o.name) + "] not supported for dtype " +
                     std::string(name(t)) + " (numpy has no such loop either)");
  }
  if (!implemented) {
    throw DTypeError("[" + std::string(o.name) + "] not supported for dtype " +
                     std::string(name(t)) + " yet (numpy accepts it; vkarray does not)");
  }
}

DType smallest_float_for(DType t) {
  if (!is_bool(t) && !is_integer(t)) return t;
  std::size_t n = itemsize(t);
  return n <= 1 ? DType::kFloat16 : n <= 2 ? DType::kFloat32 : DType::kFloat64;
}

DType real_dtype(DType t) {
  if (t == DType::kComplex64) return DType::kFloat32;
  if (t == DType::kComplex128) return DType::kFloat64;
  return t;
}

DType compute_dtype(Op op, const std::vector<DType>& operands) {
  const OpInfo& o = info(op);
  VKA_ASSERT(static_cast<int>(operands.size()) == o.arity && o.arity > 0);
  std::size_t first = o.rule == ResultRule::kWhere ? 1 : 0;
  DType t = operands[first];
  for (std::size_t i = first + 1; i < operands.size(); ++i) t = result_type(t, operands[i]);
  return compute_dtype(op, t);
}

DType compute_dtype(Op op, DType t) {
  // Ops whose integer loops do not exist in numpy compute in a float, so the operands are
  // converted first (sqrt(int16) converts to float32, then takes the root).
  switch (info(op).rule) {
    case ResultRule::kFloat:
      return smallest_float_for(t);
    case ResultRule::kTrueDivide:
      return (is_bool(t) || is_integer(t)) ? DType::kFloat64 : t;
    case ResultRule::kNoBool:
      return is_bool(t) ? DType::kInt8 : t;
    case ResultRule::kSame:
    case ResultRule::kBool:
    case ResultRule::kReal:
    case ResultRule::kWhere:
    case ResultRule::kExplicit:
      return t;
  }
  return t;
}

DType result_dtype(Op op, DType compute) {
  switch (info(op).rule) {
    case ResultRule::kBool:
      return DType::kBool;
    case ResultRule::kReal:
      return real_dtype(compute);
    case ResultRule::kSame:
    case ResultRule::kNoBool:
    case ResultRule::kFloat:
    case ResultRule::kTrueDivide:
    case ResultRule::kWhere:
    case ResultRule::kExplicit:
      return compute;
  }
  return compute;
}

uint64_t ops_table_fingerprint() {
  // FNV-1a over every column that changes generated code or dtype rules.
  uint64_t h = 14695981039346656037ull;
  auto mix = [&h](std::string_view s) {
    for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  };
  for (const OpInfo& o : kTable) {
    mix(o.name);
    mix(std::to_string(o.arity) + name(o.kind).data() + std::to_string(int(o.rule)));
    mix(o.kinds);
    mix(o.glsl);
    mix(std::to_string(int(o.real)) + std::to_string(int(o.complex)));
  }
  return h;
}

DType linspace_compute_dtype(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
    case DType::kFloat32:
      return DType::kFloat32;
    case DType::kComplex64:
    case DType::kComplex128:
      return dtype;
    case DType::kBool:
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kInt16:
    case DType::kUInt16:
    case DType::kInt32:
    case DType::kUInt32:
    case DType::kInt64:
    case DType::kUInt64:
    case DType::kFloat64:
      return DType::kFloat64;
  }
  return DType::kFloat64;
}

}  // namespace vka
