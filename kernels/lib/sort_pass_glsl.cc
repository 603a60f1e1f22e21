// The GLSL pieces the radix sort's pass kernels share (kernels/lib/sort_pass_glsl.h).
#include "kernels/lib/sort_pass_glsl.h"

#include "kernels/glsl/indexing.h"
#include "kernels/glsl/writer.h"
#include "kernels/lib/scan.h"

namespace vka {
namespace sort_pass_internal {

std::string str(int v) { return std::to_string(v); }

bool eight_bit(const KernelSpec& spec) { return spec.slots.size() == 4; }

std::string key_type(DType key) { return itemsize(key) == 8 ? "uint64_t" : "uint"; }

std::string header(const KernelSpec& spec, const SortGeometry& g) {
  GlslWriter w;
  w.line("#version 450");
  w.line("// " + spec.name());
  w.raw(address_extensions(spec));
  w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require");
  if (g.digit_bits == 8) {
    w.line("#extension GL_KHR_shader_subgroup_basic : require");
    w.line("#extension GL_KHR_shader_subgroup_ballot : require");
  }
  w.line("layout(local_size_x = " + str(g.threads) + ") in;");
  emit_push_block(spec, w);
  return w.str();
}

// GLSL `uint digit(KEY k, uint id)`: the pass's digit, of the key or of the row.
std::string digit_function(const std::string& K, const SortGeometry& g) {
  const std::string mask = str(g.digits() - 1) + "u";
  return "uint digit(" + K +
         " k, uint id) {\n"
         "  uint shift = pc.c0.x, rowlen = pc.c1.x;\n"
         "  return rowlen == 0u ? uint(k >> shift) & " +
         mask + " : ((id / rowlen) >> shift) & " + mask +
         ";\n"
         "}\n";
}

// GLSL: the workgroup's partition p of `parts`: tiles first .. last - 1 of B elements, in
// order (each workgroup sorts a contiguous range, so one set of digit offsets per partition).
std::string partition(const std::string& B) {
  return "  uint t = gl_LocalInvocationID.x, n = uint(pc.n), parts = pc.c2.x, p = "
         "gl_WorkGroupID.x;\n"
         "  uint tiles = (n + " +
         B + "u - 1u) / " + B +
         "u, per = (tiles + parts - 1u) / parts;\n"
         "  uint first = min(p * per, tiles), last = min(first + per, tiles);\n";
}

// GLSL after a tile's writes: each digit's next position moves past the tile's run of it
// (dstart: the runs' starts in the tile; the last run ends at the tile's element count).
std::string advance_offsets(const std::string& D, const std::string& T, const std::string& B) {
  return "    for (uint d = t; d < " + D + "u; d += " + T +
         "u) {\n"
         "      uint end = d + 1u < " +
         D + "u ? dstart[d + 1u] : min(" + B +
         "u, n - base);\n"
         "      goff[d] += end - dstart[d];\n"
         "    }\n";
}

std::string owned_exclusive_scan(const std::string& array, const std::string& per,
                                 const std::string& T) {
  return "    uint loc[" + per + "];\n"
         "    uint sum = 0u;\n"
         "    for (uint j = 0u; j < " + per + "u; ++j) {\n"
         "      loc[j] = " + array + "[t * " + per + "u + j];\n"
         "      sum += loc[j];\n"
         "    }\n"
         "    part[t] = sum;\n"
         "    barrier();\n" +
         workgroup_inclusive_scan(T, "    ") +
         "    uint run = part[t] - sum;\n"
         "    for (uint j = 0u; j < " + per + "u; ++j) {\n"
         "      " + array + "[t * " + per + "u + j] = run;\n"
         "      run += loc[j];\n"
         "    }\n";
}

}  // namespace sort_pass_internal
}  // namespace vka
