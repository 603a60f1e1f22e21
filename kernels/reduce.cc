// The loops and the accumulation of reduction kernels.
#include "kernels/reduce.h"

#include <string>

#include "device/errors.h"
#include "kernels/glsl_ops.h"
#include "kernels/indexing.h"

namespace vka {

bool is_arg_reduction(Op op) { return op == Op::kArgmax || op == Op::kArgmin; }

bool is_compensated(const ReduceSpec& r) {
  return (r.op == Op::kSum || r.op == Op::kMean) && (is_floating(r.acc) || is_complex(r.acc));
}

namespace {

// Elements each invocation loads per step of its loop (independent loads in flight).
constexpr int kUnroll = 4;

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
    case DType::kComplex128:
      break;
  }
  internal_error("extreme value of a complex dtype", __FILE__, __LINE__);
}

std::string quiet_nan(DType t) {
  if (t == DType::kFloat64) return "packDouble2x32(uvec2(0u, 0x7ff80000u))";
  if (t == DType::kFloat16) return "float16_t(uintBitsToFloat(0x7fc00000u))";
  return "uintBitsToFloat(0x7fc00000u)";
}

// A floating slot in the compute type of `t` (kernel_spec.h: Scalar::words()).
std::string float_slot(DType t, int slot) {
  const std::string c = "pc.c" + std::to_string(slot);
  return t == DType::kFloat64 ? "packDouble2x32(" + c + ")" : "uintBitsToFloat(" + c + ".x)";
}

class ReduceEmitter {
 public:
  ReduceEmitter(const KernelSpec& spec, uint32_t wg, TapeEmitter& tape, HelperSet* h)
      : s_(spec), r_(spec.reduce), wg_(wg), tape_(tape), h_(h) {
    VKA_ASSERT(s_.kind == KernelKind::kReduce);
    // Vectors: cooperative, every input contiguous (or a broadcast scalar), slices aligned.
    VKA_ASSERT(s_.vector_width == 1 ||
               (s_.vector_width == 4 && spec.reduce.strategy == ReduceStrategy::kCooperative &&
                !spec.reduce.combine));
    it_ = index_type(s_);
    vt_ = std::string(value_type(r_.acc));
    comp_ = is_compensated(r_);
    arg_ = is_arg_reduction(r_.op);
    n_in_ = static_cast<int>(s_.inputs.size());
    strided_ = any_strided(s_);
    // Arg states index in 32 bits unless the indices may not fit (or come in as int64).
    xt_ = r_.combine || s_.index64 ? "int64_t" : "int";
  }

  void run(GlslWriter& w) {
    if (r_.strategy == ReduceStrategy::kCooperative) declare_shared();
    w.open("void main()");
    if (r_.strategy == ReduceStrategy::kCooperative) {
      cooperative(w);
    } else {
      serial(w);
    }
    w.close();
  }

 private:
  std::string I(const std::string& x) const { return it_ + "(" + x + ")"; }
  std::string cmp(const std::string& v) const { return to_compute(r_.acc, v); }
  std::string val(const std::string& c) const { return from_compute(r_.acc, c); }

