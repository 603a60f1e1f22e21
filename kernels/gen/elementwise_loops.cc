// The elementwise emitter's loops: flat kernels unrolled over independent elements, 4-vector
// grid-stride loops with their scalar tail, and row mode's vectors of adjacent columns.
#include <string>

#include "base/errors.h"
#include "kernels/gen/elementwise_emitter.h"
#include "kernels/gen/elementwise_sources.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/ops.h"

namespace vka {
namespace elementwise_internal {

void Emitter::emit_unrolled_loop(GlslWriter& body) {
  const std::string it = index_type(s_);
  const int u_count = flat_unroll(s_);
  const std::string U = std::to_string(u_count);
  body.line(it + " grid = " + it + "(gl_NumWorkGroups.x) * " + it + "(" +
            std::to_string(opt_.workgroup_size) + ");");
  body.open("for (" + it + " i0 = " + it + "(gl_GlobalInvocationID.x); i0 < pc.n; i0 += grid * " +
            it + "(" + U + "))");
  for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
    body.line(std::string(storage_type(s_.outputs[j].dtype)) + " o" + std::to_string(j) + "[" + U +
              "];");
    body.line(it + " x" + std::to_string(j) + "[" + U + "];");
  }
  mode_ = Mode::kUnrolled;
  for (lane_ = 0; lane_ < u_count; ++lane_) {
    body.open("");
    body.line(it + " i = min(i0 + " + it + "(" + std::to_string(lane_) + ") * grid, pc.n - " + it +
              "(1));");
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
      body.line(
          element("out" + J, s_.index64 ? "uint(x" + J + "[" + L + "])" : "x" + J + "[" + L + "]") +
          " = o" + J + "[" + L + "];");
    }
    body.close();
  }
  body.close();
}

void Emitter::emit_vector_loops(GlslWriter& body) {
  const std::string it = index_type(s_);
  const int n_in = static_cast<int>(s_.inputs.size());
  const int width = s_.vector_width;
  const std::string W = std::to_string(width);
  body.line(it + " grid = " + it + "(gl_NumWorkGroups.x) * " + it + "(" +
            std::to_string(opt_.workgroup_size) + ");");
  body.line(it + " groups = pc.n / " + W + ";");
  body.open("for (" + it + " q = " + it + "(gl_GlobalInvocationID.x); q < groups; q += grid)");
  for (int a = 0; a < n_in; ++a) {
    if (s_.inputs[a].layout != Layout::kContiguous) continue;
    std::string at = "(pc.off" + std::to_string(a) + " / " + W + " + q)";
    if (s_.index64) at = "uint" + at;
    body.line(declared_type(s_.inputs[a].dtype) + " l" + std::to_string(a) + " = in" +
              std::to_string(a) + ".v[" + at + "];");
  }
  for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
    body.line(std::string(storage_type(s_.outputs[j].dtype)) + " o" + std::to_string(j) + "[" + W +
              "];");
  }
  // Random draws over the vector's elements: one or two Philox blocks for all its lanes where a
  // lane at a time would look each block up once per lane (H200, 2^28 uniform float32:
  // 1.07 TB/s).
  const int sources_base = static_cast<int>(s_.inputs.size() + s_.outputs.size());
  for (std::size_t t = 0; t < s_.tape.size(); ++t) {
    const TapeEntry& e = s_.tape[t];
    if (!has_random_quad(s_, e)) continue;
    const std::string R = "rq" + std::to_string(t);
    body.line("uvec4 " + R + "[2];");
    body.open("");
    body.line(it + " i = q * " + W + ";");
    body.line(random_quad(s_, e, sources_base, R, &h_));
    body.close();
    random_quads_.insert(static_cast<int>(t));
  }
  mode_ = Mode::kLane;
  for (lane_ = 0; lane_ < width; ++lane_) {
    body.open("");
    body.line(it + " i = q * " + W + " + " + std::to_string(lane_) + ";");
    emit_element(body);
    body.close();
  }
  random_quads_.clear();
  for (std::size_t j = 0; j < s_.outputs.size(); ++j) {
    const std::string o = "o" + std::to_string(j);
    std::string at = "(pc.off" + std::to_string(n_in + j) + " / " + W + " + q)";
    if (s_.index64) at = "uint" + at;
    std::string lanes;
    for (int l = 0; l < width; ++l) lanes += (l ? ", " : "") + o + "[" + std::to_string(l) + "]";
    body.line("out" + std::to_string(j) + ".v[" + at + "] = " + declared_type(s_.outputs[j].dtype) +
              "(" + lanes + ");");
  }
  body.close();
  mode_ = Mode::kTail;
  body.open("for (" + it + " i = groups * " + W + " + " + it +
            "(gl_GlobalInvocationID.x); i < pc.n; i += grid)");
  emit_element(body);
  body.close();
}

void Emitter::emit_row_vector_loops(GlslWriter& body) {
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
  body.open("for (" + it + " g = col0; g < groups; g += cgrid)");
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
  body.open("for (" + it + " t = col0; t < head + tail; t += cgrid)");
  body.line(it + " " + L + " = t < head ? t : head + groups * " + it + "(4) + (t - head);");
  body.line(it + " i = r * " + inner + " + " + L + ";");
  emit_element(body);
  body.close();
  mode_ = Mode::kScalar;
  body.close();
}

}  // namespace elementwise_internal
}  // namespace vka
