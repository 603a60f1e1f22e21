// The sampler kernels' specs, their frame (bindings, parameters, one element per invocation)
// and the element streams (kernels/lib/random_draw.h).
#include "kernels/lib/random_draw.h"

#include "base/errors.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/math.h"
#include "kernels/glsl/random.h"
#include "kernels/glsl/writer.h"
#include "kernels/lib/random_samplers.h"

namespace vka {
namespace random_draw_internal {
namespace {

// An element's stream: 32-bit words of its blocks in order (x, y, z, w), a block per round of
// its loop. Uniforms: float64 from 53 bits of two words, float32 from 24 bits of one.
// Normals: Box-Muller, both of a pair used (the second is kept for the next call).
constexpr const char* kStream = R"(uvec2 vka_rs_key;
uvec2 vka_rs_pos;
uint vka_rs_round;
uvec4 vka_rs_block;
uint vka_rs_words;
void vka_rs_begin();
void vka_rs_start(uvec2 key, uvec2 pos) {
  vka_rs_key = key;
  vka_rs_pos = pos;
  vka_rs_round = 0u;
  vka_rs_words = 0u;
  vka_rs_begin();
}
uint vka_rs_u32() {
  if (vka_rs_words == 0u) {
    vka_rs_block = vka_philox4x32_10(uvec4(vka_rs_pos, vka_rs_round, 0u), vka_rs_key);
    vka_rs_round += 1u;
    vka_rs_words = 4u;
  }
  vka_rs_words -= 1u;
  return vka_rs_words == 3u ? vka_rs_block.x : vka_rs_words == 2u ? vka_rs_block.y
       : vka_rs_words == 1u ? vka_rs_block.z : vka_rs_block.w;
}
// floor(x * bound / 2^64) for a 64-bit x of two words: below `bound`, bias under bound / 2^64.
uint64_t vka_rs_below(uint64_t bound) {
  uint x0 = vka_rs_u32(), x1 = vka_rs_u32();
  uvec2 b = unpack32(bound);
  uint h00, l00, h01, l01, h10, l10, h11, l11, c1, c2, c;
  umulExtended(x0, b.x, h00, l00);
  umulExtended(x0, b.y, h01, l01);
  umulExtended(x1, b.x, h10, l10);
  umulExtended(x1, b.y, h11, l11);
  uint w1 = uaddCarry(h00, l01, c1);
  w1 = uaddCarry(w1, l10, c);
  c1 += c;
  uint w2 = uaddCarry(h01, h10, c2);
  w2 = uaddCarry(w2, l11, c);
  c2 += c;
  w2 = uaddCarry(w2, c1, c);
  c2 += c;
  return pack64(uvec2(w2, h11 + c2));
}
)";

constexpr const char* kUniform64 = R"(double vka_rs_uniform_f64() {
  uint lo = vka_rs_u32(), hi = vka_rs_u32();
  return double(pack64(uvec2(lo, hi)) >> 11) * 1.1102230246251565e-16LF;
}
)";

constexpr const char* kUniform32 = R"(float vka_rs_uniform_f32() {
  return float(vka_rs_u32() >> 8) * 5.9604644775390625e-8;
}
)";

constexpr const char* kNormal = R"($T vka_rs_spare$F;
bool vka_rs_has_spare$F;
$T vka_rs_normal$F() {
  if (vka_rs_has_spare$F) {
    vka_rs_has_spare$F = false;
    return vka_rs_spare$F;
  }
  $T r = sqrt(-2.0$L * @log1p(-vka_rs_uniform$F()));
  $T t = 6.283185307179586$L * vka_rs_uniform$F();
  vka_rs_spare$F = r * @sin(t);
  vka_rs_has_spare$F = true;
  return r * @cos(t);
}
)";

}  // namespace