  std::string identity() const {
    const DType t = r_.acc;
    switch (r_.op) {
      case Op::kSum:
      case Op::kMean:
        return vt_ + "(0)";
      case Op::kProd:
        return is_complex(t) ? vt_ + "(1, 0)" : vt_ + "(1)";
      case Op::kNanMax:
      case Op::kNanMin:
        if (is_real_float(t)) return quiet_nan(t);
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

  void declare_state(GlslWriter& w) const {
    const std::string q = comp_ ? "precise " : "";
    w.line(q + vt_ + " rs = " + identity() + ";");
    if (comp_) w.line(q + vt_ + " rc = " + vt_ + "(0);");
    if (arg_) w.line(xt_ + " rx = " + xt_ + "(-1);");
  }

  // The binary op that folds one value into the state (non-compensated, non-arg ops).
  Op fold_op() const {
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

  // `a` orders before `b` for the arg reduction (NaN first, as numpy's argmax/argmin).
  std::string better(const std::string& a, const std::string& b) const {
    const bool mx = r_.op == Op::kArgmax;
    const char* rel = mx ? " > " : " < ";
    if (is_bool(r_.acc)) return "(int(" + a + ")" + rel + "int(" + b + "))";
    std::string s = "(" + a + rel + b + ")";
    if (is_real_float(r_.acc)) s = "((isnan(" + a + ") && !isnan(" + b + ")) || " + s + ")";
    return s;
  }
  std::string same(const std::string& a, const std::string& b) const {
    std::string s = "(" + a + " == " + b + ")";
    if (is_real_float(r_.acc)) s = "(" + s + " || (isnan(" + a + ") && isnan(" + b + ")))";
    return s;
  }

  // Folds value `e` (value type) with index `x` (an int64 expression, arg ops) into the
  // state. `c`: the compensation of a state being combined ("" for an element).
  // `ordered`: x is larger than every index folded so far (an invocation's own elements).
  void add(GlslWriter& w, const std::string& e, const std::string& x, const std::string& c = "",
           bool ordered = false) const {
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
    w.line("rs = " + val(emit_op(fold_op(), r_.acc, {cmp("rs"), cmp(e)}, h_)) + ";");
  }

  // The state's value: a compensated sum adds its error term, unless the sum is infinite
  // (then the term is NaN from inf - inf, and the sum is the answer).
  std::string folded() const {
    if (!comp_) return "rs";
    return "mix(rs + rc, rs, isinf(rs))";
  }

  std::string result(DType out) const {
    if (arg_) return "int64_t(rx)";
    std::string v = folded();
    if (r_.op == Op::kMean && !r_.partial) {
      VKA_ASSERT(r_.divisor_slot >= 0);
      std::string d = float_slot(real_dtype(r_.acc), r_.divisor_slot);
      if (is_complex(r_.acc)) d = std::string(compute_type(r_.acc)) + "(" + d + ", 0)";
      v = val(emit_op(Op::kDivide, r_.acc, {cmp(v), d}, h_));
    }
    if (out != r_.acc) v = from_compute(out, emit_cast(r_.acc, out, cmp(v), h_));
    if (is_bool(out)) v = "uint8_t(" + v + " ? 1 : 0)";
    return v;
  }

  void declare_shared() {
    const std::string ct(compute_type(r_.acc)), n = std::to_string(wg_);
    std::string code = "shared " + ct + " sh_s[" + n + "];\n";
    if (comp_) code += "shared " + ct + " sh_c[" + n + "];\n";
    if (arg_) code += "shared " + xt_ + " sh_x[" + n + "];\n";
    h_->add("reduce_shared", code);
  }

  // i0..i{kept-1} from the output index m (only strided accessors read them).
  void kept_index(GlslWriter& w) const {
    if (!strided_ || r_.kept == 0) return;
    w.line(it_ + " mrest = m;");
    for (int d = r_.kept - 1; d >= 1; --d) {
      const std::string dim = "pc.dim" + std::to_string(d);
      w.line(it_ + " i" + std::to_string(d) + " = mrest % " + dim + ";");
      w.line("mrest /= " + dim + ";");
    }
    w.line(it_ + " i0 = mrest;");
  }

  // One element at reduced index `k`: its flat and N-d index, the tape, its value in e<u>
  // (and its index in x<u>).
  void element(GlslWriter& w, const std::string& k, int u) {
    const std::string U = std::to_string(u);
    w.open("");
    w.line(it_ + " k = " + k + ";");
    w.line(it_ + " i = m * pc.rk + k;");
    if (strided_ && s_.rank > r_.kept) {
      w.line(it_ + " krest = k;");
      for (int d = s_.rank - 1; d > r_.kept; --d) {
        const std::string dim = "pc.dim" + std::to_string(d);
        w.line(it_ + " i" + std::to_string(d) + " = krest % " + dim + ";");
        w.line("krest /= " + dim + ";");
      }
      w.line(it_ + " i" + std::to_string(r_.kept) + " = krest;");
    }
    tape_.emit(w);
    w.line("e" + U + " = v" + std::to_string(s_.results[0]) + ";");
    if (arg_) {
      w.line(
          "x" + U + " = " +
          (r_.combine ? "in1.v[" + element_index(s_, 1, s_.inputs[1].layout) + "]" : xt_ + "(k)") +
          ";");
    }
    w.close();
  }

  // Elements [kb, ke) of output m, `step` apart from `first`, kUnroll at a time, folded in
  // index order.
  void element_loop(GlslWriter& w, const std::string& first, const std::string& step) {
    for (int u = 0; u < kUnroll; ++u) {
      w.line(vt_ + " e" + std::to_string(u) + ";");
      if (arg_) w.line(xt_ + " x" + std::to_string(u) + ";");
    }
    const std::string last = "kk + " + I(std::to_string(kUnroll - 1)) + " * " + step;
    w.line(it_ + " kk = " + first + ";");
    w.open("for (; " + last + " < ke; kk += " + I(std::to_string(kUnroll)) + " * " + step + ")");
    for (int u = 0; u < kUnroll; ++u) {
      element(w, u == 0 ? "kk" : "kk + " + I(std::to_string(u)) + " * " + step, u);
    }
    for (int u = 0; u < kUnroll; ++u) fold_element(w, u);
    w.close();
    w.open("for (; kk < ke; kk += " + step + ")");
    element(w, "kk", 0);
    fold_element(w, 0);
    w.close();
  }

  // vector_width 4: each invocation loads 4 adjacent elements of every contiguous input as one
  // vector (the launch guarantees the slices start at multiples of 4 elements and every input
  // offset is a multiple of 4), two vectors in flight, and folds the lanes in index order.
  void vector_loop(GlslWriter& w) {
    const std::string step = I(std::to_string(4 * wg_));
    for (int u = 0; u < 8; ++u) {
      w.line(vt_ + " e" + std::to_string(u) + ";");
      if (arg_) w.line(xt_ + " x" + std::to_string(u) + ";");
    }
    w.line(it_ + " kk = kb + " + I("4") + " * " + it_ + "(lid);");
    w.open("for (; kk + " + step + " < ke; kk += " + I("2") + " * " + step + ")");
    vector_block(w, "kk", 0);
    vector_block(w, "kk + " + step, 4);
    for (int u = 0; u < 8; ++u) fold_element(w, u);
    w.close();
    w.open("for (; kk < ke; kk += " + step + ")");
    vector_block(w, "kk", 0);
    for (int u = 0; u < 4; ++u) fold_element(w, u);
    w.close();
  }

  void vector_block(GlslWriter& w, const std::string& k0, int first) {
    w.open("");
    w.line(it_ + " k4 = " + k0 + ";");
    for (int a = 0; a < n_in_; ++a) {
      if (s_.inputs[a].layout != Layout::kContiguous) continue;
      std::string at = "(pc.off" + std::to_string(a) + " + m * pc.rk + k4) / " + I("4");
      if (s_.index64) at = "uint(" + at + ")";
      w.line(storage_vec4_type(s_.inputs[a].dtype) + " l" + std::to_string(a) + " = in" +
             std::to_string(a) + ".v[" + at + "];");
    }
    for (int lane = 0; lane < 4; ++lane) {
      const std::string U = std::to_string(first + lane);
      w.open("");
      w.line(it_ + " k = k4 + " + I(std::to_string(lane)) + ";");
      w.line(it_ + " i = m * pc.rk + k;");
      tape_.emit(w, lane);
      w.line("e" + U + " = v" + std::to_string(s_.results[0]) + ";");
      if (arg_) w.line("x" + U + " = " + xt_ + "(k);");
      w.close();
    }
    w.close();
  }

  void fold_element(GlslWriter& w, int u) const {
    add(w, "e" + std::to_string(u), "x" + std::to_string(u), "", !r_.combine);
  }

  // Writes the state of output m: a partial state at `slot`, or the result at m.
  void write(GlslWriter& w, const std::string& slot) const {
    if (r_.partial) {
      std::string v = folded();
      if (is_bool(r_.acc)) v = "uint8_t(" + v + " ? 1 : 0)";
      w.line("out0.v[" + slot + "] = " + v + ";");
      if (arg_) w.line("out1.v[" + slot + "] = int64_t(rx);");
      return;
    }
    const std::string at = "pc.off" + std::to_string(n_in_) + " + m";
    w.line("out0.v[" + (s_.index64 ? "uint(" + at + ")" : at) +
           "] = " + result(s_.outputs[0].dtype) + ";");
  }

  void slice(GlslWriter& w, const std::string& sp) const {
    w.line(it_ + " kb = " + sp + " * pc.rchunk;");
    w.line(it_ + " ke = min(kb + pc.rchunk, pc.rk);");
  }

  // One invocation per (output, split) of this dispatch's splits: t = split * M + output, so
  // neighbouring invocations take neighbouring outputs. Partial states go to [split][output].
  void serial(GlslWriter& w) {
    w.line(it_ + " grid = " + it_ + "(gl_NumWorkGroups.x) * " + I(std::to_string(wg_)) + ";");
    w.open("for (" + it_ + " t = " + it_ +
           "(gl_GlobalInvocationID.x); t < pc.rm * pc.rscount; t += grid)");
    w.line(it_ + " q = t / pc.rm;");
    w.line(it_ + " m = t - q * pc.rm;");
    w.line(it_ + " sp = pc.rsbase + q;");
    slice(w, "sp");
    kept_index(w);
    declare_state(w);
    element_loop(w, "kb", I("1"));
    const std::string slot = "sp * pc.rm + m";
    write(w, s_.index64 ? "uint(" + slot + ")" : slot);
    w.close();
  }

  // One workgroup per (output, split) of this dispatch's splits; invocations stride through
  // the slice, then combine their states pairwise in shared memory. Partial states go to
  // [output][split].
  void cooperative(GlslWriter& w) {
    const std::string n = std::to_string(wg_);
    w.line("uint lid = gl_LocalInvocationID.x;");
    w.open("for (" + it_ + " g = " + it_ +
           "(gl_WorkGroupID.x); g < pc.rm * pc.rscount; g += " + it_ + "(gl_NumWorkGroups.x))");
    w.line(it_ + " m = g / pc.rscount;");
    w.line(it_ + " sp = pc.rsbase + (g - m * pc.rscount);");
    slice(w, "sp");
    kept_index(w);
    declare_state(w);
    if (s_.vector_width == 4) {
      vector_loop(w);
    } else {
      element_loop(w, "kb + " + it_ + "(lid)", I(n));
    }
    store_shared(w, "lid");
    w.line("memoryBarrierShared();");
    w.line("barrier();");
    w.open("for (uint h = " + n + "u / 2u; h > 0u; h >>= 1u)");
    w.open("if (lid < h)");
    const std::string o = "lid + h";
    const std::string other = val("sh_s[" + o + "]");
    if (comp_) {
      w.line(vt_ + " s2 = " + other + ";");
      w.line(vt_ + " c2 = " + val("sh_c[" + o + "]") + ";");
      add(w, "s2", "", "c2");
    } else {
      w.line(vt_ + " s2 = " + other + ";");
      add(w, "s2", arg_ ? "sh_x[" + o + "]" : "");
    }
    store_shared(w, "lid");
    w.close();
    w.line("memoryBarrierShared();");
    w.line("barrier();");
    w.close();
    w.open("if (lid == 0u)");
    const std::string slot = "m * pc.rsplit + sp";
    write(w, s_.index64 ? "uint(" + slot + ")" : slot);
    w.close();
    w.close();
  }

  void store_shared(GlslWriter& w, const std::string& at) const {
    w.line("sh_s[" + at + "] = " + cmp("rs") + ";");
    if (comp_) w.line("sh_c[" + at + "] = " + cmp("rc") + ";");
    if (arg_) w.line("sh_x[" + at + "] = rx;");
  }

  const KernelSpec& s_;
  const ReduceSpec& r_;
  uint32_t wg_;
  TapeEmitter& tape_;
  HelperSet* h_;
  std::string it_, vt_, xt_;
  bool comp_ = false, arg_ = false, strided_ = false;
  int n_in_ = 0;
};

}  // namespace

void emit_reduce_main(const KernelSpec& spec, uint32_t workgroup_size, TapeEmitter& tape,
                      HelperSet* helpers, GlslWriter& w) {
  ReduceEmitter(spec, workgroup_size, tape, helpers).run(w);
}

}  // namespace vka
