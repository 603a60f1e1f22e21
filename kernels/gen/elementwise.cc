// The elementwise emitter: declarations from the spec's accessors, body from its tape.
#include "kernels/gen/elementwise.h"

#include <algorithm>
#include <set>

#include "base/errors.h"
#include "ir/ops.h"
#include "kernels/gen/elementwise_sources.h"
#include "kernels/gen/gemm.h"
#include "kernels/gen/reduce.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/ops.h"
#include "kernels/glsl/writer.h"

namespace vka {
namespace {

std::string v(int i) { return "v" + std::to_string(i); }

// Which optional GLSL features the shader uses.
struct Features {
  bool int8 = false, int16 = false, int64 = false, f16 = false;
  void note(DType t) {
    int8 = int8 || itemsize(t) == 1;
    int16 = int16 || t == DType::kInt16 || t == DType::kUInt16;
    int64 = int64 || t == DType::kInt64 || t == DType::kUInt64;
    f16 = f16 || t == DType::kFloat16;
  }
};

class Emitter {
 public:
  Emitter(const KernelSpec& spec, const EmitOptions& opt) : s_(spec), opt_(opt) {
    h_.float64 = opt.float64;
  }

  std::string run() {
    VKA_ASSERT(s_.kind == KernelKind::kElementwise || s_.kind == KernelKind::kReduce ||
               s_.kind == KernelKind::kGemm);
    if (s_.kind == KernelKind::kGemm && s_.tape.empty()) return emit_gemm(s_);
    VKA_ASSERT(s_.results.size() == s_.outputs.size());
    VKA_ASSERT(s_.vector_width == 1 || s_.vector_width == 4);
    GlslWriter body;
    if (s_.kind == KernelKind::kReduce) {
      Tape tape(*this);
      emit_reduce_main(s_, opt_.workgroup_size, tape, &h_, body);
      f_.note(s_.reduce.acc);
      if (is_arg_reduction(s_.reduce.op)) f_.note(DType::kInt64);
    } else if (s_.kind == KernelKind::kGemm) {
      Tape epilogue(*this, /*stores=*/true);
      emit_gemm_main(s_, epilogue, body);  // declares its own workgroup size
    } else {
      emit_main(body);
    }

    GlslWriter w;
    w.line("#version 450");
    if (s_.kind == KernelKind::kGemm) w.line(kGemmExtensions);
    w.line("// " + s_.name());
    for (const Accessor& a : s_.inputs) f_.note(a.dtype);
    for (const Accessor& a : s_.outputs) f_.note(a.dtype);
    for (const TapeEntry& e : s_.tape) f_.note(e.dtype);
    for (DType t : s_.slots) f_.note(t);
    f_.int64 = f_.int64 || s_.index64 || s_.addressing == Addressing::kAddresses;
    if (f_.int8) {
      w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require");
      w.line("#extension GL_EXT_shader_8bit_storage : require");
    }
    if (f_.int16) w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require");
    if (f_.f16) w.line("#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require");
    if (f_.int16 || f_.f16) w.line("#extension GL_EXT_shader_16bit_storage : require");
    if (f_.int64) w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require");
    emit_float_controls(w);
    if (s_.kind != KernelKind::kGemm) {
      w.line("layout(local_size_x = " + std::to_string(opt_.workgroup_size) + ") in;");
    }
    emit_operand_buffers(w);
    emit_push_block(s_, w);
    w.raw(h_.str());
    w.raw(body.str());
    return w.str();
  }

 private:
  // kScalar: one element; kLane: lane lane_ of a 4-vector; kTail: the vector loop's scalar
  // tail; kUnrolled: copy lane_ of flat_unroll()'s independent elements, results kept in
  // o{j}[lane_] (store index x{j}[lane_]) and stored after every copy has run.
  enum class Mode { kScalar, kLane, kTail, kUnrolled };

  // The tape for a reduction's element (kernels/gen/reduce.h), or with `stores` a GEMM
  // epilogue's element: the tape, then the outputs' stores (kernels/gen/gemm.h).
  class Tape : public TapeEmitter {
   public:
    explicit Tape(Emitter& e, bool stores = false) : e_(e), stores_(stores) {}
    void emit(GlslWriter& w, int lane) override {
      if (stores_) {
        VKA_ASSERT(lane < 0);
        e_.emit_element(w);
        return;
      }
      e_.mode_ = lane >= 0 ? Mode::kLane : Mode::kScalar;
      e_.lane_ = std::max(lane, 0);
      for (std::size_t i = 0; i < e_.s_.tape.size(); ++i) e_.emit_entry(static_cast<int>(i), w);
      e_.mode_ = Mode::kScalar;
    }

