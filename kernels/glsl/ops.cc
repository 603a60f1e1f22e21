// Real-valued (bool, integer, float) op emission and dtype conversions.
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

DType math_dtype(DType t) {
  return (t == DType::kFloat64 || t == DType::kComplex128) ? DType::kFloat64 : DType::kFloat32;
}

std::string_view storage_type(DType t) { return info(t).glsl; }

std::string_view value_type(DType t) {
  if (is_bool(t)) return "bool";
  return info(t).glsl;
}

std::string_view compute_type(DType t) {
  switch (t) {
    case DType::kBool:
      return "bool";
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
      return "int";
    case DType::kUInt8:
    case DType::kUInt16:
    case DType::kUInt32:
      return "uint";
    case DType::kInt64:
      return "int64_t";
    case DType::kUInt64:
      return "uint64_t";
    case DType::kFloat16:
    case DType::kFloat32:
      return "float";
    case DType::kFloat64:
      return "double";
    case DType::kComplex64:
      return "vec2";
    case DType::kComplex128:
      return "dvec2";
  }
  return "?";
}

std::string storage_vec4_type(DType t) {
  const std::string e(storage_type(t));
  if (e == "float") return "vec4";
  if (e == "double") return "dvec4";
  if (e == "int") return "ivec4";
  if (e == "uint") return "uvec4";
  if (e == "float16_t") return "f16vec4";
  // int8_t → i8vec4, uint8_t → u8vec4, int16_t → i16vec4, ... int64_t → i64vec4.
  const bool is_unsigned = e[0] == 'u';
  const std::string bits = e.substr(is_unsigned ? 4 : 3, e.size() - (is_unsigned ? 6 : 5));
  return std::string(is_unsigned ? "u" : "i") + bits + "vec4";
}

std::string to_compute(DType t, const std::string& v) {
  if (value_type(t) == compute_type(t)) return v;
  return std::string(compute_type(t)) + "(" + v + ")";
}

std::string from_compute(DType t, const std::string& e) {
  if (value_type(t) == compute_type(t)) return e;
  return std::string(value_type(t)) + "(" + e + ")";
}

std::string from_compute(DType t, const std::string& e, HelperSet* h) {
  if (t != DType::kFloat16) return from_compute(t, e);
  // The float16 quantum at x is 2^(e - 10) for float16 normals (float32 biased exponent e
  // >= 113) and 2^-24 below: x / quantum rounded to an integer (ties to even) times the
  // quantum is the nearest float16, exactly representable, so the final conversion is exact.
  const std::string rint = math_function("rint", DType::kFloat32, h);
  h->add("vka_f16",
         "float16_t vka_f16(float x) {\n"
         "  uint b = floatBitsToUint(x) & 0x7fffffffu;\n"
         "  if (b >= 0x7f800000u) return float16_t(x);\n"
         "  uint qe = max(b >> 23, 113u) - 10u;\n"
         "  float r = " + rint + "(x * uintBitsToFloat((254u - qe) << 23)) * "
         "uintBitsToFloat(qe << 23);\n"
         "  return abs(r) > 65504.0 ? float16_t(sign(x) * uintBitsToFloat(0x7f800000u)) "
         ": float16_t(r);\n"
         "}\n");
  return "vka_f16(" + e + ")";
}

namespace {

// float64 → float16 as numpy converts, rounded once: float(x) first would round to float32
// and then again to float16, a float16 ulp off at ties of the second rounding (numpy's
// linspace(-1e-3, 3e4, 1001, dtype=float16) has 34 of them). The nearest float16 is found
// in double as from_compute finds it in float; the float returned holds it exactly.
std::string f16_of_double(const std::string& x, HelperSet* h) {
  const std::string rint = math_function("rint", DType::kFloat64, h);
  h->add("vka_f16d",
         "float vka_f16d(double x) {\n"
         "  uint b = unpackDouble2x32(x).y & 0x7fffffffu;\n"
         "  if (b >= 0x7ff00000u) return float(x);\n"
         "  uint qe = max(b >> 20, 1009u) - 10u;\n"
         "  double r = " + rint + "(x * packDouble2x32(uvec2(0u, (2046u - qe) << 20))) * "
         "packDouble2x32(uvec2(0u, qe << 20));\n"
         "  return abs(r) > 65504.0lf ? sign(float(x)) * uintBitsToFloat(0x7f800000u) : "
         "float(r);\n"
         "}\n");
  return "vka_f16d(" + x + ")";
}

}  // namespace

std::string truth(DType t, const std::string& x) {
  if (is_bool(t)) return x;
  if (is_complex(t)) return "any(notEqual(" + x + ", " + std::string(compute_type(t)) + "(0)))";
  return "(" + x + " != " + std::string(compute_type(t)) + "(0))";
}

std::string emit_cast(DType from, DType to, const std::string& x, HelperSet* h) {
  std::string ct(compute_type(to));
  if (is_bool(to)) return truth(from, x);
  if (is_complex(from) && !is_complex(to)) {
    // numpy discards the imaginary part (with a ComplexWarning).
    DType part = from == DType::kComplex64 ? DType::kFloat32 : DType::kFloat64;
    return emit_cast(part, to, "(" + x + ").x", h);
  }
  if (is_complex(to)) {
    std::string real =
        is_complex(from) ? x : ct + "(" + emit_cast(from, math_dtype(to), x, h) + ", 0)";
    return is_complex(from) ? ct + "(" + x + ")" : real;
  }
  if (from == DType::kFloat64 && to == DType::kFloat16) return f16_of_double(x, h);
  if (!is_floating(from) || is_floating(to)) return ct + "(" + x + ")";
  // float → integer. In range: truncation toward zero. NaN and out-of-range: what numpy
  // gives on x86 (cvttss2si/cvttsd2si return INT_MIN), so results match numpy on the usual
  // host instead of being GPU-undefined.
  std::string F(compute_type(from));
  std::string v = "(" + x + ")";
  if (to == DType::kInt64) {
    return "((isnan" + v + " || " + v + " >= " + F + "(9223372036854775808.0) || " + v + " < " + F +
           "(-9223372036854775808.0)) ? int64_t(0x8000000000000000ul) : int64_t" + v + ")";
  }
  if (to == DType::kUInt64) {
    return "((" + v + " >= " + F + "(0) && " + v + " < " + F +
           "(18446744073709551616.0)) ? uint64_t" + v + " : (" + v + " < " + F + "(0) && " + v +
           " > " + F + "(-9223372036854775808.0)) ? uint64_t(int64_t" + v +
           ") : uint64_t(0x8000000000000000ul))";
  }
  if (to == DType::kUInt32) {
    // Through int64 on x86: the low 32 bits of the truncated value; 0 when NaN/huge.
    return "((" + v + " >= " + F + "(0) && " + v + " < " + F + "(4294967296.0)) ? uint" + v +
           " : (" + v + " < " + F + "(0) && " + v + " >= " + F + "(-2147483648.0)) ? uint(int" + v +
           ") : (abs" + v + " < " + F + "(9223372036854775808.0)) ? uint(" + v + " - " + F +
           "(4294967296.0) * " + math_function("floor", math_dtype(from), h) + "(" + v + " / " +
           F + "(4294967296.0))) : 0u)";
  }
  // int8/16/32 and uint8/16: through int32, then wrapped by the narrowing conversion.
  std::string i32 = "((isnan" + v + " || " + v + " >= " + F + "(2147483648.0) || " + v + " < " + F +
                    "(-2147483648.0)) ? int(0x80000000u) : int" + v + ")";
  return ct == "int" ? i32 : ct + "(" + i32 + ")";
}

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
