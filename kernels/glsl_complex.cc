// Complex op emission: complex64 is vec2 (re, im), complex128 is dvec2, formulas as numpy's
// npymath (Smith's division, robust sqrt), using the accurate real math library.
#include "device/errors.h"
#include "kernels/glsl_ops.h"

namespace vka {
namespace {

struct Ctx {
  std::string C;  // vec2 / dvec2
  std::string T;  // float / double
  std::string sfx;
  DType m;
  HelperSet* h;
  std::string fn(const char* f) { return math_function(f, m, h); }
};

// Adds a complex helper `vka_c<name>_<sfx>` with body `body` (uses C, T) and returns its name.
std::string helper(Ctx& x, const std::string& name, const std::string& params,
                   const std::string& body) {
  std::string full = "vka_c" + name + "_" + x.sfx;
  if (!x.h->has(full)) x.h->add(full, x.C + " " + full + "(" + params + ") {\n" + body + "}\n");
  return full;
}

std::string cmul(Ctx& x) {
  return helper(x, "mul", x.C + " a, " + x.C + " b",
                "  return " + x.C + "(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);\n");
}

std::string cdiv(Ctx& x) {
  // Smith's algorithm: scale by the larger component of b to avoid overflow.
  return helper(x, "div", x.C + " a, " + x.C + " b",
                "  if (abs(b.x) >= abs(b.y)) {\n"
                "    if (b.x == " +
                    x.T + "(0) && b.y == " + x.T + "(0)) return " + x.C +
                    "(a.x / abs(b.x), a.y / abs(b.x));\n"
                    "    " +
                    x.T +
                    " r = b.y / b.x, d = b.x + b.y * r;\n"
                    "    return " +
                    x.C +
                    "((a.x + a.y * r) / d, (a.y - a.x * r) / d);\n"
                    "  }\n"
                    "  " +
                    x.T +
                    " r = b.x / b.y, d = b.x * r + b.y;\n"
                    "  return " +
                    x.C + "((a.x * r + a.y) / d, (a.y * r - a.x) / d);\n");
}

std::string cexp(Ctx& x) {
  std::string e = x.fn("exp"), s = x.fn("sin"), c = x.fn("cos");
  return helper(x, "exp", x.C + " z",
                "  if (z.y == " + x.T + "(0)) return " + x.C + "(" + e +
                    "(z.x), z.y);\n"
                    "  " +
                    x.T + " r = " + e +
                    "(z.x);\n"
                    "  return " +
                    x.C + "(r * " + c + "(z.y), r * " + s + "(z.y));\n");
}

std::string clog(Ctx& x) {
  std::string l = x.fn("log"), hy = x.fn("hypot"), at = x.fn("arctan2");
  return helper(x, "log", x.C + " z",
                "  return " + x.C + "(" + l + "(" + hy + "(z.x, z.y)), " + at + "(z.y, z.x));\n");
}

std::string csqrt(Ctx& x) {
  // npymath's csqrt: t = sqrt((|re| + |z|) / 2), branch on the sign of re.
  std::string hy = x.fn("hypot"), cs = x.fn("copysign"), inf = x.fn("inf");
  return helper(x, "sqrt", x.C + " z",
                "  if (z.x == " + x.T + "(0) && z.y == " + x.T + "(0)) return " + x.C + "(" + x.T +
                    "(0), z.y);\n"
                    "  if (isinf(z.y)) return " +
                    x.C + "(" + inf +
                    "(), z.y);\n"
                    "  " +
                    x.T + " t = sqrt((abs(z.x) + " + hy + "(z.x, z.y)) * 0.5" +
                    (x.m == DType::kFloat64 ? "LF" : "") +
                    ");\n"
                    "  if (z.x >= " +
                    x.T + "(0)) return " + x.C + "(t, z.y / (" + x.T +
                    "(2) * t));\n"
                    "  return " +
                    x.C + "(abs(z.y) / (" + x.T + "(2) * t), " + cs + "(t, z.y));\n");
}

}  // namespace

std::string emit_complex_op(Op op, DType t, const std::vector<std::string>& a, HelperSet* h) {
  Ctx x{std::string(compute_type(t)), t == DType::kComplex64 ? "float" : "double",
        t == DType::kComplex64 ? "f32" : "f64", math_dtype(t), h};
  const std::string& z = a[0];
  auto call = [&](const std::string& f, const std::string& arg) { return f + "(" + arg + ")"; };
  auto scale = [&](const std::string& v, const char* k) {
    return x.C + "(" + v + ") * " + x.T + "(" + k + (x.m == DType::kFloat64 ? "LF" : "") + ")";
  };
  auto eq = [&]() { return "all(equal(" + a[0] + ", " + a[1] + "))"; };
  // Lexicographic order, numpy's for complex: real parts first, then imaginary parts.
  auto lex = [&](const char* strict, const char* tie) {
    return "(" + a[0] + ".x " + strict + " " + a[1] + ".x || (" + a[0] + ".x == " + a[1] +
           ".x && " + a[0] + ".y " + tie + " " + a[1] + ".y))";
  };
  std::string one = x.C + "(1, 0)";
  switch (op) {
    case Op::kBuffer:
    case Op::kFull:
    case Op::kArange:
    case Op::kLinspace:
    case Op::kEye:
    case Op::kAstype:
      internal_error("emit_complex_op on a leaf, source or astype", __FILE__, __LINE__);
    case Op::kNegative:
      return "(-" + z + ")";
    case Op::kPositive:
      return z;
    case Op::kConj:
      return x.C + "((" + z + ").x, -(" + z + ").y)";
    case Op::kReal:
      return "(" + z + ").x";
    case Op::kImag:
      return "(" + z + ").y";
    case Op::kAbs:
      return x.fn("hypot") + "((" + z + ").x, (" + z + ").y)";
    case Op::kSign:
      // numpy 2: z / |z|, and 0 for 0.
      return "((" + z + ") == " + x.C + "(0) ? " + x.C + "(0) : (" + z + ") / " + x.fn("hypot") +
             "((" + z + ").x, (" + z + ").y))";
    case Op::kSquare:
      return cmul(x) + "(" + z + ", " + z + ")";
    case Op::kReciprocal:
      return cdiv(x) + "(" + one + ", " + z + ")";
    case Op::kAdd:
      return "(" + a[0] + " + " + a[1] + ")";
    case Op::kSubtract:
      return "(" + a[0] + " - " + a[1] + ")";
    case Op::kMultiply:
      return cmul(x) + "(" + a[0] + ", " + a[1] + ")";
    case Op::kDivide:
      return cdiv(x) + "(" + a[0] + ", " + a[1] + ")";
    case Op::kPower: {
      std::string f = helper(x, "pow", x.C + " a, " + x.C + " b",
                             "  if (b == " + x.C + "(0)) return " + one +
                                 ";\n"
                                 "  if (a == " +
                                 x.C + "(0)) return " + x.C +
                                 "(0);\n"
                                 "  return " +
                                 cexp(x) + "(" + cmul(x) + "(b, " + clog(x) + "(a)));\n");
      return f + "(" + a[0] + ", " + a[1] + ")";
    }
    case Op::kSqrt:
      return call(csqrt(x), z);
    case Op::kExp:
      return call(cexp(x), z);
    case Op::kExp2:
      return call(cexp(x), scale(z, "0.6931471805599453"));
    case Op::kExpm1:
      return "(" + call(cexp(x), z) + " - " + one + ")";
    case Op::kLog:
      return call(clog(x), z);
    case Op::kLog2:
      return scale(call(clog(x), z), "1.4426950408889634");
    case Op::kLog10:
      return scale(call(clog(x), z), "0.43429448190325182");
    case Op::kLog1p:
      return call(clog(x), "(" + z + ") + " + one);
    case Op::kSin:
    case Op::kCos:
    case Op::kSinh:
    case Op::kCosh:
    case Op::kTan:
    case Op::kTanh: {
      std::string s = x.fn("sin"), c = x.fn("cos"), sh = x.fn("sinh"), ch = x.fn("cosh");
      std::string sin_ = helper(x, "sin", x.C + " z",
                                "  return " + x.C + "(" + s + "(z.x) * " + ch + "(z.y), " + c +
                                    "(z.x) * " + sh + "(z.y));\n");
      std::string cos_ = helper(x, "cos", x.C + " z",
                                "  return " + x.C + "(" + c + "(z.x) * " + ch + "(z.y), -" + s +
                                    "(z.x) * " + sh + "(z.y));\n");
      std::string sinh_ = helper(x, "sinh", x.C + " z",
                                 "  return " + x.C + "(" + sh + "(z.x) * " + c + "(z.y), " + ch +
                                     "(z.x) * " + s + "(z.y));\n");
      std::string cosh_ = helper(x, "cosh", x.C + " z",
                                 "  return " + x.C + "(" + ch + "(z.x) * " + c + "(z.y), " + sh +
                                     "(z.x) * " + s + "(z.y));\n");
      if (op == Op::kSin) return call(sin_, z);
      if (op == Op::kCos) return call(cos_, z);
      if (op == Op::kSinh) return call(sinh_, z);
      if (op == Op::kCosh) return call(cosh_, z);
      if (op == Op::kTan) return cdiv(x) + "(" + call(sin_, z) + ", " + call(cos_, z) + ")";
      return cdiv(x) + "(" + call(sinh_, z) + ", " + call(cosh_, z) + ")";
    }
    case Op::kRound:
    case Op::kRint:
      return "roundEven(" + z + ")";
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
    case Op::kArcsin:
    case Op::kArccos:
    case Op::kArctan:
    case Op::kArcsinh:
    case Op::kArccosh:
    case Op::kArctanh:
    case Op::kArctan2:
    case Op::kHypot:
    case Op::kCopysign:
    case Op::kFloor:
    case Op::kCeil:
    case Op::kTrunc:
    case Op::kSignbit:
    case Op::kBitwiseNot:
    case Op::kFloorDivide:
    case Op::kRemainder:
    case Op::kMaximum:
    case Op::kMinimum:
    case Op::kFmax:
    case Op::kFmin:
    case Op::kBitwiseAnd:
    case Op::kBitwiseOr:
    case Op::kBitwiseXor:
    case Op::kLeftShift:
    case Op::kRightShift:
      break;  // check_accepts in emit_op rejected these before we got here
  }
  internal_error("emit_complex_op: op has no complex form", __FILE__, __LINE__);
}

}  // namespace vka