   private:
    Emitter& e_;
    bool stores_;
  };

  void emit_main(GlslWriter& body) {
    body.open("void main()");
    if (uses_rows(s_) && s_.vector_width == 4) {
      emit_row_vector_loops(body);
    } else if (uses_rows(s_)) {
      open_row_loops(s_, opt_.workgroup_size, body);
      for (int u = 0; u < row_unroll(s_); ++u) {
        open_row_column(s_, u, body);
        emit_element(body);
        body.close();
      }
      body.close();
      body.close();
    } else if (s_.vector_width == 1 && flat_unroll(s_) > 1) {
      emit_unrolled_loop(body);
    } else if (s_.vector_width == 1) {
      open_grid_loop(s_, opt_.workgroup_size, body);
      emit_nd_index(s_, body);
      emit_element(body);
      body.close();
    } else {
      emit_vector_loops(body);
    }
    body.close();
  }

  // The operands' buffers. Input accessor a is read as in{a} and output j written as out{j};
  // accessors that share a binding (views of one storage) name one buffer, declared once per
  // binding. With Addressing::kBindings each binding is a storage-buffer descriptor; with
  // kAddresses a buffer reference made from the binding's address in the argument block
  // (a cast: it costs nothing).
  void emit_operand_buffers(GlslWriter& w) const {
    w.raw(address_extensions(s_));
    const int n_bind = s_.num_input_bindings();
    std::vector<int> first(static_cast<size_t>(n_bind), -1);  // an accessor of each binding
    for (int a = 0; a < static_cast<int>(s_.inputs.size()); ++a) {
      int& f = first[static_cast<size_t>(s_.input_binding(a))];
      if (f < 0) f = a;
    }
    // Accessor a names binding a's buffer unless views share bindings (then inb{b}, aliased).
    const bool shared = !s_.input_bindings.empty();
    for (int b = 0; b < n_bind; ++b) {
      const int a = first[static_cast<size_t>(b)];
      VKA_ASSERT(a >= 0);
      const std::string B = std::to_string(b);
      w.raw(operand_buffer(s_, b, "readonly", declared_type(s_.inputs[a].dtype), "In" + B,
                           (shared ? "inb" : "in") + B));
    }
    for (int a = 0; shared && a < static_cast<int>(s_.inputs.size()); ++a) {
      w.line("#define in" + std::to_string(a) + " inb" + std::to_string(s_.input_binding(a)));
    }
    for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
      const std::string J = std::to_string(j);
      w.raw(operand_buffer(s_, n_bind + static_cast<int>(j), "writeonly",
                           s_.kind == KernelKind::kReduce
                               ? std::string(storage_type(s_.outputs[j].dtype))
                               : declared_type(s_.outputs[j].dtype),
                           "Out" + J, "out" + J));
    }
  }

  // The element type in a storage buffer, or its 4-vector in the vectorized variant.
  std::string declared_type(DType t) const {
    return s_.vector_width == 1 ? std::string(storage_type(t)) : storage_vec4_type(t);
  }

  // Buffer element `index` of binding `prefix` (in0, out1, ...), as an lvalue.
  std::string element(const std::string& prefix, const std::string& index) const {
    if (s_.vector_width == 1) return prefix + ".v[" + index + "]";
    return prefix + ".v[" + index + " / 4][" + index + " % 4]";
  }

  // One element: every tape entry, then every output. In kLane mode loads come from the
  // vectors loaded before the lanes and results go to the o<j>[] arrays.
  void emit_element(GlslWriter& body) {
    for (std::size_t i = 0; i < s_.tape.size(); ++i) emit_entry(static_cast<int>(i), body);
    int n_in = static_cast<int>(s_.inputs.size());
    for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
      const Accessor& out = s_.outputs[j];
      int r = s_.results[j];
      DType from = s_.tape[r].dtype;
      std::string val = v(r);
      if (from != out.dtype) {
        val = from_compute(out.dtype, emit_cast(from, out.dtype, to_compute(from, val), &h_));
      }
      if (is_bool(out.dtype)) val = "uint8_t(" + val + " ? 1 : 0)";
      if (out.layout == Layout::kScalar) {
        // A broadcast destination: every element is the same one, so a bool output is an
        // "any": invocations whose value is true store 1 (the same value; the race is benign).
        VKA_ASSERT(is_bool(out.dtype) && mode_ != Mode::kLane);
        body.line("if (" + v(r) + ") " +
                  element("out" + std::to_string(j),
                          element_index(s_, n_in + static_cast<int>(j), out.layout)) +
                  " = uint8_t(1);");
      } else if (mode_ == Mode::kLane) {
        body.line("o" + std::to_string(j) + "[" + std::to_string(lane_) + "] = " + val + ";");
      } else if (mode_ == Mode::kUnrolled) {
        const std::string J = std::to_string(j), L = std::to_string(lane_);
        body.line("o" + J + "[" + L + "] = " + val + ";");
        body.line("x" + J + "[" + L + "] = " +
                  element_offset(s_, n_in + static_cast<int>(j), out.layout) + ";");
      } else {
        std::string idx = element_index(s_, n_in + static_cast<int>(j), out.layout);
        body.line(element("out" + std::to_string(j), idx) + " = " + val + ";");
      }
    }
  }

