// Complex op emission: complex64 is vec2 (re, im), complex128 is dvec2. The functions follow
// numpy's loops (nc_pow's integer powers, Smith's division, lexicographic order with its NaN
// rule) and, where numpy calls the C library (cexp, clog, cpow, ctanh), glibc's formulas, so
// that rounding matches; they are math-library templates (math_templates.h). exp, expm1,
// sinh, cosh, tanh, sin and cos live in complex_exp.cc.
#include "base/errors.h"
#include "kernels/glsl/math_templates.h"
#include "kernels/glsl/ops.h"

namespace vka {
namespace math_internal {

void add_complex_templates(Templates* m) {
  m->insert({
      {"cmul", {"", R"(C vka_cmul_F(C a, C b) {
  C r = C(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
  return r;
}
)"}},
      // Smith's algorithm as numpy's loop computes it: scale by the larger component of b,
      // the quotient's parts multiplied by the reciprocal scl (not divided: a last-bit
      // difference), no contraction into fma.
      {"cdiv", {"inf", R"(C vka_cdiv_F(C a, C b) {
  if (abs(b.x) >= abs(b.y)) {
    if (b.x == T(0) && b.y == T(0)) {  // each part / +0, spelled out: a compiler may fold 0 / 0
      return C(isnan(a.x) || a.x == T(0) ? T(NAN) : a.x > T(0) ? T(INF) : -T(INF),
               isnan(a.y) || a.y == T(0) ? T(NAN) : a.y > T(0) ? T(INF) : -T(INF));
    }
    precise T r = b.y / b.x;
    precise T scl = T(1) / (b.x + b.y * r);
    precise C q = C((a.x + a.y * r) * scl, (a.y - a.x * r) * scl);
    return q;
  }
  precise T r = b.x / b.y;
  precise T scl = T(1) / (b.y + b.x * r);
  precise C q = C((a.x * r + a.y) * scl, (a.y * r - a.x) * scl);
  return q;
}
)"}},
      // log|z| as glibc's clog: near |z| = 1, log1p of the exactly computed x^2 + y^2 - 1.
      {"clog", {"log log1p logx hypot arctan2 twosum", R"(C vka_clog_F(C z) {
  T h = vka_hypot_F(z.x, z.y);
  T re;
  if (h > 0.70703125$ && h < 1.4140625$) {
    T a = max(abs(z.x), abs(z.y));
    T b = min(abs(z.x), abs(z.y));
    T al;
    T bl;
    T e1;
    T e2;
    T a2 = vka_twoprod_F(a, a, al);
    T b2 = vka_twoprod_F(b, b, bl);
    T s1 = vka_twosum_F(a2, T(-1), e1);
    T s2 = vka_twosum_F(s1, b2, e2);
    T d = s2 + (((e1 + e2) + al) + bl);
    re = 0.5$ * vka_log1p_F(d);
  } else if (h == T(0) || isinf(h) || isnan(h)) {
    re = vka_log_F(h);
  } else {
    T l;
    T lh = vka_logx_F(h, l);
    re = lh + l;
  }
  return C(re, vka_arctan2_F(z.y, z.x));
}
)"}},
      // npymath's csqrt: t = sqrt((|re| + |z|) / 2), branch on the sign of re.
      {"csqrt", {"hypot copysign inf", R"(C vka_csqrt_F(C z) {
  if (z.x == T(0) && z.y == T(0)) return C(T(0), z.y);
  if (isinf(z.y)) return C(INF, z.y);
  T t = sqrt((abs(z.x) + vka_hypot_F(z.x, z.y)) * 0.5$);
  if (z.x >= T(0)) return C(t, z.y / (T(2) * t));
  return C(abs(z.y) / (T(2) * t), vka_copysign_F(t, z.y));
}
)"}},
      // numpy's nc_pow: integer exponents |n| < 100 by repeated squaring (n = 1, 2, 3
      // unrolled), others glibc's cpow, e^(b log a).
      {"cpow", {"cmul cdiv cexp clog trunc", R"(C vka_cpow_F(C a, C b) {
  if (b.x == T(0) && b.y == T(0)) return C(1, 0);
  if (a.x == T(0) && a.y == T(0)) {
    if (b.x > T(0) && b.y == T(0)) return C(0);
    return C(NAN, NAN);
  }
  if (b.y == T(0) && abs(b.x) < 100.0$ && vka_trunc_F(b.x) == b.x) {
    int n = int(b.x);
    if (n == 1) return a;
    if (n == 2) return vka_cmul_F(a, a);
    if (n == 3) return vka_cmul_F(a, vka_cmul_F(a, a));
    int k = abs(n);
    C acc = C(1, 0);
    C p = a;
    for (int i = 0; i < 7; ++i) {
      if ((k & (1 << i)) != 0) acc = vka_cmul_F(acc, p);
      if (k < (2 << i)) break;
      p = vka_cmul_F(p, p);
    }
    if (n < 0) acc = vka_cdiv_F(C(1, 0), acc);
    return acc;
  }
  return vka_cexp_F(vka_cmul_F(b, vka_clog_F(a)));
}
)"}},
      // numpy's complex abs: npy_cabs, glibc's hypot (wide_abs below says why not the
      // formula of numpy 1.24's AVX512F loop).
      {"cabs", {"hypot", R"(T vka_cabs_F(C z) {
  return vka_hypot_F(z.x, z.y);
}
)"}},
      // Round half to even, each part (numpy's complex rint and round).
      {"crint", {"rint", R"(C vka_crint_F(C z) {
  return C(vka_rint_F(z.x), vka_rint_F(z.y));
}
)"}},
      // numpy 2's sign: z / |z|; for infinite |z|, the unit vector along the infinite part
      // (NaN when both are infinite); 0 for 0; NaN when |z| is.
      {"csign", {"hypot", R"(C vka_csign_F(C z) {
  T a = vka_hypot_F(z.x, z.y);
  if (isnan(a)) return C(NAN, NAN);
  if (isinf(a)) {
    if (isinf(z.x)) return isinf(z.y) ? C(NAN, NAN) : C(z.x > T(0) ? T(1) : T(-1), T(0));
    return C(T(0), z.y > T(0) ? T(1) : T(-1));
  }
  if (a == T(0)) return C(0);
  C w = C(z.x / a, z.y / a);
  return w;
}
)"}},
  });
}

}  // namespace math_internal

namespace {

// numpy's complex64 abs: npy_cabsf is glibc's hypotf, the sum of the squares in double (the
// products are exact) and its square root rounded to float; infinite when a part is, even with
// a NaN beside it, else NaN with a NaN. numpy 1.24's AVX512F loop computes larger *
// sqrt(1 + (smaller / larger)^2) instead, an ulp away for about a quarter of random inputs:
// vkarray gives hypot's answer whatever the host (docs/accuracy.md).
std::string wide_abs(HelperSet* h) {
  if (!h->has("cabs_wide")) {
    h->add("cabs_wide", R"(float vka_cabs_wide(vec2 z) {
  if (isinf(z.x) || isinf(z.y)) return uintBitsToFloat(0x7f800000u);
  if (isnan(z.x) || isnan(z.y)) return uintBitsToFloat(0x7fc00000u);
  precise double s = double(z.x) * double(z.x) + double(z.y) * double(z.y);
  precise float h = float(sqrt(s));
  return h;
}
)");
  }
  return "vka_cabs_wide";
}

// numpy 2's sign, z / hypot(re, im), with the hypot as abs computes it and each part divided in
// double (a float quotient of two floats, computed in double and rounded once, is the correctly
// rounded one).
std::string wide_sign(HelperSet* h) {
  if (!h->has("csign_wide")) {
    std::string cabs = wide_abs(h);
    h->add("csign_wide", R"(vec2 vka_csign_wide(vec2 z) {
  float a = )" + cabs + R"((z);
  if (isnan(a)) return vec2(uintBitsToFloat(0x7fc00000u));
  if (isinf(a)) {
    if (isinf(z.x)) return isinf(z.y) ? vec2(uintBitsToFloat(0x7fc00000u))
                                      : vec2(z.x > 0.0 ? 1.0 : -1.0, 0.0);
    return vec2(0.0, z.y > 0.0 ? 1.0 : -1.0);
  }
  if (a == 0.0) return vec2(0.0);
  precise float re = float(double(z.x) / double(a));
  precise float im = float(double(z.y) / double(a));
  return vec2(re, im);
}
)");
  }
  return "vka_csign_wide";
}

}  // namespace

