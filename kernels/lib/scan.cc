// The library kernels' GLSL: fixed text around the push-constant block of their spec.
#include "kernels/lib/scan.h"

#include "base/errors.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/ops.h"
#include "kernels/glsl/writer.h"

namespace vka {
namespace {

// The version, the extensions (8-bit always; 64-bit integers when asked; 16-bit types for a
// 2-byte data dtype) and the workgroup size.
std::string header(const KernelSpec& spec, bool int64, DType data = DType::kBool) {
  GlslWriter w;
  w.line("#version 450");
  w.line("// " + spec.name());
  w.raw(address_extensions(spec));
  w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require");
  w.line("#extension GL_EXT_shader_8bit_storage : require");
  if (int64) w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require");
  if (itemsize(data) == 2) {
    w.line("#extension GL_EXT_shader_16bit_storage : require");
    w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require");
    w.line("#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require");
  }
  w.line("layout(local_size_x = " + std::to_string(kScanThreads) + ") in;");
  return w.str();
}

}  // namespace

KernelSpec library_spec(KernelKind kind, const std::vector<DType>& in,
                        const std::vector<DType>& out, int int64_slots) {
  KernelSpec s;
  s.kind = kind;
  s.rank = 1;
  for (DType t : in) s.inputs.push_back(Accessor{t, Layout::kContiguous});
  for (DType t : out) s.outputs.push_back(Accessor{t, Layout::kContiguous});
  s.results.assign(out.size(), 0);
  s.slots.assign(static_cast<size_t>(int64_slots), DType::kInt64);
  return s;
}

std::string workgroup_inclusive_scan(const std::string& threads, const std::string& indent) {
  const std::string& i = indent;
  return i + "for (uint d = 1u; d < " + threads + "u; d <<= 1) {\n" + i +
         "  uint add = t >= d ? part[t - d] : 0u;\n" + i + "  barrier();\n" + i +
         "  part[t] += add;\n" + i + "  barrier();\n" + i + "}\n";
}

KernelSpec scan_blocks_spec(DType input) {
  VKA_ASSERT(input == DType::kBool || input == DType::kUInt32);
  return library_spec(KernelKind::kScanBlocks, {input}, {DType::kUInt32, DType::kUInt32});
}

KernelSpec scan_add_spec() {
  return library_spec(KernelKind::kScanAdd, {DType::kUInt32}, {DType::kUInt32});
}

KernelSpec compact_spec() {
  return library_spec(KernelKind::kCompact, {DType::kBool, DType::kUInt32}, {DType::kInt64});
}

KernelSpec scatter_claim_spec() {
  return library_spec(KernelKind::kScatterClaim, {DType::kInt64}, {DType::kInt32}, 1);
}

KernelSpec scatter_write_spec(DType t) {
  return library_spec(KernelKind::kScatterWrite, {DType::kInt64, t, DType::kInt32}, {t}, 1);
}

KernelSpec searchsorted_spec(DType t) {
  VKA_ASSERT(!is_complex(t));
  return library_spec(KernelKind::kSearchSorted, {t, t}, {DType::kInt64}, 2);
}

std::string emit_scan(const KernelSpec& spec) {
  GlslWriter push;
  emit_push_block(spec, push);
  const std::string T = std::to_string(kScanThreads), P = std::to_string(kScanPerThread),
                    B = std::to_string(kScanBlock);
  switch (spec.kind) {
    case KernelKind::kScanBlocks: {
      const bool flags = spec.inputs[0].dtype == DType::kBool;
      return header(spec, false) +
             operand_buffer(spec, 0, "readonly", flags ? "uint8_t" : "uint", "in0") +
             operand_buffer(spec, 1, "writeonly", "uint", "out0") +
             operand_buffer(spec, 2, "writeonly", "uint", "out1") +
             push.str() +
             "shared uint part[" + T + "];\n"
             "void main() {\n"
             "  uint t = gl_LocalInvocationID.x;\n"
             // Each workgroup scans blocks g, g + groups, ... (the dispatch is capped at
             // maxComputeWorkGroupCount); the loop is uniform within a workgroup.
             "  uint blocks = (uint(pc.n) + " + B + "u - 1u) / " + B + "u;\n"
             "  for (uint g = gl_WorkGroupID.x; g < blocks; g += gl_NumWorkGroups.x) {\n"
             "  uint base = g * " + B + "u + t * " + P + "u;\n"
             "  uint v[" + P + "];\n"
             "  uint sum = 0u;\n"
             "  for (uint k = 0u; k < " + P + "u; ++k) {\n"
             "    uint i = base + k;\n"
             "    v[k] = i < uint(pc.n) ? uint(in0.v[pc.off0 + int(i)]) : 0u;\n" +
             (flags ? "    v[k] = v[k] != 0u ? 1u : 0u;\n" : "") +
             "    sum += v[k];\n"
             "  }\n"
             "  part[t] = sum;\n"
             "  barrier();\n" +
             // Hillis-Steele inclusive scan of the per-thread sums.
             workgroup_inclusive_scan(T, "  ") +
             "  uint run = part[t] - sum;\n"
             "  for (uint k = 0u; k < " + P + "u; ++k) {\n"
             "    uint i = base + k;\n"
             "    if (i < uint(pc.n)) out0.v[pc.off1 + int(i)] = run;\n"
             "    run += v[k];\n"
             "  }\n"
             "  if (t == " + T + "u - 1u) out1.v[pc.off2 + int(g)] = part[t];\n"
             "  barrier();\n"  // part is reused by the next block
             "  }\n"
             "}\n";
    }
    case KernelKind::kScanAdd:
      return header(spec, false) + operand_buffer(spec, 0, "readonly", "uint", "in0") +
             operand_buffer(spec, 1, "", "uint", "out0") + push.str() +
             "void main() {\n"
             "  for (uint i = gl_GlobalInvocationID.x; i < uint(pc.n);\n"
             "       i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {\n"
             "    out0.v[pc.off1 + int(i)] += in0.v[pc.off0 + int(i / " + B + "u)];\n"
             "  }\n"
             "}\n";
    case KernelKind::kCompact:
      return header(spec, true) + operand_buffer(spec, 0, "readonly", "uint8_t", "in0") +
             operand_buffer(spec, 1, "readonly", "uint", "in1") +
             operand_buffer(spec, 2, "writeonly", "int64_t", "out0") +
             push.str() +
             "void main() {\n"
             "  for (uint i = gl_GlobalInvocationID.x; i < uint(pc.n);\n"
             "       i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {\n"
             "    if (in0.v[pc.off0 + int(i)] != uint8_t(0)) {\n"
             "      out0.v[pc.off2 + int(in1.v[pc.off1 + int(i)])] = int64_t(i);\n"
             "    }\n"
             "  }\n"
             "}\n";
    case KernelKind::kScatterClaim:
      return header(spec, true) + operand_buffer(spec, 0, "readonly", "int64_t", "in0") +
             operand_buffer(spec, 1, "", "int", "out0") + push.str() +
             "void main() {\n"
             "  int64_t lo = int64_t(pack64(pc.c0));\n"
             "  for (uint i = gl_GlobalInvocationID.x; i < uint(pc.n);\n"
             "       i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {\n"
             "    atomicMax(out0.v[pc.off1 + int(in0.v[pc.off0 + int(i)] - lo)], int(i) + 1);\n"
             "  }\n"
             "}\n";
    case KernelKind::kScatterWrite: {
      const DType t = spec.outputs[0].dtype;
      const std::string type(storage_type(t));
      return header(spec, true, t) + operand_buffer(spec, 0, "readonly", "int64_t", "in0") +
             operand_buffer(spec, 1, "readonly", type.c_str(), "in1") +
             operand_buffer(spec, 2, "readonly", "int", "in2") +
             operand_buffer(spec, 3, "writeonly", type.c_str(), "out0") + push.str() +
             "void main() {\n"
             "  int64_t lo = int64_t(pack64(pc.c0));\n"
             "  for (uint i = gl_GlobalInvocationID.x; i < uint(pc.n);\n"
             "       i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {\n"
             "    int64_t a = in0.v[pc.off0 + int(i)];\n"
             "    if (in2.v[pc.off2 + int(a - lo)] == int(i) + 1) {\n"
             "      out0.v[int(a)] = in1.v[pc.off1 + int(i)];\n"
             "    }\n"
             "  }\n"
             "}\n";
    }
    case KernelKind::kSearchSorted: {
      const DType t = spec.inputs[0].dtype;
      const std::string type(storage_type(t));
      const std::string ct = is_bool(t) ? "uint" : std::string(compute_type(t));
      const bool fp = is_floating(t);
      // numpy's sort order: NaN after every number (and equal to NaN).
      const std::string less = fp ? "((x < y) || (isnan(y) && !isnan(x)))" : "(x < y)";
      return header(spec, true, t) + operand_buffer(spec, 0, "readonly", type.c_str(), "in0") +
             operand_buffer(spec, 1, "readonly", type.c_str(), "in1") +
             operand_buffer(spec, 2, "writeonly", "int64_t", "out0") +
             push.str() +
             "bool before(" + ct + " x, " + ct + " y) { return " + less + "; }\n"
             "void main() {\n"
             "  bool right = pack64(pc.c0) != 0ul;\n"
             // A grid-stride loop: the dispatch is capped at 65535 workgroups (the least
             // maxComputeWorkGroupCount Vulkan allows), and more values than that many threads
             // are searched by several passes of each thread.
             "  for (uint i = gl_GlobalInvocationID.x; i < uint(pc.n);\n"
             "       i += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {\n"
             "    int64_t lo = 0, hi = int64_t(pack64(pc.c1));\n"
             "    " + ct + " v = " + ct + "(in1.v[pc.off1 + int(i)]);\n"
             "    while (lo < hi) {\n"
             "      int64_t mid = (lo + hi) / 2;\n"
             "      " + ct + " m = " + ct + "(in0.v[pc.off0 + int(mid)]);\n"
             "      if (right ? !before(v, m) : before(m, v)) lo = mid + 1; else hi = mid;\n"
             "    }\n"
             "    out0.v[pc.off2 + int(i)] = lo;\n"
             "  }\n"
             "}\n";
    }
    default:
      break;
  }
  internal_error("emit_scan of a kernel that is not a scan, compaction, scatter or search",
                 __FILE__, __LINE__);
}

}  // namespace vka