  // Flat strided kernels (kernels/glsl/indexing.h: flat_unroll): each invocation computes U
  // elements a grid apart as independent straight-line copies of the tape (their indices
  // clamped into range, so no branch separates them), then stores those in range. The copies'
  // dependency chains interleave, which hides arithmetic latency where one chain would stall.
  void emit_unrolled_loop(GlslWriter& body) {
    const std::string it = index_type(s_);
    const int u_count = flat_unroll(s_);
    const std::string U = std::to_string(u_count);
    body.line(it + " grid = " + it + "(gl_NumWorkGroups.x) * " + it + "(" +
              std::to_string(opt_.workgroup_size) + ");");
    body.open("for (" + it + " i0 = " + it + "(gl_GlobalInvocationID.x); i0 < pc.n; i0 += grid * " +
              it + "(" + U + "))");
    for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
      body.line(std::string(storage_type(s_.outputs[j].dtype)) + " o" + std::to_string(j) + "[" +
                U + "];");
      body.line(it + " x" + std::to_string(j) + "[" + U + "];");
    }
    mode_ = Mode::kUnrolled;
    for (lane_ = 0; lane_ < u_count; ++lane_) {
      body.open("");
      body.line(it + " i = min(i0 + " + it + "(" + std::to_string(lane_) + ") * grid, pc.n - " +
                it + "(1));");
      emit_nd_index(s_, body);
      emit_element(body);
      body.close();
    }
    mode_ = Mode::kScalar;
    for (int u = 0; u < u_count; ++u) {
      const std::string L = std::to_string(u);
      body.open("if (i0 + " + it + "(" + L + ") * grid < pc.n)");
      for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
        const std::string J = std::to_string(j);
        body.line(element("out" + J, s_.index64 ? "uint(x" + J + "[" + L + "])"
                                                : "x" + J + "[" + L + "]") +
                  " = o" + J + "[" + L + "];");
      }
      body.close();
    }
    body.close();
  }

  // vector_width 4: a grid-stride loop over 4-element groups (whole-vector loads and stores,
  // the tape once per lane), then a grid-stride loop over the n % 4 tail.
  void emit_vector_loops(GlslWriter& body) {
    const std::string it = index_type(s_);
    const int n_in = static_cast<int>(s_.inputs.size());
    body.line(it + " grid = " + it + "(gl_NumWorkGroups.x) * " + it + "(" +
              std::to_string(opt_.workgroup_size) + ");");
    body.line(it + " groups = pc.n / 4;");
    body.open("for (" + it + " q = " + it + "(gl_GlobalInvocationID.x); q < groups; q += grid)");
    for (int a = 0; a < n_in; ++a) {
      if (s_.inputs[a].layout != Layout::kContiguous) continue;
      std::string at = "(pc.off" + std::to_string(a) + " / 4 + q)";
      if (s_.index64) at = "uint" + at;
      body.line(declared_type(s_.inputs[a].dtype) + " l" + std::to_string(a) + " = in" +
                std::to_string(a) + ".v[" + at + "];");
    }
    for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
      body.line(std::string(storage_type(s_.outputs[j].dtype)) + " o" + std::to_string(j) + "[4];");
    }
    mode_ = Mode::kLane;
    for (lane_ = 0; lane_ < 4; ++lane_) {
      body.open("");
      body.line(it + " i = q * 4 + " + std::to_string(lane_) + ";");
      emit_element(body);
      body.close();
    }
    for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
      std::string o = "o" + std::to_string(j);
      std::string at = "(pc.off" + std::to_string(n_in + j) + " / 4 + q)";
      if (s_.index64) at = "uint" + at;
      body.line("out" + std::to_string(j) + ".v[" + at +
                "] = " + declared_type(s_.outputs[j].dtype) + "(" + o + "[0], " + o + "[1], " + o +
                "[2], " + o + "[3]);");
    }
    body.close();
    mode_ = Mode::kTail;
    body.open("for (" + it + " i = groups * 4 + " + it +
              "(gl_GlobalInvocationID.x); i < pc.n; i += grid)");
    emit_element(body);
    body.close();
  }

  // Row mode with vectors (kernels/glsl/indexing.h): per row, a scalar head up to out0's alignment,
  // vectors of 4 adjacent columns, a scalar tail.
  void emit_row_vector_loops(GlslWriter& body) {
    const std::string it = index_type(s_);
    const int n_in = static_cast<int>(s_.inputs.size());
    const int last = s_.rank - 1;
    const std::string L = "i" + std::to_string(last), inner = "pc.dim" + std::to_string(last);
    auto sub = [&](const std::string& at) { return s_.index64 ? "uint(" + at + ")" : at; };
    open_rows(s_, opt_.workgroup_size, body);
    body.line(it + " ob;");  // out0's element at column 0 of this row
    body.open("");
    body.line(it + " " + L + " = " + it + "(0);");
    body.line(it + " i = r * " + inner + ";");
    body.line("ob = " + element_offset(s_, n_in, s_.outputs[0].layout) + ";");
    body.close();
    body.line(it + " head = min((" + it + "(4) - (ob & " + it + "(3))) & " + it + "(3), " + inner +
              ");");
    body.line(it + " groups = (" + inner + " - head) / " + it + "(4);");
    body.line(it + " tail = " + inner + " - head - groups * " + it + "(4);");
    body.open("for (" + it + " g = " + it + "(gl_GlobalInvocationID.x); g < groups; g += cgrid)");
    body.line(it + " c0 = head + g * " + it + "(4);");
    body.line(it + " " + L + " = c0;");
    body.line(it + " i = r * " + inner + " + " + L + ";");
    for (int a = 0; a < n_in; ++a) {
      if (s_.inputs[a].layout == Layout::kScalar) continue;
      const std::string A = std::to_string(a), T = declared_type(s_.inputs[a].dtype);
      body.line(it + " e" + A + " = " + element_offset(s_, a, s_.inputs[a].layout) + ";");
      body.line(it + " q" + A + " = e" + A + " / " + it + "(4);");
      body.line("int s" + A + " = int(e" + A + " - q" + A + " * " + it + "(4));");
      body.line(T + " lo" + A + " = in" + A + ".v[" + sub("q" + A) + "];");
      body.line(T + " hi" + A + " = s" + A + " != 0 ? in" + A + ".v[" +
                sub("q" + A + " + " + it + "(1)") + "] : lo" + A + ";");
      body.line(T + " l" + A + " = s" + A + " == 0 ? lo" + A + " : s" + A + " == 1 ? " + T + "(lo" +
                A + ".yzw, hi" + A + ".x) : s" + A + " == 2 ? " + T + "(lo" + A + ".zw, hi" + A +
                ".xy) : " + T + "(lo" + A + ".w, hi" + A + ".xyz);");
    }
    for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
      body.line(std::string(storage_type(s_.outputs[j].dtype)) + " o" + std::to_string(j) + "[4];");
    }
    mode_ = Mode::kLane;
    row_vectors_ = true;
    for (lane_ = 0; lane_ < 4; ++lane_) {
      body.open("");
      body.line(it + " " + L + " = c0 + " + it + "(" + std::to_string(lane_) + ");");
      body.line(it + " i = r * " + inner + " + " + L + ";");
      emit_element(body);
      body.close();
    }
    row_vectors_ = false;
    for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
      const int acc = n_in + static_cast<int>(j);
      const std::string o = "o" + std::to_string(j);
      body.line("out" + std::to_string(j) + ".v[" +
                sub("(" + element_offset(s_, acc, s_.outputs[j].layout) + ") / " + it + "(4)") +
                "] = " + declared_type(s_.outputs[j].dtype) + "(" + o + "[0], " + o + "[1], " + o +
                "[2], " + o + "[3]);");
    }
    body.close();
    mode_ = Mode::kTail;
    body.open("for (" + it + " t = " + it +
              "(gl_GlobalInvocationID.x); t < head + tail; t += cgrid)");
    body.line(it + " " + L + " = t < head ? t : head + groups * " + it + "(4) + (t - head);");
    body.line(it + " i = r * " + inner + " + " + L + ";");
    emit_element(body);
    body.close();
    mode_ = Mode::kScalar;
    body.close();
  }

  // SPIR-V DenormPreserve (execution mode 4459, capability 4464) for each float width the
  // kernel computes in and the options allow.
  void emit_float_controls(GlslWriter& w) {
    std::vector<int> widths;
    if (opt_.denorm_preserve_16 && f_.f16) widths.push_back(16);
    if (opt_.denorm_preserve_32) widths.push_back(32);
    if (opt_.denorm_preserve_64 && uses_double()) widths.push_back(64);
    if (widths.empty()) return;
    w.line("#extension GL_EXT_spirv_intrinsics : require");
    for (int b : widths) {
      w.line("spirv_execution_mode(capabilities = [4464], 4459, " + std::to_string(b) + ");");
    }
  }

  bool uses_double() const {
    for (const TapeEntry& e : s_.tape) {
      if (e.dtype == DType::kFloat64 || e.dtype == DType::kComplex128) return true;
    }
    return false;
  }

  void emit_entry(int i, GlslWriter& w) {
    const TapeEntry& e = s_.tape[i];
    std::string vt(value_type(e.dtype));
    int n_sources_base = static_cast<int>(s_.inputs.size() + s_.outputs.size());
    std::string expr;  // in value type
    switch (kind(e.op)) {
      case OpKind::kLeaf: {
        const Accessor& in = s_.inputs[e.accessor];
        std::string load =
            mode_ == Mode::kLane && (in.layout == Layout::kContiguous ||
                                     (row_vectors_ && in.layout == Layout::kStrided))
                ? "l" + std::to_string(e.accessor) + "[" + std::to_string(lane_) + "]"
                : element("in" + std::to_string(e.accessor),
                          element_index(s_, e.accessor, in.layout));
        expr = is_bool(e.dtype) ? "(" + load + " != uint8_t(0))" : load;
        break;
      }
      case OpKind::kSource:
        expr = from_compute(e.dtype, source_value(s_, e, n_sources_base, &h_), &h_);
        break;
      case OpKind::kUnary:
      case OpKind::kBinary:
      case OpKind::kTernary: {
        std::vector<std::string> args;
        DType operand = s_.tape[e.args[e.op == Op::kWhere ? 1 : 0]].dtype;
        for (int32_t a : e.args) {
          if (a >= 0) args.push_back(to_compute(s_.tape[a].dtype, v(a)));
        }
        std::string c = e.op == Op::kAstype ? emit_cast(operand, e.dtype, args[0], &h_)
                                            : emit_op(e.op, operand, args, &h_);
        expr = from_compute(e.dtype, c, &h_);
        break;
      }
      case OpKind::kMovement: {  // gather: the accessor's element plus index * stride terms
        const std::string it = index_type(s_);
        std::string at = element_offset(s_, e.accessor, s_.inputs[e.accessor].layout);
        for (int k = 0; k < 3 && e.args[k] >= 0; ++k) {
          std::string g = "g" + std::to_string(i) + "_" + std::to_string(k);
          std::string len = slot_index(s_, e.slot + 2 * k + 1);
          std::string stride = slot_index(s_, e.slot + 2 * k);
          w.line(it + " " + g + " = " + it + "(" + v(e.args[k]) + ");");
          // Negative indices count from the end; the clamp keeps reads inside the array
          // (callers check bounds before building a gather, as numpy raises).
          w.line(g + " = " + g + " < " + it + "(0) ? " + g + " + " + len + " : " + g + ";");
          w.line(g + " = " + g + " < " + it + "(0) ? " + it + "(0) : (" + g + " >= " + len + " ? " +
                 len + " - " + it + "(1) : " + g + ");");
          at = "(" + at + " + " + g + " * " + stride + ")";
        }
        std::string load =
            element("in" + std::to_string(e.accessor), s_.index64 ? "uint" + at : at);
        expr = is_bool(e.dtype) ? "(" + load + " != uint8_t(0))" : load;
        break;
      }
      case OpKind::kContract:  // a GEMM epilogue's product (kernels/gen/gemm.h)
        VKA_ASSERT(s_.kind == KernelKind::kGemm);
        expr = "gemm_value";
        break;
      case OpKind::kReduce:
        internal_error("elementwise tape holds a reduce op", __FILE__, __LINE__);
    }
    // precise: each op rounds on its own, as numpy's do; a driver may not fuse a*b+c into an
    // fma, which would round once and differ from numpy in the last bit.
    w.line("precise " + vt + " " + v(i) + " = " + expr + ";");
  }

  const KernelSpec& s_;
  EmitOptions opt_;
  Mode mode_ = Mode::kScalar;
  bool row_vectors_ = false;  // lanes read the shifted row vectors l<a> of strided inputs
  int lane_ = 0;
  HelperSet h_;
  Features f_;
};

}  // namespace

std::string emit_elementwise(const KernelSpec& spec, const EmitOptions& options) {
  return Emitter(spec, options).run();
}

}  // namespace vka
