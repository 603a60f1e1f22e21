// The GLSL types of dtypes (storage, value, compute) and the conversions between them:
// to and from the compute type, truthiness, and astype with numpy's casts.
#include "kernels/glsl/ops.h"

#include "base/errors.h"

namespace vka {

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

std::string storage_vec_type(DType t, int width) {
  VKA_ASSERT(width >= 2 && width <= 4);
  const std::string e(storage_type(t)), n = std::to_string(width);
  if (e == "float") return "vec" + n;
  if (e == "double") return "dvec" + n;
  if (e == "int") return "ivec" + n;
  if (e == "uint") return "uvec" + n;
  if (e == "float16_t") return "f16vec" + n;
  // int8_t → i8vec4, uint8_t → u8vec4, int16_t → i16vec4, ... int64_t → i64vec4.
  const bool is_unsigned = e[0] == 'u';
  const std::string bits = e.substr(is_unsigned ? 4 : 3, e.size() - (is_unsigned ? 6 : 5));
  return std::string(is_unsigned ? "u" : "i") + bits + "vec" + n;
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

}  // namespace vka
