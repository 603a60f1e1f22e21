// The state of a reduction kernel and its algebra (kernels/gen/reduce_state.h).
#include "kernels/gen/reduce_state.h"

#include "base/errors.h"
#include "kernels/gen/reduce.h"
#include "kernels/glsl/ops.h"

namespace vka {
namespace {

bool is_real_float(DType t) { return is_floating(t); }

// -inf / +inf / NaN, or an integer type's lowest / highest value, as a GLSL constant of `t`.
std::string extreme(DType t, bool highest) {
  switch (t) {
    case DType::kBool:
      return highest ? "true" : "false";
    case DType::kInt8:
      return highest ? "int8_t(127)" : "int8_t(-128)";
    case DType::kUInt8:
      return highest ? "uint8_t(255)" : "uint8_t(0)";
    case DType::kInt16:
      return highest ? "int16_t(32767)" : "int16_t(-32768)";
    case DType::kUInt16:
      return highest ? "uint16_t(65535)" : "uint16_t(0)";
    case DType::kInt32:
      return highest ? "int(0x7fffffff)" : "int(0x80000000u)";
    case DType::kUInt32:
      return highest ? "0xffffffffu" : "0u";
    case DType::kInt64:
      return highest ? "int64_t(0x7fffffffffffffffl)" : "int64_t(0x8000000000000000ul)";
    case DType::kUInt64:
      return highest ? "uint64_t(0xfffffffffffffffful)" : "uint64_t(0)";
    case DType::kFloat16:
      return highest ? "float16_t(uintBitsToFloat(0x7f800000u))"
                     : "float16_t(uintBitsToFloat(0xff800000u))";
    case DType::kFloat32:
      return highest ? "uintBitsToFloat(0x7f800000u)" : "uintBitsToFloat(0xff800000u)";
    case DType::kFloat64:
      return highest ? "packDouble2x32(uvec2(0u, 0x7ff00000u))"
                     : "packDouble2x32(uvec2(0u, 0xfff00000u))";
    case DType::kComplex64:
    case DType::kComplex128:  // (±inf, ±inf): the first and last in numpy's complex order
      return std::string(value_type(t)) + "(" + extreme(real_dtype(t), highest) + ")";
  }
  internal_error("extreme value of an unknown dtype", __FILE__, __LINE__);
}

std::string quiet_nan(DType t) {
  if (is_complex(t)) return std::string(value_type(t)) + "(" + quiet_nan(real_dtype(t)) + ")";
  if (t == DType::kFloat64) return "packDouble2x32(uvec2(0u, 0x7ff80000u))";
  if (t == DType::kFloat16) return "float16_t(uintBitsToFloat(0x7fc00000u))";
  return "uintBitsToFloat(0x7fc00000u)";
}

// A floating slot in the compute type of `t` (kernel_spec.h: Scalar::words()).
std::string float_slot(DType t, int slot) {
  const std::string c = "pc.c" + std::to_string(slot);
  return t == DType::kFloat64 ? "packDouble2x32(" + c + ")" : "uintBitsToFloat(" + c + ".x)";
}

}  // namespace

ReduceState::ReduceState(const KernelSpec& spec, HelperSet* helpers)
    : r_(spec.reduce), h_(helpers) {
  vt_ = std::string(vka::value_type(r_.acc));
  comp_ = is_compensated(r_);
  arg_ = is_arg_reduction(r_.op);
  // Arg states index in 32 bits unless the indices may not fit (or come in as int64).
  xt_ = r_.combine || spec.index64 ? "int64_t" : "int";
}

std::string ReduceState::to_compute(const std::string& v) const {
  return vka::to_compute(r_.acc, v);
}

std::string ReduceState::from_compute(const std::string& c) const {
  return vka::from_compute(r_.acc, c, h_);
}

std::string ReduceState::identity() const {
  const DType t = r_.acc;
  switch (r_.op) {
    case Op::kSum:
    case Op::kMean:
      return vt_ + "(0)";
    case Op::kProd:
      return is_complex(t) ? vt_ + "(1, 0)" : vt_ + "(1)";
    case Op::kNanMax:
    case Op::kNanMin:
      if (is_real_float(t) || is_complex(t)) return quiet_nan(t);
      return extreme(t, r_.op == Op::kNanMin);
    case Op::kMax:
    case Op::kArgmax:
      return extreme(t, false);
    case Op::kMin:
    case Op::kArgmin:
      return extreme(t, true);
    case Op::kAny:
      return "false";
    case Op::kAll:
      return "true";
    default:
      break;
  }
  internal_error("identity of a non-reduction op", __FILE__, __LINE__);
}

void ReduceState::declare(GlslWriter& w) const {
  const std::string q = comp_ ? "precise " : "";
  w.line(q + vt_ + " rs = " + identity() + ";");
  if (comp_) w.line(q + vt_ + " rc = " + vt_ + "(0);");
  if (arg_) w.line(xt_ + " rx = " + xt_ + "(-1);");
}

// The binary op that folds one value into the state (non-compensated, non-arg ops).
Op ReduceState::fold_op() const {
  switch (r_.op) {
    case Op::kSum:
    case Op::kMean:
      return Op::kAdd;
    case Op::kProd:
      return Op::kMultiply;
    case Op::kMax:
      return Op::kMaximum;
    case Op::kMin:
      return Op::kMinimum;
    case Op::kNanMax:
      return Op::kFmax;
    case Op::kNanMin:
      return Op::kFmin;
    case Op::kAny:
      return Op::kLogicalOr;
    case Op::kAll:
      return Op::kLogicalAnd;
    default:
      break;
  }
  internal_error("fold op of an arg reduction", __FILE__, __LINE__);
}

// `a` orders before `b` for the arg reduction (NaN first, as numpy's argmax/argmin; complex
// numbers in lexicographic order, one with a NaN part first).
std::string ReduceState::better(const std::string& a, const std::string& b) const {
  const bool mx = r_.op == Op::kArgmax;
  const char* rel = mx ? " > " : " < ";
  if (is_bool(r_.acc)) return "(int(" + a + ")" + rel + "int(" + b + "))";
  if (is_complex(r_.acc)) {
    const std::string x = "(" + a + ")", y = "(" + b + ")";
    return "(!any(isnan(" + y + ")) && (any(isnan(" + x + ")) || " + x + ".x" + rel + y +
           ".x || (" + x + ".x == " + y + ".x && " + x + ".y" + rel + y + ".y)))";
  }
  std::string s = "(" + a + rel + b + ")";
  if (is_real_float(r_.acc)) s = "((isnan(" + a + ") && !isnan(" + b + ")) || " + s + ")";
  return s;
}
std::string ReduceState::same(const std::string& a, const std::string& b) const {
  if (is_complex(r_.acc)) {
    return "(all(equal(" + a + ", " + b + ")) || (any(isnan(" + a + ")) && any(isnan(" + b + "))))";
  }
  std::string s = "(" + a + " == " + b + ")";
  if (is_real_float(r_.acc)) s = "(" + s + " || (isnan(" + a + ") && isnan(" + b + ")))";
  return s;
}

void ReduceState::add(GlslWriter& w, const std::string& e, const std::string& x,
                      const std::string& c, bool ordered) const {
  if (comp_) {
    w.open("");
    w.line("precise " + vt_ + " t = rs + " + e + ";");
    w.line("precise " + vt_ + " z = t - rs;");
    w.line("rc = rc + ((rs - (t - z)) + (" + e + " - z))" + (c.empty() ? "" : " + " + c) + ";");
    w.line("rs = t;");
    w.close();
    return;
  }
  if (arg_ && ordered) {  // a later element wins only by being better
    w.line("if (rx < 0 || " + better(e, "rs") + ") { rs = " + e + "; rx = " + x + "; }");
    return;
  }
  if (arg_) {
    w.line("if (" + x + " >= 0 && (rx < 0 || " + better(e, "rs") + " || (" + same(e, "rs") +
           " && " + x + " < rx))) { rs = " + e + "; rx = " + x + "; }");
    return;
  }
  w.line("rs = " + from_compute(emit_op(fold_op(), r_.acc, {to_compute("rs"), to_compute(e)}, h_)) +
         ";");
}

std::string ReduceState::folded() const {
  if (!comp_) return "rs";
  return "mix(rs + rc, rs, isinf(rs))";
}

std::string ReduceState::result(DType out) const {
  if (arg_) return "int64_t(rx)";
  std::string v = folded();
  if (r_.op == Op::kMean && !r_.partial) {
    VKA_ASSERT(r_.divisor_slot >= 0);
    std::string d = float_slot(real_dtype(r_.acc), r_.divisor_slot);
    if (is_complex(r_.acc)) d = std::string(compute_type(r_.acc)) + "(" + d + ", 0)";
    v = from_compute(emit_op(Op::kDivide, r_.acc, {to_compute(v), d}, h_));
  }
  if (out != r_.acc) v = vka::from_compute(out, emit_cast(r_.acc, out, to_compute(v), h_), h_);
  if (is_bool(out)) v = "uint8_t(" + v + " ? 1 : 0)";
  return v;
}

}  // namespace vka
