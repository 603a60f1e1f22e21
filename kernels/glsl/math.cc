// The GLSL math library's machinery (per-precision constants, template instantiation, the
// helper registry) and its basic functions: constants, sign bits and rounding. Arithmetic:
// math_arith.cc; transcendentals: math_exp.cc and math_trig.cc. Error bounds, measured against
// numpy: docs/accuracy.md.
#include "kernels/glsl/math.h"

#include <cctype>
#include <cstdio>
#include <map>

#include "base/errors.h"
#include "kernels/glsl/math_templates.h"

namespace vka {
namespace {

using math_internal::Template;
using math_internal::Templates;

struct Precision {
  const char* type;  // float, double
  const char* sfx;   // function suffix: f32, f64
  const char* lit;   // literal suffix: "", "LF"
  const char* inf;
  const char* nan;
  const char* ctype;                     // complex: vec2, dvec2
  std::map<std::string, std::string> k;  // per-precision constants and term counts
};

// The degree-n Taylor polynomial of e^r as nested fma() calls with 1/i! literals.
std::string exp_horner(int n, const char* lit) {
  auto coef = [&](int i) {
    double f = 1;
    for (int j = 2; j <= i; ++j) f *= j;
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17e%s", 1 / f, lit);
    return std::string(buf);
  };
  std::string s = coef(n);
  for (int i = n - 1; i >= 0; --i) s = "fma(" + s + ", r, " + coef(i) + ")";
  return s;
}

// num/den as a literal of the type, correctly rounded. A series written as a loop of
// T(1) / T(i) leaves the divisions to the device, where they need not fold: NVIDIA's compiler
// kept them, and a float64 tanh cost about 1 us a lane, 32x that in a full subgroup.
std::string quotient(int num, int den, const char* lit) {
  char buf[40];
  if (*lit == '\0') {
    float q = static_cast<float>(num) / static_cast<float>(den);
    std::snprintf(buf, sizeof buf, "%.9e", static_cast<double>(q));
  } else {
    std::snprintf(buf, sizeof buf, "%.17e%s", static_cast<double>(num) / den, lit);
  }
  return buf;
}

// Horner's form c(lo) op v * (c(lo + 1) op v * (... op v * c(hi))) of a series in v with
// c(i) = num / (2i + 1) (atanh's and atan's odd series in v = t^2), innermost term first.
std::string odd_series(int num, int lo, int hi, const char* op, const char* v, const char* lit) {
  std::string s = quotient(num, 2 * hi + 1, lit);
  for (int i = hi - 1; i >= lo; --i) {
    s = quotient(num, 2 * i + 1, lit) + " " + op + " " + v + " * (" + s + ")";
  }
  return s;
}

// expm1(x) / x = 1 + x/2 * (1 + x/3 * (...(1 + x/n))) as the recurrence p = 1 + p * x * (1/i),
// i = n .. 2, from p = 1.
std::string expm1_series(int n, const char* lit) {
  std::string one = std::string("1.0") + lit;
  std::string s = one;
  for (int i = n; i >= 2; --i) s = one + " + (" + s + ") * x * " + quotient(1, i, lit);
  return s;
}

// sin's and cos's inner series 1 - z/((2i)(2i+1)) * (...) (sin, i = n .. 2) or
// 1 - z/((2i-1)(2i)) * (...) (cos, i = n .. 3), from 1, as the recurrence
// inner = 1 - inner * z * (1/d).
std::string sincos_series(bool sine, int n, const char* lit) {
  std::string one = std::string("1.0") + lit;
  std::string s = one;
  for (int i = n; i >= (sine ? 2 : 3); --i) {
    int d = sine ? (2 * i) * (2 * i + 1) : (2 * i - 1) * (2 * i);
    s = one + " - (" + s + ") * z * " + quotient(1, d, lit);
  }
  return s;
}

// Constants split for exact products (Cody-Waite): a part with n significant bits times an
// integer k of m bits is exact when n + m <= the type's 24 or 53 bits.
const Precision& precision(DType t) {
  static const Precision f32{"float",
                             "f32",
                             "",
                             "uintBitsToFloat(0x7f800000u)",
                             "uintBitsToFloat(0x7fc00000u)",
                             "vec2",
                             {{"DIV_BIG", "8.507059173023462e37"},  // 2^126
                              {"EXP_MAX", "88.72283905206835"},
                              {"EXP_MIN", "-103.97207708"},
                              {"EXP2_MAX", "128.0"},
                              {"EXP2_MIN", "-150.0"},
                              // ln2 = LN2_HI (15 bits: k * LN2_HI exact for |k| < 2^9) + LN2_LO
                              {"LN2_HI", "0.693145751953125"},
                              {"LN2_LO", "1.428606765330187e-06"},
                              {"TT_HI", "0.6666666865348816"},  // 2/3 as two floats
                              {"TT_LO", "-1.9868215517249155e-08"},
                              {"EXP_HORNER", exp_horner(7, "")},
                              {"SCALE_KMIN", "-126"},
                              {"SCALE_KMAX", "127"},
                              {"POW2I", "uintBitsToFloat(uint(k + 127) << 23)"},
                              {"EXPM1_SERIES", expm1_series(8, "")},
                              {"LOG_SERIES", odd_series(1, 0, 5, "+", "z", "")},
                              {"LOGX_SERIES", odd_series(2, 2, 5, "+", "zh", "")},
                              {"MIN_NORMAL", "1.1754943508222875e-38"},
                              {"SUBNORMAL_SCALE", "16777216.0"},
                              {"SUBNORMAL_EXP", "24"},
                              {"MANT_BITS", "24"},
                              {"SPLIT", "4097.0"},  // Dekker: 2^12 + 1
                              {"SPLIT_SAFE", "1.0e30"},
                              {"SPLIT_SHIFT", "40"},
                              // pi/2 in 12-bit parts (k < 2^12) and a float tail
                              {"PIO2_1", "1.57080078125"},
                              {"PIO2_2", "-4.453584551811218e-06"},
                              {"PIO2_3", "-8.706138032721356e-10"},
                              {"PIO2_4", "6.223371969669989e-14"},
                              {"CW_MAX", "6000.0"},
                              // pi, pi/2, pi/4 as the nearest float plus its error
                              {"PI_HI", "3.1415927410125732"},
                              {"PI_LO", "-8.742277657347586e-08"},
                              {"PIO2_HI", "1.5707963705062866"},
                              {"PIO2_LO", "-4.371138828673793e-08"},
                              {"PIO4_HI", "0.7853981852531433"},
                              {"PIO4_LO", "-2.1855694143368964e-08"},
                              {"PH_WORDS", "4"},
                              {"RH_M0", "0xFFFFFF00u"},
                              {"RH_M1", "0x0u"},
                              {"SIN_SERIES", sincos_series(true, 5, "")},
                              {"COS_SERIES", sincos_series(false, 6, "")},
                              {"ATAN_SERIES", odd_series(1, 0, 9, "-", "z", "")},
                              {"FMOD_STEPS", "300"},
                              {"HYP_BIG", "9.0"},
                              {"TANH_BIG", "12.0"},
                              {"RECIP_EPS", "16777216.0"},  // 2^24
                              {"HUGE", "4096.0"},
                              {"INT_EXACT", "8388608.0"},  // 2^23: from here on, integers
                              {"BITS_HI", "floatBitsToUint(x)"}}};
  static const Precision f64{"double",
                             "f64",
                             "LF",
                             "packDouble2x32(uvec2(0u, 0x7ff00000u))",
                             "packDouble2x32(uvec2(0u, 0x7ff80000u))",
                             "dvec2",
                             {{"DIV_BIG", "4.49423283715579e307"},  // 2^1022
                              {"EXP_MAX", "709.782712893384"},
                              {"EXP_MIN", "-745.1332191019412"},
                              {"EXP2_MAX", "1024.0"},
                              {"EXP2_MIN", "-1075.0"},
                              // LN2_HI: 32 bits, k * LN2_HI exact for |k| < 2^21
                              {"LN2_HI", "6.93147180369123816490e-01"},
                              {"LN2_LO", "1.90821492927058770002e-10"},
                              {"TT_HI", "0.6666666666666666"},
                              {"TT_LO", "3.700743415417188e-17"},
                              {"EXP_HORNER", exp_horner(13, "LF")},
                              {"SCALE_KMIN", "-1022"},
                              {"SCALE_KMAX", "1023"},
                              {"POW2I", "packDouble2x32(uvec2(0u, uint(k + 1023) << 20))"},
                              {"EXPM1_SERIES", expm1_series(15, "LF")},
                              {"LOG_SERIES", odd_series(1, 0, 10, "+", "z", "LF")},
                              {"LOGX_SERIES", odd_series(2, 2, 10, "+", "zh", "LF")},
                              {"MIN_NORMAL", "2.2250738585072014e-308"},
                              {"SUBNORMAL_SCALE", "18014398509481984.0"},
                              {"SUBNORMAL_EXP", "54"},
                              {"MANT_BITS", "53"},
                              {"SPLIT", "134217729.0"},  // Dekker: 2^27 + 1
                              {"SPLIT_SAFE", "1.0e290"},
                              {"SPLIT_SHIFT", "300"},
                              // pi/2 in 33-bit parts (k < 2^20) and a double tail
                              {"PIO2_1", "1.570796326734125614166e+00"},
                              {"PIO2_2", "6.077100506303965976596e-11"},
                              {"PIO2_3", "2.022266248711166455796e-21"},
                              {"PIO2_4", "8.478427660368899569974e-32"},
                              {"CW_MAX", "1.5e6"},
                              {"PI_HI", "3.141592653589793"},
                              {"PI_LO", "1.2246467991473532e-16"},
                              {"PIO2_HI", "1.5707963267948966"},
                              {"PIO2_LO", "6.123233995736766e-17"},
                              {"PIO4_HI", "0.7853981633974483"},
                              {"PIO4_LO", "3.061616997868383e-17"},
                              {"PH_WORDS", "7"},
                              {"RH_M0", "0xFFFFFFFFu"},
                              {"RH_M1", "0xFFFFF800u"},
                              {"SIN_SERIES", sincos_series(true, 8, "LF")},
                              {"COS_SERIES", sincos_series(false, 9, "LF")},
                              {"ATAN_SERIES", odd_series(1, 0, 20, "-", "z", "LF")},
                              {"FMOD_STEPS", "2100"},
                              {"HYP_BIG", "22.0"},
                              {"TANH_BIG", "22.0"},
                              {"RECIP_EPS", "9007199254740992.0"},  // 2^53
                              {"HUGE", "268435456.0"},
                              {"INT_EXACT", "4503599627370496.0"},  // 2^52
                              {"BITS_HI", "unpackDouble2x32(x).y"}}};
  VKA_ASSERT(t == DType::kFloat32 || t == DType::kFloat64);
  return t == DType::kFloat32 ? f32 : f64;
}

void add_basic_templates(Templates* m) {
  m->insert({
      {"inf", {"", "T vka_inf_F() { return INF; }\n"}},
      {"nan", {"", "T vka_nan_F() { return NAN; }\n"}},
      {"signbit", {"", "bool vka_signbit_F(T x) { return (@BITS_HI@ >> 31) != 0u; }\n"}},
      {"copysign",
       {"signbit", "T vka_copysign_F(T x, T y) { return vka_signbit_F(y) ? -abs(x) : abs(x); }\n"}},
      // copysign(0, y) on the bits: the select copysign makes between -0.0 and +0.0 is one an
      // optimizer that ignores the sign of zero folds (NVIDIA's gave ldexp(1, -400) = -0.0 in
      // float32 that way). copysign itself stays a select: llvmpipe (LLVM 15) miscompiled the
      // bitwise form where a select chose between it and the same infinity.
      {"signed_zero",
       {"",
        "T vka_signed_zero_F(T y) { return uintBitsToFloat(floatBitsToUint(y) & 0x80000000u); }\n",
        false,
        "T vka_signed_zero_F(T y) {\n  return packDouble2x32(uvec2(0u, unpackDouble2x32(y).y & "
        "0x80000000u));\n}\n"}},
      // Rounding to integers without GLSL's roundEven/trunc/floor/ceil, whose lowering is the
      // driver's and may depend on the host CPU: lavapipe (Mesa 22.3) rounds float64 vectors of
      // 512 bits with the CPU's round instruction only when it has AVX-512, and otherwise through
      // a conversion to integer that rounds 1.5 to 1 and -0.5 to +0.0 (its float32 fallback,
      // without SSE4.1, loses -0.0 too). For |x| < INT_EXACT = 2^52 (2^23), |x| + 2^52 lies in
      // [2^52, 2^53), whose ulp is 1: the addition rounds |x| to an integer, ties to even, and
      // the subtraction is exact (both in precise locals, so neither is folded away). Larger
      // values, infinities and NaN are returned as they are; the sign is copied back, so that
      // -0.0 and -0.4 round to -0.0 as numpy's do. floor, ceil and trunc adjust that integer
      // by one where it went the wrong way (exact: it is below 2^53).
      {"rint", {"copysign", R"(T vka_rint_F(T x) {
  T a = abs(x);
  if (!(a < @INT_EXACT@$)) return x;
  T s = a + @INT_EXACT@$;
  T r = s - @INT_EXACT@$;
  return vka_copysign_F(r, x);
}
)"}},
      {"trunc", {"rint", R"(T vka_trunc_F(T x) {
  T a = abs(x);
  if (!(a < @INT_EXACT@$)) return x;
  T r = vka_rint_F(a);
  if (r > a) r -= T(1);
  return vka_copysign_F(r, x);
}
)"}},
      {"floor", {"rint", R"(T vka_floor_F(T x) {
  if (!(abs(x) < @INT_EXACT@$)) return x;
  T r = vka_rint_F(x);
  if (r > x) r -= T(1);
  return vka_copysign_F(r, x);
}
)"}},
      {"ceil", {"rint", R"(T vka_ceil_F(T x) {
  if (!(abs(x) < @INT_EXACT@$)) return x;
  T r = vka_rint_F(x);
  if (r < x) r += T(1);
  return vka_copysign_F(r, x);
}
)"}},
  });
}

const Templates& templates() {
  static const Templates m = [] {
    Templates t;
    add_basic_templates(&t);
    math_internal::add_arith_templates(&t);
    math_internal::add_exp_templates(&t);
    math_internal::add_trig_templates(&t);
    math_internal::add_bits_templates(&t);
    math_internal::add_complex_templates(&t);
    math_internal::add_complex_exp_templates(&t);
    math_internal::add_complex_inverse_templates(&t);
    return t;
  }();
  return m;
}

// True when `code[i]` starts a line's first token (after indentation): a declaration there
// is a local of a function body when indented.
bool indented_line_start(const std::string& code, std::size_t i) {
  std::size_t ls = code.rfind('\n', i == 0 ? 0 : i - 1);
  if (ls == std::string::npos || i <= ls + 1) return false;
  return code.find_first_not_of(' ', ls + 1) == i;
}

std::string instantiate(const std::string& code, const Precision& p) {
  std::string out;
  for (std::size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    bool ident_before =
        i > 0 && (std::isalnum(static_cast<unsigned char>(code[i - 1])) || code[i - 1] == '_');
    auto word_at = [&](const char* w) {
      std::size_t n = std::char_traits<char>::length(w);
      if (code.compare(i, n, w) != 0 || ident_before) return false;
      char after = i + n < code.size() ? code[i + n] : ' ';
      return !(std::isalnum(static_cast<unsigned char>(after)) || after == '_');
    };
    if (c == '$') {
      out += p.lit;
    } else if (c == '@') {
      std::size_t end = code.find('@', i + 1);
      out += p.k.at(code.substr(i + 1, end - i - 1));
      i = end;
    } else if (word_at("T") || word_at("C")) {
      // Locals are precise (math_templates.h says why).
      if (indented_line_start(code, i) && i + 2 < code.size() && code[i + 1] == ' ') {
        out += "precise ";
      }
      out += c == 'T' ? p.type : p.ctype;
    } else if (word_at("INF")) {
      out += p.inf;
      i += 2;
    } else if (word_at("NAN")) {
      out += p.nan;
      i += 2;
    } else if (c == '_' && code.compare(i, 2, "_F") == 0 &&
               !(i + 2 < code.size() &&
                 (std::isalnum(static_cast<unsigned char>(code[i + 2])) || code[i + 2] == '_'))) {
      out += "_";
      out += p.sfx;
      i += 1;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

void HelperSet::add(const std::string& name, const std::string& code) {
  if (names_.insert(name).second) code_.push_back(code);
}

std::string HelperSet::str() const {
  std::string s;
  for (const std::string& c : code_) s += c;
  return s;
}

std::string math_function(std::string_view fn, DType t, HelperSet* helpers) {
  const Precision& p = precision(t);
  auto it = templates().find(std::string(fn));
  VKA_ASSERT(it != templates().end());
  const Template& tmpl = it->second;
  std::string key = tmpl.shared ? std::string(fn) : std::string(fn) + "_" + p.sfx;
  if (!helpers->has(key)) {
    std::string deps = tmpl.deps;
    std::size_t start = 0;
    while (start < deps.size()) {
      std::size_t end = deps.find(' ', start);
      if (end == std::string::npos) end = deps.size();
      if (end > start) math_function(deps.substr(start, end - start), t, helpers);
      start = end + 1;
    }
    const char* code = t == DType::kFloat64 && tmpl.code_f64 ? tmpl.code_f64 : tmpl.code;
    helpers->add(key, tmpl.shared ? std::string(code) : instantiate(code, p));
  }
  return "vka_" + std::string(fn) + (tmpl.shared ? "" : "_" + std::string(p.sfx));
}

}  // namespace vka
