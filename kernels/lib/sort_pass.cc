// The radix sort's pass kernels (kernels/lib/sort_pass.h): geometry, specs, the histogram's
// GLSL and the choice of form (the scatters: sort_scatter.cc).
#include "kernels/lib/sort_pass.h"

#include <algorithm>

#include "base/errors.h"
#include "kernels/glsl/indexing.h"
#include "kernels/lib/scan.h"
#include "kernels/lib/sort.h"
#include "kernels/lib/sort_key_glsl.h"
#include "kernels/lib/sort_pass_glsl.h"

namespace vka {
namespace {

using sort_pass_internal::digit_function;
using sort_pass_internal::eight_bit;
using sort_pass_internal::emit_scatter_ballot;
using sort_pass_internal::emit_scatter_portable;
using sort_pass_internal::header;
using sort_pass_internal::key_type;
using sort_pass_internal::owned_exclusive_scan;
using sort_pass_internal::str;
using sort_pass_internal::value_coding;

// The histogram of a partition's digits. Its tile size is the scatter's (which depends on
// whether indices move too): a constant in the 4-bit form, slot c3 in the 8-bit form.
std::string emit_histogram(const KernelSpec& spec, const SortGeometry& g) {
  const std::string K = key_type(spec.inputs[0].dtype);
  const bool rows = spec.inputs.size() == 2;
  const bool values = spec.outputs.size() == 2;  // sort_value_histogram_spec
  const std::string T = str(g.threads), D = str(g.digits());
  const std::string B = eight_bit(spec) ? "pc.c3.x" : str(g.block()) + "u";
  std::string s = header(spec, g) + operand_buffer(spec, 0, "readonly", K, "in0");
  if (rows) s += operand_buffer(spec, 1, "readonly", "uint", "in1");
  const int out = static_cast<int>(spec.inputs.size());
  s += operand_buffer(spec, out, "writeonly", "uint", "out0") + digit_function(K, g);
  std::string read = rows ? "digit(" + K + "(0), in1.v[i])" : "digit(in0.v[i], 0u)";
  // A sort of values: each key made as it is read, and the bits that vary and the lossy values
  // noted on the way (sort_value_histogram_spec), which spares a pass that writes the keys.
  std::string loads, words_in, words_out;
  if (values) {
    s += operand_buffer(spec, out + 1, "", "uint", "out1") + value_coding(spec.inputs[0].dtype) +
         K + " k0, vary = " + K +
         "(0);\n"
         "uint lossy = 0u;\n" +
         K + " key_of_value(" + K +
         " x) {\n"
         "  lossy |= uint(lossy_value(x));\n"
         "  " +
         K +
         " k = encode_value(x);\n"
         "  vary |= k ^ k0;\n"
         "  return k;\n"
         "}\n"
         "shared uint words[3];\n";
    // The eight values are loaded before any is keyed, so that their loads overlap.
    loads = "    " + K +
            " raw[8];\n"
            "    for (uint k = 0u; k < 8u; ++k) {\n"
            "      uint i = c + k * " +
            T +
            "u + t;\n"
            "      raw[k] = i < end ? in0.v[i] : x0;\n"
            "    }\n";
    read = "digit(key_of_value(raw[k]), 0u)";
    words_in = "  " + K +
               " x0 = in0.v[0];\n"
               "  k0 = encode_value(x0);\n"
               "  if (t < 3u) words[t] = 0u;\n";
    words_out = "  atomicOr(words[0], uint(vary));\n" +
                std::string(K == "uint64_t" ? "  atomicOr(words[1], uint(vary >> 32));\n" : "") +
                "  if (lossy != 0u) atomicOr(words[2], 1u);\n"
                "  barrier();\n"
                "  if (t < 3u && words[t] != 0u) atomicOr(out1.v[t], words[t]);\n";
  }
  return s + "shared uint h[" + D +
         "];\n"
         "void main() {\n"
         "  uint t = gl_LocalInvocationID.x, n = uint(pc.n), parts = pc.c2.x, p = "
         "gl_WorkGroupID.x;\n"
         "  uint tile = " +
         B +
         ", tiles = (n + tile - 1u) / tile;\n"
         "  uint per = (tiles + parts - 1u) / parts;\n"
         "  uint first = min(p * per, tiles) * tile, end = min(min(p * per, tiles) + per, tiles) * "
         "tile;\n"
         "  end = min(end, n);\n"
         "  for (uint d = t; d < " +
         D + "u; d += " + T + "u) h[d] = 0u;\n" + words_in +
         "  barrier();\n"
         "  for (uint c = first; c < end; c += 8u * " +
         T + "u) {\n" +
         // Eight loads issued before the first atomic: their latencies overlap.
         loads +
         "    uint dig[8];\n"
         "    for (uint k = 0u; k < 8u; ++k) {\n"
         "      uint i = c + k * " +
         T +
         "u + t;\n"
         "      dig[k] = i < end ? " +
         read + " : " + D +
         "u;\n"
         "    }\n"
         "    for (uint k = 0u; k < 8u; ++k) {\n"
         "      if (dig[k] < " +
         D +
         "u) atomicAdd(h[dig[k]], 1u);\n"
         "    }\n"
         "  }\n"
         "  barrier();\n" +
         words_out + "  for (uint d = t; d < " + D + "u; d += " + T +
         "u) out0.v[d * parts + p] = h[d];\n"
         "}\n";
}

// sort_offsets_spec: offsets within each digit and the digits' totals (workgroup d scans digit
// d's row of counts in chunks of 2048, 8 an invocation, carrying the sum between chunks), or
// the digits' starts from their totals (one workgroup).
std::string emit_offsets(const KernelSpec& spec) {
  SortGeometry g;                  // 256 invocations
  if (spec.outputs.size() == 1) {  // the digits' starts from their totals
    return header(spec, g) + operand_buffer(spec, 0, "readonly", "uint", "in0") +
           operand_buffer(spec, 1, "writeonly", "uint", "out0") +
           "shared uint starts[256];\n"
           "shared uint part[256];\n"
           "void main() {\n"
           "  uint t = gl_LocalInvocationID.x;\n"
           "  starts[t] = in0.v[t];\n"
           "  barrier();\n" +
           owned_exclusive_scan("starts", "1", "256") +
           "  out0.v[t] = starts[t];\n"
           "}\n";
  }
  return header(spec, g) + operand_buffer(spec, 0, "readonly", "uint", "in0") +
         operand_buffer(spec, 1, "writeonly", "uint", "out0") +
         operand_buffer(spec, 2, "writeonly", "uint", "out1") +
         "shared uint buf[2048];\n"
         "shared uint part[256];\n"
         "void main() {\n"
         "  uint t = gl_LocalInvocationID.x, d = gl_WorkGroupID.x, parts = uint(pc.n);\n"
         "  uint carry = 0u;\n"
         "  for (uint c = 0u; c < parts; c += 2048u) {\n"
         "    for (uint k = 0u; k < 8u; ++k) {\n"
         "      uint i = c + k * 256u + t;\n"
         "      buf[k * 256u + t] = i < parts ? in0.v[d * parts + i] : 0u;\n"
         "    }\n"
         "    barrier();\n" +
         owned_exclusive_scan("buf", "8", "256") +
         "    barrier();\n"
         "    for (uint k = 0u; k < 8u; ++k) {\n"
         "      uint i = c + k * 256u + t;\n"
         "      if (i < parts) out0.v[d * parts + i] = buf[k * 256u + t] + carry;\n"
         "    }\n"
         "    carry += part[255];\n"
         "    barrier();\n"
         "  }\n"
         "  if (t == 0u) out1.v[d] = carry;\n"
         "}\n";
}

std::vector<DType> slots(int digit_bits) {
  return std::vector<DType>(digit_bits == 8 ? 4 : 3, DType::kInt64);
}

// The key dtype of a pass's in0 (a sort of values reads the values' own bits).
DType key_of(const KernelSpec& spec) { return sort_key_dtype(spec.inputs[0].dtype); }

KernelSpec pass_spec(KernelKind kind, std::vector<DType> in, const std::vector<DType>& out,
                     int digit_bits) {
  // An 8-bit scatter reads the digits' starts after its offsets (sort_offsets_spec).
  if (kind == KernelKind::kSortScatter && digit_bits == 8) in.push_back(DType::kUInt32);
  KernelSpec s = library_spec(kind, in, out, 0);
  s.slots = slots(digit_bits);
  return s;
}

}  // namespace

SortGeometry sort_geometry_portable() { return SortGeometry{}; }

SortGeometry sort_geometry(DType key, const EmitOptions& device, int payload_bytes) {
  const int sg = static_cast<int>(device.subgroup_size);
  if (!device.subgroup_ballot || sg < 4 || sg > 128 || (sg & (sg - 1)) != 0) {
    return sort_geometry_portable();
  }
  SortGeometry g;
  g.digit_bits = 8;
  g.threads = std::min(256, 16 * sg);  // at most 16 subgroup histograms; divides 256
  g.subgroups = g.threads / sg;
  const int fixed = g.subgroups * 256 * 4 + 2 * 256 * 4 + g.threads * 4;
  // 64-bit values stage as 4-byte places in the block (sort_scatter.cc).
  const int per_key = (key == DType::kUInt64 ? 8 : 4) + std::min(payload_bytes, 4);
  // 16 keys an invocation: on an H200 neither 8 nor 32 (keys alone) made a pass faster.
  for (g.per_thread = 16; g.per_thread >= 2; g.per_thread /= 2) {
    if (fixed + g.block() * per_key <= static_cast<int>(device.max_shared_bytes)) return g;
  }
  return sort_geometry_portable();
}

KernelSpec sort_histogram_spec(DType key, bool rows, int digit_bits) {
  return pass_spec(KernelKind::kSortHistogram,
                   rows ? std::vector<DType>{key, DType::kUInt32} : std::vector<DType>{key},
                   {DType::kUInt32}, digit_bits);
}

KernelSpec sort_scatter_spec(DType key, int payload_bytes, int digit_bits) {
  VKA_ASSERT(payload_bytes == 4 || (digit_bits == 8 && (payload_bytes == 0 || payload_bytes == 8)));
  if (payload_bytes == 0) {
    return pass_spec(KernelKind::kSortScatter, {key, DType::kUInt32}, {key}, digit_bits);
  }
  const DType payload = payload_bytes == 8 ? DType::kUInt64 : DType::kUInt32;
  return pass_spec(KernelKind::kSortScatter, {key, payload, DType::kUInt32}, {key, payload},
                   digit_bits);
}

KernelSpec sort_offsets_spec(bool starts) {
  return library_spec(KernelKind::kSortOffsets, {DType::kUInt32},
                      starts ? std::vector<DType>{DType::kUInt32}
                             : std::vector<DType>{DType::kUInt32, DType::kUInt32},
                      0);
}

KernelSpec sort_position_scatter_spec(DType t) {
  VKA_ASSERT(sorts_as_values(t));
  return pass_spec(KernelKind::kSortScatter, {t, DType::kUInt32},
                   {sort_key_dtype(t), DType::kUInt32}, 8);
}

bool sorts_as_values(DType t) {
  return !is_complex(t) && !is_bool(t) && (itemsize(t) == 4 || itemsize(t) == 8);
}

KernelSpec sort_value_histogram_spec(DType t) {
  VKA_ASSERT(sorts_as_values(t));
  return pass_spec(KernelKind::kSortHistogram, {t}, {DType::kUInt32, DType::kUInt32}, 8);
}

KernelSpec sort_value_scatter_spec(DType t, bool reads_values, bool writes_values) {
  VKA_ASSERT(sorts_as_values(t));
  const DType key = sort_key_dtype(t);
  return pass_spec(KernelKind::kSortScatter, {reads_values ? t : key, DType::kUInt32},
                   {writes_values ? t : key}, 8);
}

std::string emit_sort_pass(const KernelSpec& spec, const EmitOptions& device) {
  if (spec.kind == KernelKind::kSortOffsets) return emit_offsets(spec);
  SortGeometry g = sort_geometry_portable();
  if (eight_bit(spec)) {
    // A histogram reads only the threads of the geometry, which the payload does not change.
    const int payload = spec.kind != KernelKind::kSortScatter || spec.outputs.size() == 1
                            ? 0
                            : static_cast<int>(itemsize(spec.inputs[1].dtype));
    g = sort_geometry(key_of(spec), device, payload);
    VKA_ASSERT(g.digit_bits == 8);  // the host asked the same device
  }
  if (spec.kind == KernelKind::kSortHistogram) return emit_histogram(spec, g);
  VKA_ASSERT(spec.kind == KernelKind::kSortScatter);
  return g.digit_bits == 8 ? emit_scatter_ballot(spec, g) : emit_scatter_portable(spec, g);
}

}  // namespace vka