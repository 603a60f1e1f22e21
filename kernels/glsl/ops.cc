// Real-valued (bool, integer, float) op emission: the op table's forms and its kCustom rows.
#include "kernels/glsl/ops.h"

#include "base/errors.h"

namespace vka {
namespace {

std::string fmt(std::string_view tmpl, const std::vector<std::string>& args) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '{' && i + 2 < tmpl.size() && tmpl[i + 2] == '}') {
      out += "(" + args.at(static_cast<std::size_t>(tmpl[i + 1] - '0')) + ")";
      i += 2;
    } else {
      out.push_back(tmpl[i]);
    }
  }
  return out;
}

// Helper-name suffix of an integer compute type.
std::string int_suffix(DType t) {
  std::string_view c = compute_type(t);
  if (c == "int") return "i32";
  if (c == "uint") return "u32";
  if (c == "int64_t") return "i64";
  return "u64";
}

int bits(DType t) { return static_cast<int>(itemsize(t)) * 8; }

std::string int_helper(const std::string& fn, DType t, HelperSet* h) {
  std::string ct(compute_type(t)), name = "vka_" + fn + "_" + int_suffix(t);
  if (h->has(name)) return name;
  bool sgn = is_signed_integer(t);
  std::string C = ct, code;
  auto z = [&](const char* v) { return C + "(" + v + ")"; };
  if (fn == "floordiv") {
    code = C + " " + name + "(" + C + " a, " + C + " b) {\n  if (b == " + z("0") + ") return " +
           z("0") + ";  // numpy: integer division by zero gives 0\n";
    if (sgn) {
      code += "  if (b == " + z("-1") + ") return -a;  // INT_MIN / -1 wraps, as numpy\n  " + C +
              " q = a / b;\n  if (a - q * b != " + z("0") + " && (a ^ b) < " + z("0") + ") q -= " +
              z("1") + ";\n  return q;\n";
    } else {
      code += "  return a / b;\n";
    }
    code += "}\n";
  } else if (fn == "remainder") {
    code = C + " " + name + "(" + C + " a, " + C + " b) {\n  if (b == " + z("0") + ") return " +
           z("0") + ";\n";
    if (sgn) {
      // GLSL's % is undefined for negative operands: derive it from truncating division.
      code += "  if (b == " + z("-1") + ") return " + z("0") + ";\n  " + C +
              " r = a - (a / b) * b;\n  if (r != " + z("0") + " && (r ^ b) < " + z("0") +
              ") r += b;\n  return r;\n";
    } else {
      code += "  return a % b;\n";
    }
    code += "}\n";
  } else if (fn == "power") {
    code = C + " " + name + "(" + C + " a, " + C + " b) {\n";
    if (sgn) {
      // numpy raises for negative integer exponents; a kernel cannot, so it returns the
      // truncated exact value (documented difference).
      code += "  if (b < " + z("0") + ") {\n    if (a == " + z("1") + ") return " + z("1") +
              ";\n    if (a == " + z("-1") + ") return (b & " + z("1") + ") != " + z("0") + " ? " +
              z("-1") + " : " + z("1") + ";\n    return " + z("0") + ";\n  }\n";
    }
    code += "  " + C + " r = " + z("1") + ";\n  for (int i = 0; i < 64 && b != " + z("0") +
            "; ++i) {\n    if ((b & " + z("1") + ") != " + z("0") + ") r *= a;\n    a *= a;\n" +
            "    b >>= 1;\n  }\n  return r;\n}\n";
  } else {
    internal_error("unknown integer helper", __FILE__, __LINE__);
  }
  h->add(name, code);
  return name;
}

// numpy's float floor_divide/remainder (npy_divmod), from the math library; float16 computes
// in float, as numpy's half loops do.
std::string float_helper(const std::string& fn, DType t, HelperSet* h) {
  return math_function(fn, math_dtype(t), h);
}

std::string reciprocal_of_zero(DType t) {
  if (t == DType::kInt32) return "int(0x80000000u)";
  if (t == DType::kInt64) return "int64_t(0x8000000000000000ul)";
  return std::string(compute_type(t)) + "(0)";
}

