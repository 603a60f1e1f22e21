// The elementwise emitter: declarations from the spec's accessors, each element from its tape.
#include "kernels/gen/elementwise.h"

#include <algorithm>
#include <set>

#include "base/errors.h"
#include "ir/ops.h"
#include "kernels/gen/elementwise_emitter.h"
#include "kernels/gen/elementwise_sources.h"
#include "kernels/gen/gemm.h"
#include "kernels/gen/reduce.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/ops.h"
#include "kernels/glsl/writer.h"

namespace vka {
namespace elementwise_internal {

std::string Emitter::run() {
  VKA_ASSERT(s_.kind == KernelKind::kElementwise || s_.kind == KernelKind::kReduce ||
             s_.kind == KernelKind::kGemm);
  if (s_.kind == KernelKind::kGemm && s_.tape.empty()) return emit_gemm(s_);
  VKA_ASSERT(s_.results.size() == s_.outputs.size());
  VKA_ASSERT(s_.vector_width == 1 || s_.vector_width == 2 || s_.vector_width == 4);
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

void Emitter::emit_main(GlslWriter& body) {
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

void Emitter::emit_operand_buffers(GlslWriter& w) const {
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

std::string Emitter::declared_type(DType t) const {
  return s_.vector_width == 1 ? std::string(storage_type(t)) : storage_vec_type(t, s_.vector_width);
}

std::string Emitter::element(const std::string& prefix, const std::string& index) const {
  if (s_.vector_width == 1) return prefix + ".v[" + index + "]";
  const std::string w = std::to_string(s_.vector_width);
  return prefix + ".v[" + index + " / " + w + "][" + index + " % " + w + "]";
}

void Emitter::emit_element(GlslWriter& body) {
  // Loads first: their addresses depend on the element's index alone, and issued together
  // their latencies overlap instead of each waiting behind the routines before it (compilers
  // do not move loads across a transcendental routine's branches). On the H200, one
  // invocation summing 48 float64 terms: exp 104 -> 74 us, sqrt 70 -> 45 us, tanh 42 -> 38 us.
  for (std::size_t i = 0; i < s_.tape.size(); ++i) {
    if (kind(s_.tape[i].op) == OpKind::kLeaf) emit_entry(static_cast<int>(i), body);
  }
  for (std::size_t i = 0; i < s_.tape.size(); ++i) {
    if (kind(s_.tape[i].op) != OpKind::kLeaf) emit_entry(static_cast<int>(i), body);
  }
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
      body.line("x" + J + "[" + L +
                "] = " + element_offset(s_, n_in + static_cast<int>(j), out.layout) + ";");
    } else {
      std::string idx = element_index(s_, n_in + static_cast<int>(j), out.layout);
      body.line(element("out" + std::to_string(j), idx) + " = " + val + ";");
    }
  }
}

void Emitter::emit_float_controls(GlslWriter& w) {
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

bool Emitter::uses_double() const {
  for (const TapeEntry& e : s_.tape) {
    if (e.dtype == DType::kFloat64 || e.dtype == DType::kComplex128) return true;
  }
  return false;
}

std::string Emitter::fused_multiply_add(const TapeEntry& e) const {
  if (!s_.fma || (e.op != Op::kAdd && e.op != Op::kSubtract) ||
      (e.dtype != DType::kFloat32 && e.dtype != DType::kFloat64)) {
    return "";
  }
  auto product = [&](int32_t a) {
    const TapeEntry& m = s_.tape[a];
    return m.op == Op::kMultiply && m.dtype == e.dtype && s_.tape[m.args[0]].dtype == e.dtype &&
           s_.tape[m.args[1]].dtype == e.dtype;
  };
  const int32_t x = e.args[0], y = e.args[1];
  if (s_.tape[x].dtype != e.dtype || s_.tape[y].dtype != e.dtype) return "";
  if (product(x)) {  // p * q + y, p * q - y
    const TapeEntry& m = s_.tape[x];
    return "fma(" + v(m.args[0]) + ", " + v(m.args[1]) + ", " + (e.op == Op::kAdd ? "" : "-") +
           v(y) + ")";
  }
  if (product(y)) {  // x + p * q, x - p * q
    const TapeEntry& m = s_.tape[y];
    return "fma(" + std::string(e.op == Op::kAdd ? "" : "-") + v(m.args[0]) + ", " + v(m.args[1]) +
           ", " + v(x) + ")";
  }
  return "";
}

void Emitter::emit_entry(int i, GlslWriter& w) {
  const TapeEntry& e = s_.tape[i];
  std::string vt(value_type(e.dtype));
  int n_sources_base = static_cast<int>(s_.inputs.size() + s_.outputs.size());
  std::string expr;  // in value type
  switch (kind(e.op)) {
    case OpKind::kLeaf: {
      const Accessor& in = s_.inputs[e.accessor];
      std::string load = mode_ == Mode::kLane && (in.layout == Layout::kContiguous ||
                                                  (row_vectors_ && in.layout == Layout::kStrided))
                             ? "l" + std::to_string(e.accessor) + "[" + std::to_string(lane_) + "]"
                             : element("in" + std::to_string(e.accessor),
                                       element_index(s_, e.accessor, in.layout));
      expr = is_bool(e.dtype) ? "(" + load + " != uint8_t(0))" : load;
      break;
    }
    case OpKind::kSource: {
      const RandomLane lane{"rq" + std::to_string(i), lane_};
      const bool quad = mode_ == Mode::kLane && random_quads_.count(i);
      expr = from_compute(e.dtype, source_value(s_, e, n_sources_base, &h_, quad ? &lane : nullptr),
                          &h_);
      break;
    }
    case OpKind::kUnary:
    case OpKind::kBinary:
    case OpKind::kTernary: {
      DType operand = s_.tape[e.args[e.op == Op::kWhere ? 1 : 0]].dtype;
      if (e.op == Op::kAstype && operand == e.dtype) {
        // A copy keeps the bits: float16 through float and back loses a NaN's sign and payload
        // on NVIDIA (every NaN becomes 0x7fff), and numpy's copies keep them.
        expr = v(e.args[0]);
        break;
      }
      if (std::string fused = fused_multiply_add(e); !fused.empty()) {
        expr = fused;
        break;
      }
      std::vector<std::string> args;
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
      std::string load = element("in" + std::to_string(e.accessor), s_.index64 ? "uint" + at : at);
      expr = is_bool(e.dtype) ? "(" + load + " != uint8_t(0))" : load;
      break;
    }
    case OpKind::kContract:  // a GEMM epilogue's product (kernels/gen/gemm.h)
      VKA_ASSERT(s_.kind == KernelKind::kGemm);
      expr = "gemm_value";
      break;
    case OpKind::kReduce:
    case OpKind::kLibrary:
      internal_error("elementwise tape holds a reduce or library op", __FILE__, __LINE__);
  }
  // precise: each op rounds on its own, as numpy's do; a driver may not fuse a*b+c into an
  // fma, which would round once and differ from numpy in the last bit. Contraction, where a
  // spec opts in, is explicit (fused_multiply_add above), so it is the same on every driver.
  w.line("precise " + vt + " " + v(i) + " = " + expr + ";");
}

}  // namespace elementwise_internal

std::string emit_elementwise(const KernelSpec& spec, const EmitOptions& options) {
  return elementwise_internal::Emitter(spec, options).run();
}

}  // namespace vka
