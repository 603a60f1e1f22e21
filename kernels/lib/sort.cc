// The radix sort's library kernels: fixed GLSL around the push-constant block of their spec.
#include "kernels/lib/sort.h"

#include "base/errors.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/writer.h"
#include "kernels/lib/scan.h"
#include "kernels/lib/sort_key_glsl.h"
#include "kernels/lib/sort_pass.h"
#include "kernels/lib/sort_pass_glsl.h"

namespace vka {
namespace {

std::string header(const KernelSpec& spec) {
  GlslWriter w;
  w.line("#version 450");
  w.line("// " + spec.name());
  w.raw(address_extensions(spec));
  w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require");
  w.line("#extension GL_EXT_shader_8bit_storage : require");
  w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require");
  w.line("#extension GL_EXT_shader_16bit_storage : require");
  w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require");
  w.line("layout(local_size_x = " + std::to_string(kSortThreads) + ") in;");
  GlslWriter push;
  emit_push_block(spec, push);
  return w.str() + push.str();
}

using sort_pass_internal::key_type;

using sort_pass_internal::component_bits;
using sort_pass_internal::float_key_functions;
using sort_pass_internal::integer_key;
using sort_pass_internal::KeyBits;
using sort_pass_internal::raw_type;

// GLSL `KEY key_of(uint j, uint part)`: the order-preserving key of element j.
std::string key_function(DType t) {
  const KeyBits b(t);
  const std::string& K = b.K;
  const int comps = is_complex(t) ? 2 : 1;
  std::string s = K + " component(uint j, uint c) { return " + K + "(in0.v[" +
                  std::to_string(comps) + "u * j + c]); }\n";
  if (is_floating(t) || is_complex(t)) s += float_key_functions(b);
  s += K + " key_of(uint j, uint part) {\n";
  if (is_complex(t)) {
    s += "  if (part == 2u) return " + K + "((is_nan(component(j, 0u)) ? 2u : 0u) + "
         "(is_nan(component(j, 1u)) ? 1u : 0u));\n"
         "  return float_key(component(j, part));\n";
  } else if (is_floating(t)) {
    s += "  return float_key(component(j, 0u));\n";
  } else {
    s += "  return " + integer_key(t, b, "component(j, 0u)") + ";\n";
  }
  return s + "}\n";
}

// GLSL `KEY value_key(uint j)`: sort_value_keys_spec's key of element j (key_of's), flagging in
// out1.v[2] a value whose bits its key loses (-0.0, a NaN other than the quiet NaN).
std::string value_key_function(DType t) {
  const KeyBits b(t);
  const std::string& K = b.K;
  std::string s = is_floating(t) ? float_key_functions(b) : "";
  s += K + " value_key(uint j) {\n  " + K + " x = " + K + "(in0.v[j]);\n";
  if (is_floating(t)) {
    s += "  if (lossy_value(x)) atomicOr(out1.v[2], 1u);\n"
         "  return float_key(x);\n";
  } else {
    s += "  return " + integer_key(t, b, "x") + ";\n";
  }
  return s + "}\n";
}

const std::string kT = std::to_string(kSortThreads);

}  // namespace

DType sort_key_dtype(DType data) {
  return component_bits(data) == 64 ? DType::kUInt64 : DType::kUInt32;
}

KernelSpec sort_keys_spec(DType t) {
  return library_spec(KernelKind::kSortKeys, {t},
                      {sort_key_dtype(t), DType::kUInt32, DType::kUInt32}, 2);
}

KernelSpec sort_value_keys_spec(DType t) {
  VKA_ASSERT(!is_complex(t));
  return library_spec(KernelKind::kSortKeys, {t}, {sort_key_dtype(t), DType::kUInt32}, 0);
}

KernelSpec segment_sum_spec() {
  return library_spec(KernelKind::kSegmentSum, {DType::kFloat64, DType::kInt64}, {DType::kFloat64},
                   0);
}

std::string emit_sort(const KernelSpec& spec, const EmitOptions& options) {
  const std::string grid = "gl_NumWorkGroups.x * " + kT + "u";
  switch (spec.kind) {
    case KernelKind::kSortKeys: {
      const DType t = spec.inputs[0].dtype;
      const std::string K = key_type(spec.outputs[0].dtype);
      const bool values = spec.slots.empty();
      std::string s = header(spec) +
                      operand_buffer(spec, 0, "readonly", raw_type(component_bits(t)), "in0") +
                      operand_buffer(spec, 1, "writeonly", K, "out0") +
                      operand_buffer(spec, 2, "", "uint", "out1");
      if (!values) s += operand_buffer(spec, 3, "", "uint", "out2");
      s += values ? value_key_function(t) : key_function(t);
      const std::string words = values ? "out1" : "out2";
      // Each invocation also ORs key ^ key[0] into words 0 and 1 (the bits that vary).
      return s +
             "shared uint lo_s, hi_s;\n"
             "void main() {\n"
             "  if (gl_LocalInvocationID.x == 0u) { lo_s = 0u; hi_s = 0u; }\n"
             "  barrier();\n" +
             (values ? "  " + K + " k0 = value_key(0u);\n"
                     : "  uint part = pc.c0.x;\n"
                       "  bool first = pc.c1.x != 0u;\n"
                       "  " + K + " k0 = key_of(first ? 0u : out1.v[0], part);\n") +
             "  uint lo = 0u, hi = 0u;\n"
             "  for (uint i = gl_GlobalInvocationID.x; i < uint(pc.n); i += " + grid + ") {\n" +
             (values ? "    " + K + " k = value_key(i);\n"
                     : "    uint j = first ? i : out1.v[i];\n"
                       "    if (first) out1.v[i] = i;\n"
                       "    " + K + " k = key_of(j, part);\n") +
             "    out0.v[i] = k;\n"
             "    " + K + " d = k ^ k0;\n"
             "    lo |= uint(d);\n" +
             (K == "uint64_t" ? "    hi |= uint(d >> 32);\n" : "") +
             "  }\n"
             "  atomicOr(lo_s, lo);\n"
             "  atomicOr(hi_s, hi);\n"
             "  barrier();\n"
             "  if (gl_LocalInvocationID.x == 0u) {\n"
             "    atomicOr(" + words + ".v[0], lo_s);\n"
             "    atomicOr(" + words + ".v[1], hi_s);\n"
             "  }\n"
             "}\n";
    }
    case KernelKind::kSortHistogram:
    case KernelKind::kSortScatter:
    case KernelKind::kSortOffsets:
      return emit_sort_pass(spec, options);
    case KernelKind::kSegmentSum:
      // One workgroup per segment. Up to 4096 elements, thread 0 adds them in input order (the
      // stable sort keeps it), as numpy does; longer segments are cut into one block per
      // thread, whose sums meet in a fixed tree: deterministic, and no invocation iterates
      // more than llvmpipe allows one invocation (65535 loop iterations in all).
      return header(spec) + operand_buffer(spec, 0, "readonly", "double", "in0") +
             operand_buffer(spec, 1, "readonly", "int64_t", "in1") +
             operand_buffer(spec, 2, "writeonly", "double", "out0") +
             "shared double part[" + kT + "];\n"
             "void main() {\n"
             "  uint t = gl_LocalInvocationID.x;\n"
             "  for (uint k = gl_WorkGroupID.x; k < uint(pc.n); k += gl_NumWorkGroups.x) {\n"
             "    int64_t lo = in1.v[k], hi = in1.v[k + 1u];\n"
             "    precise double s = 0.0;\n"
             "    if (hi - lo <= 4096l) {\n"
             "      if (t == 0u) for (int64_t i = lo; i < hi; ++i) s += in0.v[uint(i)];\n"
             "    } else {\n"
             "      int64_t per = (hi - lo + " + kT + "l - 1l) / " + kT + "l;\n"
             "      int64_t a = lo + int64_t(t) * per, b = min(hi, a + per);\n"
             "      for (int64_t i = a; i < b; ++i) s += in0.v[uint(i)];\n"
             "    }\n"
             "    part[t] = s;\n"
             "    barrier();\n"
             "    for (uint h = " + kT + "u / 2u; h > 0u; h >>= 1) {\n"
             "      if (t < h) part[t] = part[t] + part[t + h];\n"
             "      barrier();\n"
             "    }\n"
             "    if (t == 0u) out0.v[k] = part[0];\n"
             "    barrier();\n"
             "  }\n"
             "}\n";
    case KernelKind::kElementwise:
    case KernelKind::kBincount:
    case KernelKind::kScanBlocks:
    case KernelKind::kScanAdd:
    case KernelKind::kCompact:
    case KernelKind::kScatterClaim:
    case KernelKind::kScatterWrite:
    case KernelKind::kSearchSorted:
    case KernelKind::kCumulativeReduce:
    case KernelKind::kCumulativeRows:
    case KernelKind::kCumulativeLines:
    case KernelKind::kReduce:
    case KernelKind::kGemm:
    case KernelKind::kLuFactor:
    case KernelKind::kLuSolve:
    case KernelKind::kLuPanel:
    case KernelKind::kLuChunks:
    case KernelKind::kCholesky:
    case KernelKind::kQr:
    case KernelKind::kSvdJacobi:
    case KernelKind::kEighJacobi:
    case KernelKind::kSvdJacobiWide:
    case KernelKind::kEighJacobiWide:
    case KernelKind::kRandomGamma:
    case KernelKind::kRandomPoisson:
    case KernelKind::kRandomBinomial:
    case KernelKind::kRandomHypergeometric:
    case KernelKind::kRandomZipf:
    case KernelKind::kRandomVonmises:
    case KernelKind::kRandomLogseries:
      break;
  }
  internal_error("emit_sort of a spec that is not a sort kernel", __FILE__, __LINE__);
}

}  // namespace vka