// maximum/minimum/fmax/fmin. Which operand a tie (0.0 vs -0.0) returns is numpy's x86
// answer: its float32/float64 loops use maxps/minps (SSE/AVX), which return the second
// operand when the operands compare equal; its float16 loop compares in C and returns the
// first. NaN: maximum/minimum return a NaN operand, fmax/fmin the other operand.
std::string min_max(Op op, DType t, const std::vector<std::string>& a) {
  bool is_max = op == Op::kMaximum || op == Op::kFmax;
  bool is_f = is_floating(t);
  const std::string& x = a[0];
  const std::string& y = a[1];
  if (is_bool(t)) return "(" + x + (is_max ? " || " : " && ") + y + ")";
  if (!is_f) return "((" + x + (is_max ? " >= " : " <= ") + y + ") ? " + x + " : " + y + ")";
  bool propagate = op == Op::kMaximum || op == Op::kMinimum;
  // NaN x: maximum returns x; fmax returns y (x > y and x >= y are false for NaN).
  // NaN y: maximum returns y (false comparisons); fmax returns x.
  std::string nan_first = propagate ? "isnan(" + x + ") || " : "isnan(" + y + ") || ";
  std::string cmp = t == DType::kFloat16 ? (is_max ? " >= " : " <= ") : (is_max ? " > " : " < ");
  return "((" + nan_first + x + cmp + y + ") ? " + x + " : " + y + ")";
}

std::string shift(bool left, DType t, const std::vector<std::string>& a) {
  std::string c(compute_type(t));
  // numpy: counts outside [0, bits) give 0 (left) or the sign fill (right).
  std::string in_range = bits(t) == 64 ? "uint64_t(" + a[1] + ") < uint64_t(64)"
                                       : "uint(" + a[1] + ") < " + std::to_string(bits(t)) + "u";
  std::string fill = (left || !is_signed_integer(t))
                         ? c + "(0)"
                         : "(" + a[0] + " < " + c + "(0) ? " + c + "(-1) : " + c + "(0))";
  std::string op = left ? " << " : " >> ";
  return "((" + in_range + ") ? (" + a[0] + op + a[1] + ") : " + fill + ")";
}

}  // namespace