std::string instantiate(const std::string& code, DType t, HelperSet* h) {
  const bool f64 = t == DType::kFloat64;
  std::string out;
  for (std::size_t i = 0; i < code.size();) {
    const char c = code[i];
    if (c == '$' && i + 1 < code.size()) {
      const char k = code[i + 1];
      out += k == 'T'   ? (f64 ? "double" : "float")
             : k == 'F' ? (f64 ? "_f64" : "_f32")
                        : (f64 ? "LF" : "");
      VKA_ASSERT(k == 'T' || k == 'F' || k == 'L');
      i += 2;
    } else if (c == '@') {
      const std::size_t open = code.find('(', i);
      VKA_ASSERT(open != std::string::npos);
      out += math_function(code.substr(i + 1, open - i - 1), t, h);
      i = open;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

void add_stream(DType t, HelperSet* h) {
  add_philox(h);
  h->add("vka_rs_stream", kStream);
  // float32 samplers declare no double: they run on devices without shaderFloat64.
  h->add(t == DType::kFloat32 ? "vka_rs_uniform_f32" : "vka_rs_uniform_f64",
         t == DType::kFloat32 ? kUniform32 : kUniform64);
  const std::string normal = t == DType::kFloat32 ? "vka_rs_normal_f32" : "vka_rs_normal_f64";
  if (!h->has(normal)) h->add(normal, instantiate(kNormal, t, h));
}

}  // namespace random_draw_internal

using random_draw_internal::add_sampler;
using random_draw_internal::add_stream;

std::vector<DType> random_draw_params(KernelKind kind, DType out) {
  constexpr DType f = DType::kFloat64, i = DType::kInt64;
  switch (kind) {
    case KernelKind::kRandomGamma:
      return {out};
    case KernelKind::kRandomPoisson:
    case KernelKind::kRandomZipf:
    case KernelKind::kRandomLogseries:
      return {f};
    case KernelKind::kRandomBinomial:
      return {i, f};
    case KernelKind::kRandomHypergeometric:
      return {i, i, i};
    case KernelKind::kRandomVonmises:
      return {f, f};
    default:
      break;
  }
  internal_error("random_draw_params of a kind that is not a sampler", __FILE__, __LINE__);
}

KernelSpec random_draw_spec(KernelKind kind, DType out, const std::vector<DrawParam>& params) {
  const std::vector<DType> want = random_draw_params(kind, out);
  VKA_ASSERT(params.size() == want.size());
  KernelSpec s;
  s.kind = kind;
  s.rank = 1;
  s.slots = {DType::kUInt64, DType::kUInt64, DType::kInt64, DType::kInt64};
  for (std::size_t k = 0; k < params.size(); ++k) {
    VKA_ASSERT(params[k].dtype == want[k]);
    TapeEntry e{params[k].array ? Op::kBuffer : Op::kFull, params[k].dtype};
    if (params[k].array) {
      e.accessor = static_cast<int32_t>(s.inputs.size());
      s.inputs.push_back(Accessor{params[k].dtype, Layout::kContiguous});
    } else {
      e.slot = static_cast<int32_t>(s.slots.size());
      s.slots.push_back(params[k].dtype);
    }
    s.tape.push_back(e);
  }
  s.outputs.push_back(Accessor{out, Layout::kContiguous});
  s.results = {0};
  return s;
}

std::string emit_random_draw(const KernelSpec& spec) {
  const DType out = spec.outputs[0].dtype;
  const DType compute = out == DType::kFloat32 ? DType::kFloat32 : DType::kFloat64;
  HelperSet h;
  add_stream(compute, &h);
  const std::string sampler = add_sampler(spec.kind, out, &h);
  // Every variable an element's stream keeps starts fresh with the element.
  std::string begin = "void vka_rs_begin() {\n";
  for (const char* t : {"f32", "f64"}) {
    if (h.has(std::string("vka_rs_normal_") + t)) {
      begin += std::string("  vka_rs_has_spare_") + t + " = false;\n";
    }
  }
  h.add("vka_rs_begin", begin + "}\n");

  GlslWriter w;
  w.line("#version 450");
  w.line("// " + spec.name());
  w.raw(address_extensions(spec));
  w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require");
  w.line("layout(local_size_x = " + std::to_string(kRandomDrawThreads) + ") in;");
  auto type = [](DType t) {
    return t == DType::kFloat32 ? "float" : t == DType::kFloat64 ? "double" : "int64_t";
  };
  const int n_in = static_cast<int>(spec.inputs.size());
  for (int k = 0; k < n_in; ++k) {
    w.raw(
        operand_buffer(spec, k, "readonly", type(spec.inputs[k].dtype), "in" + std::to_string(k)));
  }
  w.raw(operand_buffer(spec, n_in, "writeonly", type(out), "out0"));
  emit_push_block(spec, w);
  w.raw(h.str());
  std::vector<std::string> args;
  for (const TapeEntry& e : spec.tape) {
    if (e.op == Op::kBuffer) {
      const std::string a = std::to_string(e.accessor);
      args.push_back("in" + a + ".v[pc.off" + a + " + int(i)]");
    } else {
      const std::string c = "pc.c" + std::to_string(e.slot);
      args.push_back(e.dtype == DType::kFloat32   ? "uintBitsToFloat(" + c + ".x)"
                     : e.dtype == DType::kFloat64 ? "packDouble2x32(" + c + ")"
                                                  : "int64_t(pack64(" + c + "))");
    }
  }
  if (spec.kind == KernelKind::kRandomGamma) args.push_back("pack64(pc.c3) != 0ul");
  std::string call = sampler + "(";
  for (std::size_t k = 0; k < args.size(); ++k) call += (k ? ", " : "") + args[k];
  w.open("void main()");
  w.line("uint i = gl_GlobalInvocationID.x;");
  w.line("if (i >= uint(pc.n)) return;");
  w.line("vka_rs_start(pc.c0, unpack32(pack64(pc.c1) + pack64(pc.c2) + uint64_t(i)));");
  w.line("out0.v[pc.off" + std::to_string(n_in) + " + int(i)] = " + call + ");");
  w.close();
  return w.str();
}

}  // namespace vka
