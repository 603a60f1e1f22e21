// The math library templates. Algorithms (fdlibm/Cephes style, simplified): Cody-Waite range
// reduction, then Taylor/atanh series with enough terms for the type (float or double).
// Measured error against float64 numpy is asserted by the device tests; the bounds targeted
// are ≤ 2 ulp for exp/log families and ≤ 4 ulp for trig with |x| < 2^20 (beyond that the
// three-part π/2 reduction loses accuracy; documented in docs/ as a known difference).
#include "kernels/glsl_math.h"

#include <cctype>
#include <map>

#include "device/errors.h"

namespace vka {
namespace {

struct Precision {
  const char* type;  // float, double
  const char* sfx;   // function suffix: f32, f64
  const char* lit;   // literal suffix: "", "LF"
  const char* inf;
  const char* nan;
  std::map<std::string, std::string> k;  // per-precision constants and term counts
};

const Precision& precision(DType t) {
  static const Precision f32{"float",
                             "f32",
                             "",
                             "uintBitsToFloat(0x7f800000u)",
                             "uintBitsToFloat(0x7fc00000u)",
                             {{"EXP_MAX", "88.72283905206835"},
                              {"EXP_MIN", "-103.97207708"},
                              {"EXP2_MAX", "128.0"},
                              {"EXP2_MIN", "-150.0"},
                              {"LN2_HI", "0.693145751953125"},
                              {"LN2_LO", "1.428606765330187045e-06"},
                              {"EXP_TERMS", "7"},
                              {"EXPM1_TERMS", "8"},
                              {"LOG_TERMS", "5"},
                              {"MIN_NORMAL", "1.1754943508222875e-38"},
                              {"SUBNORMAL_SCALE", "16777216.0"},
                              {"SUBNORMAL_EXP", "24"},
                              {"PIO2_1", "1.5703125"},
                              {"PIO2_2", "4.837512969970703125e-4"},
                              {"PIO2_3", "7.54978995489188216e-8"},
                              {"SIN_TERMS", "5"},
                              {"COS_TERMS", "6"},
                              {"ATAN_TERMS", "9"},
                              {"HYP_BIG", "9.0"},
                              {"HUGE", "4096.0"},
                              {"BITS_HI", "floatBitsToUint(x)"}}};
  static const Precision f64{"double",
                             "f64",
                             "LF",
                             "packDouble2x32(uvec2(0u, 0x7ff00000u))",
                             "packDouble2x32(uvec2(0u, 0x7ff80000u))",
                             {{"EXP_MAX", "709.782712893384"},
                              {"EXP_MIN", "-745.1332191019412"},
                              {"EXP2_MAX", "1024.0"},
                              {"EXP2_MIN", "-1075.0"},
                              {"LN2_HI", "6.93147180369123816490e-01"},
                              {"LN2_LO", "1.90821492927058770002e-10"},
                              {"EXP_TERMS", "13"},
                              {"EXPM1_TERMS", "15"},
                              {"LOG_TERMS", "10"},
                              {"MIN_NORMAL", "2.2250738585072014e-308"},
                              {"SUBNORMAL_SCALE", "18014398509481984.0"},
                              {"SUBNORMAL_EXP", "54"},
                              {"PIO2_1", "1.57079632673412561417e+00"},
                              {"PIO2_2", "6.07710050630396597660e-11"},
                              {"PIO2_3", "2.02226624871116645580e-21"},
                              {"SIN_TERMS", "8"},
                              {"COS_TERMS", "9"},
                              {"ATAN_TERMS", "20"},
                              {"HYP_BIG", "22.0"},
                              {"HUGE", "268435456.0"},
                              {"BITS_HI", "unpackDouble2x32(x).y"}}};
  VKA_ASSERT(t == DType::kFloat32 || t == DType::kFloat64);
  return t == DType::kFloat32 ? f32 : f64;
}

// Template language: T type, _F suffix, INF, NAN, @KEY@ constants, `$` after a literal adds
// the precision's literal suffix (GLSL literals are float unless suffixed LF).
struct Template {
  const char* deps;  // space-separated functions this one calls
  const char* code;
};

const std::map<std::string, Template>& templates() {
  static const std::map<std::string, Template> m = {
      {"inf", {"", "T vka_inf_F() { return INF; }\n"}},
      {"nan", {"", "T vka_nan_F() { return NAN; }\n"}},
      {"signbit", {"", "bool vka_signbit_F(T x) { return (@BITS_HI@ >> 31) != 0u; }\n"}},
      {"copysign",
       {"signbit", "T vka_copysign_F(T x, T y) { return vka_signbit_F(y) ? -abs(x) : abs(x); }\n"}},
      // e^r for |r| <= ln2/2: Horner form of the Taylor series.
      {"expcore", {"", R"(T vka_expcore_F(T r) {
  T p = T(1);
  for (int i = @EXP_TERMS@; i >= 1; --i) p = T(1) + p * r / T(i);
  return p;
}
// 2^k * p without overflowing the intermediate when k is near the exponent limits.
T vka_scale_F(T p, int k) { return ldexp(ldexp(p, k / 2), k - k / 2); }
)"}},
      {"exp", {"expcore", R"(T vka_exp_F(T x) {
  if (isnan(x)) return x;
  if (x > @EXP_MAX@$) return INF;
  if (x < @EXP_MIN@$) return T(0);
  T k = roundEven(x * 1.4426950408889634$);
  T r = (x - k * @LN2_HI@$) - k * @LN2_LO@$;
  return vka_scale_F(vka_expcore_F(r), int(k));
}
)"}},
      {"exp2", {"expcore", R"(T vka_exp2_F(T x) {
  if (isnan(x)) return x;
  if (x >= @EXP2_MAX@$) return INF;
  if (x < @EXP2_MIN@$) return T(0);
  T k = roundEven(x);
  return vka_scale_F(vka_expcore_F((x - k) * 0.6931471805599453$), int(k));
}
)"}},
      {"expm1", {"exp", R"(T vka_expm1_F(T x) {
  if (abs(x) >= 0.35$ || isnan(x)) return x > T(40) ? vka_exp_F(x) : vka_exp_F(x) - T(1);
  // Series without the leading 1: no cancellation near 0.
  T p = T(1);
  for (int i = @EXPM1_TERMS@; i >= 2; --i) p = T(1) + p * x / T(i);
  return x * p;
}
)"}},
      // log(m) for x = m * 2^e, m in [sqrt(1/2), sqrt(2)): 2*atanh(s), s = (m-1)/(m+1).
      {"logcore", {"", R"(T vka_logcore_F(T x, out int e) {
  e = 0;
  if (x < @MIN_NORMAL@$) {
    x *= @SUBNORMAL_SCALE@$;
    e = -@SUBNORMAL_EXP@;
  }
  int e2;
  T m = frexp(x, e2);
  e += e2;
  if (m < 0.7071067811865476$) {
    m *= T(2);
    e -= 1;
  }
  T f = m - T(1);
  T s = f / (T(2) + f);
  T z = s * s;
  T q = T(1) / T(2 * @LOG_TERMS@ + 1);
  for (int i = @LOG_TERMS@ - 1; i >= 0; --i) q = T(1) / T(2 * i + 1) + z * q;
  return 2.0$ * s * q;
}
)"}},
      {"log", {"logcore", R"(T vka_log_F(T x) {
  if (isnan(x) || x < T(0)) return NAN;
  if (x == T(0)) return -INF;
  if (isinf(x)) return x;
  int e;
  T lm = vka_logcore_F(x, e);
  return T(e) * @LN2_HI@$ + (lm + T(e) * @LN2_LO@$);
}
)"}},
      {"log2", {"logcore", R"(T vka_log2_F(T x) {
  if (isnan(x) || x < T(0)) return NAN;
  if (x == T(0)) return -INF;
  if (isinf(x)) return x;
  int e;
  T lm = vka_logcore_F(x, e);
  return T(e) + lm * 1.4426950408889634$;
}
)"}},
      {"log10", {"logcore", R"(T vka_log10_F(T x) {
  if (isnan(x) || x < T(0)) return NAN;
  if (x == T(0)) return -INF;
  if (isinf(x)) return x;
  int e;
  T lm = vka_logcore_F(x, e);
  return T(e) * 0.30102999566398120$ + lm * 0.43429448190325182$;
}
)"}},
      {"log1p", {"log", R"(T vka_log1p_F(T x) {
  if (isnan(x) || x < T(-1)) return NAN;
  if (x == T(-1)) return -INF;
  if (isinf(x)) return x;
  T u = T(1) + x;
  if (u == T(1)) return x;
  // log(u) * x / (u - 1) cancels the rounding error of 1 + x (Goldberg's trick).
  return vka_log_F(u) * (x / (u - T(1)));
}
)"}},
      // x - k*pi/2 in three parts; q = k mod 4.
      {"trigcore", {"", R"(T vka_reduce_F(T x, out int q) {
  T k = roundEven(x * 0.63661977236758134$);
  q = int(mod(k, 4.0$));
  return ((x - k * @PIO2_1@$) - k * @PIO2_2@$) - k * @PIO2_3@$;
}
T vka_sincore_F(T r) {
  T z = r * r;
  T p = T(1);
  for (int i = @SIN_TERMS@; i >= 1; --i) p = T(1) - p * z / T((2 * i) * (2 * i + 1));
  return r * p;
}
T vka_coscore_F(T r) {
  T z = r * r;
  T p = T(1);
  for (int i = @COS_TERMS@; i >= 1; --i) p = T(1) - p * z / T((2 * i - 1) * (2 * i));
  return p;
}
)"}},
      {"sin", {"trigcore", R"(T vka_sin_F(T x) {
  if (isinf(x) || isnan(x)) return NAN;
  if (x == T(0)) return x;
  int q;
  T r = vka_reduce_F(x, q);
  T v = (q & 1) == 0 ? vka_sincore_F(r) : vka_coscore_F(r);
  return q >= 2 ? -v : v;
}
)"}},
      {"cos", {"trigcore", R"(T vka_cos_F(T x) {
  if (isinf(x) || isnan(x)) return NAN;
  int q;
  T r = vka_reduce_F(x, q);
  T v = (q & 1) == 0 ? vka_coscore_F(r) : vka_sincore_F(r);
  return (q == 1 || q == 2) ? -v : v;
}
)"}},
      {"tan", {"trigcore", R"(T vka_tan_F(T x) {
  if (isinf(x) || isnan(x)) return NAN;
  if (x == T(0)) return x;
  int q;
  T r = vka_reduce_F(x, q);
  T s = vka_sincore_F(r), c = vka_coscore_F(r);
  return (q & 1) == 0 ? s / c : -c / s;
}
)"}},
      {"arctan", {"", R"(T vka_arctan_F(T x) {
  if (isnan(x)) return x;
  T a = abs(x), t, base = T(0), lo = T(0);
  if (a > 2.4142135623730950$) {
    t = T(-1) / a;
    base = 1.57079632679489655800$;
    lo = 6.12323399573676603587e-17$;
  } else if (a > 0.41421356237309503$) {
    t = (a - T(1)) / (a + T(1));
    base = 7.85398163397448278999e-01$;
    lo = 3.06161699786838301793e-17$;
  } else {
    t = a;
  }
  T z = t * t;
  T p = T(1) / T(2 * @ATAN_TERMS@ + 1);
  for (int i = @ATAN_TERMS@ - 1; i >= 0; --i) p = T(1) / T(2 * i + 1) - z * p;
  T r = base + (t * p + lo);
  return x < T(0) ? -r : (x == T(0) ? x : r);
}
)"}},
      {"arctan2", {"arctan copysign", R"(T vka_arctan2_F(T y, T x) {
  const T PI = 3.14159265358979311600$;
  if (isnan(x) || isnan(y)) return NAN;
  if (y == T(0)) return vka_signbit_F(x) ? vka_copysign_F(PI, y) : y;
  if (x == T(0)) return vka_copysign_F(PI * 0.5$, y);
  if (isinf(x)) {
    if (isinf(y)) return vka_copysign_F(x > T(0) ? PI * 0.25$ : PI * 0.75$, y);
    return x > T(0) ? vka_copysign_F(T(0), y) : vka_copysign_F(PI, y);
  }
  if (isinf(y)) return vka_copysign_F(PI * 0.5$, y);
  T a = vka_arctan_F(abs(y / x));
  T r = x > T(0) ? a : (PI - a) + 1.22464679914735317720e-16$;
  return vka_copysign_F(r, y);
}
)"}},
      {"arcsin", {"arctan", R"(T vka_arcsin_F(T x) {
  T a = abs(x);
  if (isnan(x) || a > T(1)) return NAN;
  if (a < 0.5$) return vka_arctan_F(x / sqrt(T(1) - x * x));
  T z = sqrt((T(1) - a) * 0.5$);
  T r = 1.57079632679489655800$ - T(2) * vka_arctan_F(z / sqrt(T(1) - z * z));
  return x < T(0) ? -r : r;
}
)"}},
      {"arccos", {"arctan", R"(T vka_arccos_F(T x) {
  if (isnan(x) || abs(x) > T(1)) return NAN;
  return T(2) * vka_arctan_F(sqrt((T(1) - x) / (T(1) + x)));
}
)"}},
      {"sinh", {"exp expm1", R"(T vka_sinh_F(T x) {
  if (isnan(x) || isinf(x) || x == T(0)) return x;
  T a = abs(x), h = x < T(0) ? -0.5$ : 0.5$;
  if (a < @HYP_BIG@$) {
    T t = vka_expm1_F(a);
    if (a < T(1)) return h * (T(2) * t - t * t / (t + T(1)));
    return h * (t + t / (t + T(1)));
  }
  T w = vka_exp_F(0.5$ * a);
  return (h * w) * w;
}
)"}},
      {"cosh", {"exp", R"(T vka_cosh_F(T x) {
  if (isnan(x)) return x;
  T a = abs(x);
  if (a < @HYP_BIG@$) {
    T t = vka_exp_F(a);
    return 0.5$ * t + 0.5$ / t;
  }
  T w = vka_exp_F(0.5$ * a);
  return (0.5$ * w) * w;
}
)"}},
      {"tanh", {"expm1 copysign", R"(T vka_tanh_F(T x) {
  if (isnan(x)) return x;
  T a = abs(x), r = T(1);
  if (a < @HYP_BIG@$) {
    T t = vka_expm1_F(T(2) * a);
    r = t / (t + T(2));
  }
  return vka_copysign_F(r, x);
}
)"}},
      {"arcsinh", {"log log1p copysign", R"(T vka_arcsinh_F(T x) {
  if (isnan(x) || isinf(x)) return x;
  T a = abs(x), r;
  if (a > @HUGE@$) {
    r = vka_log_F(a) + 0.6931471805599453$;
  } else if (a > T(2)) {
    r = vka_log_F(T(2) * a + T(1) / (sqrt(a * a + T(1)) + a));
  } else {
    T t = a * a;
    r = vka_log1p_F(a + t / (T(1) + sqrt(T(1) + t)));
  }
  return vka_copysign_F(r, x);
}
)"}},
      {"arccosh", {"log log1p", R"(T vka_arccosh_F(T x) {
  if (isnan(x) || x < T(1)) return NAN;
  if (isinf(x)) return x;
  if (x > @HUGE@$) return vka_log_F(x) + 0.6931471805599453$;
  if (x > T(2)) return vka_log_F(T(2) * x - T(1) / (x + sqrt(x * x - T(1))));
  T t = x - T(1);
  return vka_log1p_F(t + sqrt(T(2) * t + t * t));
}
)"}},
      {"arctanh", {"log1p copysign inf", R"(T vka_arctanh_F(T x) {
  T a = abs(x);
  if (isnan(x) || a > T(1)) return NAN;
  if (a == T(1)) return vka_copysign_F(INF, x);
  T r;
  if (a < 0.5$) {
    T t = a + a;
    r = 0.5$ * vka_log1p_F(t + t * a / (T(1) - a));
  } else {
    r = 0.5$ * vka_log1p_F((a + a) / (T(1) - a));
  }
  return vka_copysign_F(r, x);
}
)"}},
      {"hypot", {"", R"(T vka_hypot_F(T x, T y) {
  if (isinf(x) || isinf(y)) return INF;
  if (isnan(x) || isnan(y)) return NAN;
  T a = max(abs(x), abs(y)), b = min(abs(x), abs(y));
  if (a == T(0)) return a;
  T r = b / a;
  return a * sqrt(T(1) + r * r);
}
)"}},
      // C99 pow special cases (what numpy's float power follows), then exp(y*log|x|).
      {"power", {"exp log copysign", R"(T vka_power_F(T x, T y) {
  if (y == T(0) || x == T(1)) return T(1);
  if (isnan(x) || isnan(y)) return NAN;
  bool yint = !isinf(y) && trunc(y) == y;
  bool yodd = yint && abs(y) < 9007199254740992.0$ && mod(y, 2.0$) == T(1);
  if (isinf(y)) {
    T ax = abs(x);
    if (ax == T(1)) return T(1);
    return ((ax > T(1)) == (y > T(0))) ? INF : T(0);
  }
  if (x == T(0)) {
    if (y < T(0)) return yodd ? vka_copysign_F(INF, x) : INF;
    return yodd ? x : T(0);
  }
  if (isinf(x)) {
    if (x > T(0)) return y > T(0) ? INF : T(0);
    if (y > T(0)) return yodd ? -INF : INF;
    return yodd ? -T(0) : T(0);
  }
  if (x < T(0) && !yint) return NAN;
  T r = vka_exp_F(y * vka_log_F(abs(x)));
  return (x < T(0) && yodd) ? -r : r;
}
)"}},
  };
  return m;
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
    } else if (word_at("T")) {
      out += p.type;
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
  std::string key = std::string(fn) + "_" + p.sfx;
  if (!helpers->has(key)) {
    std::string deps = it->second.deps;
    std::size_t start = 0;
    while (start < deps.size()) {
      std::size_t end = deps.find(' ', start);
      if (end == std::string::npos) end = deps.size();
      if (end > start) math_function(deps.substr(start, end - start), t, helpers);
      start = end + 1;
    }
    helpers->add(key, instantiate(it->second.code, p));
  }
  return "vka_" + std::string(fn) + "_" + p.sfx;
}

}  // namespace vka
