// bincount's counting kernel (kernels/lib/counting.h).
#include "kernels/lib/counting.h"

#include "base/errors.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/writer.h"
#include "kernels/lib/scan.h"

namespace vka {

KernelSpec bincount_spec(DType values) {
  VKA_ASSERT(values == DType::kInt64 || values == DType::kInt32);
  return library_spec(KernelKind::kBincount, {values}, {DType::kUInt32}, 1);
}

std::string emit_bincount(const KernelSpec& spec) {
  const std::string T = std::to_string(kBincountThreads);
  const std::string S = std::to_string(kBincountSharedBins);
  GlslWriter w;
  w.line("#version 450");
  w.line("// " + spec.name());
  w.raw(address_extensions(spec));
  w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require");
  w.line("layout(local_size_x = " + T + ") in;");
  emit_push_block(spec, w);
  const std::string in = spec.inputs[0].dtype == DType::kInt64 ? "int64_t" : "int";
  return w.str() + operand_buffer(spec, 0, "readonly", in, "in0") +
         operand_buffer(spec, 1, "", "uint", "out0") +
         "shared uint h[" + S + "];\n"
         "void main() {\n"
         "  uint t = gl_LocalInvocationID.x, bins = pc.c0.x;\n"
         "  bool local = bins <= " + S + "u;\n"  // uniform: the barriers below are safe
         "  if (local) {\n"
         "    for (uint j = t; j < bins; j += " + T + "u) h[j] = 0u;\n"
         "    barrier();\n"
         "  }\n"
         "  uint grid = gl_NumWorkGroups.x * " + T + "u;\n"
         "  for (uint i = gl_GlobalInvocationID.x; i < uint(pc.n); i += grid) {\n"
         "    uint b = uint(in0.v[i]);\n"
         "    if (local) atomicAdd(h[b], 1u); else atomicAdd(out0.v[b], 1u);\n"
         "  }\n"
         "  if (local) {\n"
         "    barrier();\n"
         "    for (uint j = t; j < bins; j += " + T + "u) {\n"
         "      if (h[j] != 0u) atomicAdd(out0.v[j], h[j]);\n"
         "    }\n"
         "  }\n"
         "}\n";
}

}  // namespace vka