std::string emit_op(Op op, DType t, const std::vector<std::string>& a, HelperSet* h) {
  check_accepts(op, t);
  if (is_complex(t)) return emit_complex_op(op, t, a, h);
  const OpInfo& o = info(op);
  std::string c(compute_type(t));
  bool is_f = is_floating(t), is_b = is_bool(t), is_s = is_signed_integer(t);
  DType m = is_f ? math_dtype(t) : DType::kFloat32;
  auto math = [&](std::string_view fn) {
    return math_function(fn, m, h) + "(" + a[0] + (a.size() > 1 ? ", " + a[1] : "") + ")";
  };
  auto cmp = [&](const char* sym) {
    // GLSL has no ordering on bool: compare as integers.
    if (is_b) return "(int(" + a[0] + ") " + sym + " int(" + a[1] + "))";
    return "(" + a[0] + " " + sym + " " + a[1] + ")";
  };
  // The table's forms first (ops.def: real), then the rows written here.
  switch (op) {
#define VKA_OP(e, name, arity, kind, kinds, rule, real, ...) \
  VKA_OP_IF(real, kNone, case Op::e:)
#include "ir/ops.def"
#undef VKA_OP
      internal_error("emit_op on a leaf, source, astype, reduction or product", __FILE__,
                     __LINE__);
#define VKA_OP(e, name, arity, kind, kinds, rule, real, ...) \
  VKA_OP_IF(real, kTemplate, case Op::e:)
#include "ir/ops.def"
#undef VKA_OP
      return fmt(o.glsl, a);
#define VKA_OP(e, name, arity, kind, kinds, rule, real, ...) \
  VKA_OP_IF(real, kMath, case Op::e:)
#include "ir/ops.def"
#undef VKA_OP
      return math(o.name);
    case Op::kDivide:  // floats only: true division computes in a float dtype
      return math("div");
    case Op::kLess:
      return cmp("<");
    case Op::kLessEqual:
      return cmp("<=");
    case Op::kGreater:
      return cmp(">");
    case Op::kGreaterEqual:
      return cmp(">=");
    case Op::kLogicalNot:
      return "(!" + truth(t, a[0]) + ")";
    case Op::kLogicalAnd:
    case Op::kLogicalOr:
    case Op::kLogicalXor:
      return fmt(o.glsl, {truth(t, a[0]), truth(t, a[1])});
    case Op::kAbs:
      if (is_f) return "abs(" + a[0] + ")";
      return is_s ? "(" + a[0] + " < " + c + "(0) ? -" + a[0] + " : " + a[0] + ")" : a[0];
    case Op::kSign:
      if (is_f) return "(isnan(" + a[0] + ") ? " + a[0] + " : sign(" + a[0] + "))";
      if (is_s)
        return "(" + c + "(" + a[0] + " > " + c + "(0)) - " + c + "(" + a[0] + " < " + c + "(0)))";
      return c + "(" + a[0] + " > " + c + "(0))";
    case Op::kReciprocal:
      if (is_f) return "(" + c + "(1) / " + a[0] + ")";
      // numpy: C's truncating (T)(1.0 / x). For x == 0 that is (T)inf, platform-defined;
      // this is numpy's x86 answer: cvttsd2si gives INT_MIN, so int32 and int64 get their
      // minimum, int8/int16 the truncated 0, and unsigned types 0.
      return "(" + a[0] + " == " + c + "(0) ? " + reciprocal_of_zero(t) + " : " + c + "(1) / " +
             a[0] + ")";
    case Op::kImag:
      return c + "(0)";
    case Op::kSqrt:
      return "sqrt(" + a[0] + ")";
    case Op::kNextafter:
      // float16 steps are float16 ulps, not those of the float it computes in.
      if (t == DType::kFloat16) {
        return math_function("nextafter_f16", DType::kFloat32, h) + "(" + a[0] + ", " + a[1] + ")";
      }
      return math("nextafter");
    // The math library's rounding, not GLSL's built-ins, whose lowering may depend on the host
    // CPU (math.cc). round and rint: half to even, as numpy.
    case Op::kFloor:
      return is_f ? math("floor") : a[0];
    case Op::kCeil:
      return is_f ? math("ceil") : a[0];
    case Op::kTrunc:
      return is_f ? math("trunc") : a[0];
    case Op::kRound:
    case Op::kRint:
      return is_f ? math("rint") : a[0];
    case Op::kIsnan:
      return is_f ? "isnan(" + a[0] + ")" : "false";
    case Op::kIsinf:
      return is_f ? "isinf(" + a[0] + ")" : "false";
    case Op::kIsfinite:
      return is_f ? "(!isnan(" + a[0] + ") && !isinf(" + a[0] + "))" : "true";
    case Op::kSignbit:
      if (is_f) return math_function("signbit", m, h) + "(" + a[0] + ")";
      return is_s ? "(" + a[0] + " < " + c + "(0))" : "false";
    case Op::kBitwiseNot:
      return is_b ? "(!" + a[0] + ")" : "(~" + a[0] + ")";
    case Op::kAdd:
      return is_b ? "(" + a[0] + " || " + a[1] + ")" : "(" + a[0] + " + " + a[1] + ")";
    case Op::kMultiply:
      return is_b ? "(" + a[0] + " && " + a[1] + ")" : "(" + a[0] + " * " + a[1] + ")";
    case Op::kFloorDivide:
      return (is_f ? float_helper("floordiv", t, h) : int_helper("floordiv", t, h)) + "(" + a[0] +
             ", " + a[1] + ")";
    case Op::kRemainder:
      return (is_f ? float_helper("remainder", t, h) : int_helper("remainder", t, h)) + "(" + a[0] +
             ", " + a[1] + ")";
    case Op::kPower:
      return is_f ? math("power") : int_helper("power", t, h) + "(" + a[0] + ", " + a[1] + ")";
    // maximum/minimum propagate NaN (either operand); fmax/fmin ignore a NaN operand.
    case Op::kMaximum:
    case Op::kMinimum:
    case Op::kFmax:
    case Op::kFmin:
      return min_max(op, t, a);
    case Op::kBitwiseAnd:
      return is_b ? "(" + a[0] + " && " + a[1] + ")" : "(" + a[0] + " & " + a[1] + ")";
    case Op::kBitwiseOr:
      return is_b ? "(" + a[0] + " || " + a[1] + ")" : "(" + a[0] + " | " + a[1] + ")";
    case Op::kBitwiseXor:
      return is_b ? "(" + a[0] + " != " + a[1] + ")" : "(" + a[0] + " ^ " + a[1] + ")";
    case Op::kLeftShift:
      return shift(true, t, a);
    case Op::kRightShift:
      return shift(false, t, a);
  }
  internal_error("emit_op: unhandled op", __FILE__, __LINE__);
}

}  // namespace vka
