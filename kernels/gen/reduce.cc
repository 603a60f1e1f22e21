// The loops of reduction kernels around the state of kernels/gen/reduce_state.h.
#include "kernels/gen/reduce.h"

#include <string>

#include "base/errors.h"
#include "kernels/gen/reduce_state.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/ops.h"

namespace vka {

bool is_arg_reduction(Op op) { return op == Op::kArgmax || op == Op::kArgmin; }

bool is_compensated(const ReduceSpec& r) {
  return (r.op == Op::kSum || r.op == Op::kMean) && (is_floating(r.acc) || is_complex(r.acc));
}

namespace {

// Elements each invocation loads per step of its loop (independent loads in flight).
constexpr int kUnroll = 4;

class ReduceEmitter {
 public:
  ReduceEmitter(const KernelSpec& spec, uint32_t wg, TapeEmitter& tape, HelperSet* h)
      : s_(spec), r_(spec.reduce), wg_(wg), tape_(tape), h_(h), state_(spec, h) {
    VKA_ASSERT(s_.kind == KernelKind::kReduce);
    // Vectors: cooperative, every input contiguous (or a broadcast scalar), slices aligned.
    VKA_ASSERT(s_.vector_width == 1 ||
               (s_.vector_width == 4 && spec.reduce.strategy == ReduceStrategy::kCooperative &&
                !spec.reduce.combine));
    it_ = index_type(s_);
    n_in_ = static_cast<int>(s_.inputs.size());
    strided_ = any_strided(s_);
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
  std::string cmp(const std::string& v) const { return state_.to_compute(v); }
  std::string val(const std::string& c) const { return state_.from_compute(c); }

  void declare_shared() {
    const std::string ct(compute_type(r_.acc)), n = std::to_string(wg_);
    std::string code = "shared " + ct + " sh_s[" + n + "];\n";
    if (state_.compensated()) code += "shared " + ct + " sh_c[" + n + "];\n";
    if (state_.arg()) code += "shared " + state_.index_type() + " sh_x[" + n + "];\n";
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
    if (state_.arg()) {
      w.line("x" + U + " = " +
             (r_.combine ? "in1.v[" + element_index(s_, 1, s_.inputs[1].layout) + "]"
                         : state_.index_type() + "(k)") +
             ";");
    }
    w.close();
  }

  // Elements [kb, ke) of output m, `step` apart from `first`, kUnroll at a time, folded in
  // index order.
  void element_loop(GlslWriter& w, const std::string& first, const std::string& step) {
    declare_elements(w, kUnroll);
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
    declare_elements(w, 8);
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
      w.line(storage_vec_type(s_.inputs[a].dtype, 4) + " l" + std::to_string(a) + " = in" +
             std::to_string(a) + ".v[" + at + "];");
    }
    for (int lane = 0; lane < 4; ++lane) {
      const std::string U = std::to_string(first + lane);
      w.open("");
      w.line(it_ + " k = k4 + " + I(std::to_string(lane)) + ";");
      w.line(it_ + " i = m * pc.rk + k;");
      tape_.emit(w, lane);
      w.line("e" + U + " = v" + std::to_string(s_.results[0]) + ";");
      if (state_.arg()) w.line("x" + U + " = " + state_.index_type() + "(k);");
      w.close();
    }
    w.close();
  }

  // e0..e<count-1> (and x0.. for arg reductions): the values an unrolled step folds.
  void declare_elements(GlslWriter& w, int count) const {
    for (int u = 0; u < count; ++u) {
      w.line(state_.value_type() + " e" + std::to_string(u) + ";");
      if (state_.arg()) w.line(state_.index_type() + " x" + std::to_string(u) + ";");
    }
  }

  void fold_element(GlslWriter& w, int u) const {
    state_.add(w, "e" + std::to_string(u), "x" + std::to_string(u), "", !r_.combine);
  }

  // Writes the state of output m: a partial state at `slot`, or the result at m.
  void write(GlslWriter& w, const std::string& slot) const {
    if (r_.partial) {
      std::string v = state_.folded();
      if (is_bool(r_.acc)) v = "uint8_t(" + v + " ? 1 : 0)";
      w.line("out0.v[" + slot + "] = " + v + ";");
      if (state_.arg()) w.line("out1.v[" + slot + "] = int64_t(rx);");
      return;
    }
    const std::string at = "pc.off" + std::to_string(n_in_) + " + m";
    w.line("out0.v[" + (s_.index64 ? "uint(" + at + ")" : at) +
           "] = " + state_.result(s_.outputs[0].dtype) + ";");
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
    state_.declare(w);
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
    state_.declare(w);
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
    if (state_.compensated()) {
      w.line(state_.value_type() + " s2 = " + other + ";");
      w.line(state_.value_type() + " c2 = " + val("sh_c[" + o + "]") + ";");
      state_.add(w, "s2", "", "c2");
    } else {
      w.line(state_.value_type() + " s2 = " + other + ";");
      state_.add(w, "s2", state_.arg() ? "sh_x[" + o + "]" : "");
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
    if (state_.compensated()) w.line("sh_c[" + at + "] = " + cmp("rc") + ";");
    if (state_.arg()) w.line("sh_x[" + at + "] = rx;");
  }

  const KernelSpec& s_;
  const ReduceSpec& r_;
  uint32_t wg_;
  TapeEmitter& tape_;
  HelperSet* h_;
  ReduceState state_;
  std::string it_;
  bool strided_ = false;
  int n_in_ = 0;
};

}  // namespace

void emit_reduce_main(const KernelSpec& spec, uint32_t workgroup_size, TapeEmitter& tape,
                      HelperSet* helpers, GlslWriter& w) {
  ReduceEmitter(spec, workgroup_size, tape, helpers).run(w);
}

}  // namespace vka