std::string emit_complex_op(Op op, DType t, const std::vector<std::string>& a, HelperSet* h) {
  const std::string C(compute_type(t));
  const std::string T = t == DType::kComplex64 ? "float" : "double";
  const DType m = math_dtype(t);
  const std::string& z = a[0];
  // complex64 |z| and sign with their divisions and square roots in double, rounded once
  // (a GPU's float division and sqrt may be an ulp off; numpy's are correctly rounded).
  const bool wide = t == DType::kComplex64 && h->float64;
  auto fn = [&](const char* f) { return math_function(f, m, h); };
  auto call = [&](const char* f, const std::string& args) { return fn(f) + "(" + args + ")"; };
  auto in_double = [&](const char* f) {
    return "vec2(" + math_function(f, DType::kFloat64, h) + "(dvec2(" + z + ")))";
  };
  auto named = [&](const char* group, const char* f, const std::string& args) {
    fn(group);
    return std::string(f) + (m == DType::kFloat64 ? "_f64" : "_f32") + "(" + args + ")";
  };
  auto scale = [&](const std::string& v, const char* k) {
    return C + "(" + v + ") * " + T + "(" + k + (m == DType::kFloat64 ? "LF" : "") + ")";
  };
  auto eq = [&]() { return "all(equal(" + a[0] + ", " + a[1] + "))"; };
  // numpy's order for complex: real parts first, then imaginary parts; a NaN imaginary part
  // makes the real-part comparison false (CLT/CLE/CGT/CGE in numpy's loops).
  auto lex = [&](const char* strict, const char* tie) {
    const std::string& x = a[0];
    const std::string& y = a[1];
    return "((" + x + ".x " + strict + " " + y + ".x && !isnan(" + x + ".y) && !isnan(" + y +
           ".y)) || (" + x + ".x == " + y + ".x && " + x + ".y " + tie + " " + y + ".y))";
  };
  std::string one = C + "(1, 0)";
  switch (op) {
    // Rows without a complex form (ops.def: complex): check_accepts in emit_op rejected their
    // complex operands before we got here.
#define VKA_OP(e, name, arity, kind, kinds, rule, real, complex, ...) \
  VKA_OP_IF(complex, kNone, case Op::e:)
#include "ir/ops.def"
#undef VKA_OP
      break;
    case Op::kNegative:
      return "(-" + z + ")";
    case Op::kPositive:
      return z;
    case Op::kConj:
      return C + "((" + z + ").x, -(" + z + ").y)";
    case Op::kReal:
      return "(" + z + ").x";
    case Op::kImag:
      return "(" + z + ").y";
    case Op::kAbs:
      return wide ? wide_abs(h) + "(" + z + ")" : call("cabs", z);
    case Op::kSign:
      return wide ? wide_sign(h) + "(" + z + ")" : call("csign", z);
    case Op::kSquare:
      return call("cmul", z + ", " + z);
    case Op::kReciprocal:
      return call("cdiv", one + ", " + z);
    case Op::kAdd:
      return "(" + a[0] + " + " + a[1] + ")";
    case Op::kSubtract:
      return "(" + a[0] + " - " + a[1] + ")";
    case Op::kMultiply:
      return call("cmul", a[0] + ", " + a[1]);
    case Op::kDivide:
      return call("cdiv", a[0] + ", " + a[1]);
    case Op::kPower:
      return call("cpow", a[0] + ", " + a[1]);
    case Op::kSqrt:
      return call("csqrt", z);
    case Op::kExp:
      return call("cexp", z);
    case Op::kExp2:
      return call("cexp", scale(z, "0.6931471805599453"));
    case Op::kExpm1:
      return call("cexpm1", z);
    case Op::kLog:
      return call("clog", z);
    case Op::kLog2:
      return scale(call("clog", z), "1.4426950408889634");
    case Op::kLog10:
      return scale(call("clog", z), "0.43429448190325182");
    case Op::kLog1p: {
      // numpy's nc_log1p: (log(hypot(x + 1, y)), atan2(y, x + 1)), plainly (inaccurate near
      // z = 0, and matched as such).
      std::string w = "(" + z + ") + " + one;
      return C + "(" + call("log", fn("hypot") + "((" + w + ").x, (" + w + ").y)") + ", " +
             call("arctan2", "(" + z + ").y, (" + w + ").x") + ")";
    }
    case Op::kSin:
      return named("ctrig", "vka_csin", z);
    case Op::kCos:
      return named("ctrig", "vka_ccos", z);
    case Op::kSinh:
      return named("ctrig", "vka_csinh", z);
    case Op::kCosh:
      return named("ctrig", "vka_ccosh", z);
    case Op::kTanh:
      return call("ctanh", z);
    case Op::kTan: {
      // tan z = -i tanh(i z)
      std::string w = call("ctanh", C + "(-(" + z + ").y, (" + z + ").x)");
      return "(" + C + "(" + w + ".y, -" + w + ".x))";
    }
    // complex64's inverse functions in double where the device has it, rounded once: their
    // float intermediates underflow to subnormals near FLT_MIN, which a GPU may flush.
    case Op::kArcsin:
      return wide ? in_double("casin") : call("casin", z);
    case Op::kArccos:
      return wide ? in_double("cacos") : call("cacos", z);
    case Op::kArctan:
      return wide ? in_double("catan") : call("catan", z);
    case Op::kArcsinh:
      return wide ? in_double("casinh") : call("casinh", z);
    case Op::kArccosh:
      return wide ? in_double("cacosh") : call("cacosh", z);
    case Op::kArctanh:
      return wide ? in_double("catanh") : call("catanh", z);
    case Op::kRound:
    case Op::kRint:
      return call("crint", z);
    case Op::kIsnan:
      return "any(isnan(" + z + "))";
    case Op::kIsinf:
      return "any(isinf(" + z + "))";
    case Op::kIsfinite:
      return "!(any(isnan(" + z + ")) || any(isinf(" + z + ")))";
    case Op::kLogicalNot:
      return "(!" + truth(t, z) + ")";
    case Op::kLogicalAnd:
      return "(" + truth(t, a[0]) + " && " + truth(t, a[1]) + ")";
    case Op::kLogicalOr:
      return "(" + truth(t, a[0]) + " || " + truth(t, a[1]) + ")";
    case Op::kLogicalXor:
      return "(" + truth(t, a[0]) + " != " + truth(t, a[1]) + ")";
    case Op::kEqual:
      return eq();
    case Op::kNotEqual:
      return "(!" + eq() + ")";
    case Op::kLess:
      return lex("<", "<");
    case Op::kLessEqual:
      return lex("<", "<=");
    case Op::kGreater:
      return lex(">", ">");
    case Op::kGreaterEqual:
      return lex(">", ">=");
    case Op::kWhere:
      return "(" + a[0] + " ? " + a[1] + " : " + a[2] + ")";
    // numpy's loops: maximum/minimum keep x when it holds a NaN, else the larger/smaller in
    // lexicographic order (y when y holds a NaN); fmax/fmin keep x when y holds a NaN.
    case Op::kMaximum:
      return "((any(isnan(" + a[0] + ")) || " + lex(">", ">=") + ") ? " + a[0] + " : " + a[1] +
             ")";
    case Op::kMinimum:
      return "((any(isnan(" + a[0] + ")) || " + lex("<", "<=") + ") ? " + a[0] + " : " + a[1] +
             ")";
    case Op::kFmax:
      return "((any(isnan(" + a[1] + ")) || " + lex(">", ">=") + ") ? " + a[0] + " : " + a[1] +
             ")";
    case Op::kFmin:
      return "((any(isnan(" + a[1] + ")) || " + lex("<", "<=") + ") ? " + a[0] + " : " + a[1] +
             ")";
  }
  internal_error("emit_complex_op: op has no complex form", __FILE__, __LINE__);
}

}  // namespace vka
