// The radix sort's pass kernels (kernels/lib/sort_pass.h): geometry, specs and GLSL of the
// portable 4-bit form and the 8-bit subgroup-ballot form.
#include "kernels/lib/sort_pass.h"

#include <algorithm>

#include "base/errors.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/writer.h"
#include "kernels/lib/scan.h"

namespace vka {
namespace {

std::string str(int v) { return std::to_string(v); }

bool eight_bit(const KernelSpec& spec) { return spec.slots.size() == 4; }

std::string key_type(DType key) { return key == DType::kUInt64 ? "uint64_t" : "uint"; }

std::string header(const KernelSpec& spec, const SortGeometry& g, bool partitioned = false) {
  GlslWriter w;
  w.line("#version 450");
  w.line("// " + spec.name());
  w.raw(address_extensions(spec));
  w.line("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require");
  if (g.digit_bits == 8) {
    w.line("#extension GL_KHR_shader_subgroup_basic : require");
    w.line("#extension GL_KHR_shader_subgroup_ballot : require");
  }
  if (partitioned) w.line("#extension GL_NV_shader_subgroup_partitioned : require");
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

// The histogram of a partition's digits. Its tile size is the scatter's (which depends on
// whether indices move too): a constant in the 4-bit form, slot c3 in the 8-bit form.
std::string emit_histogram(const KernelSpec& spec, const SortGeometry& g) {
  const std::string K = key_type(spec.inputs[0].dtype);
  const bool rows = spec.inputs.size() == 2;
  const std::string T = str(g.threads), D = str(g.digits());
  const std::string B = eight_bit(spec) ? "pc.c3.x" : str(g.block()) + "u";
  std::string s = header(spec, g) + operand_buffer(spec, 0, "readonly", K, "in0");
  if (rows) s += operand_buffer(spec, 1, "readonly", "uint", "in1");
  const int out = static_cast<int>(spec.inputs.size());
  s += operand_buffer(spec, out, "writeonly", "uint", "out0") + digit_function(K, g);
  const std::string read = rows ? "digit(" + K + "(0), in1.v[i])" : "digit(in0.v[i], 0u)";
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
         D + "u; d += " + T +
         "u) h[d] = 0u;\n"
         "  barrier();\n"
         "  for (uint c = first; c < end; c += 8u * " +
         T +
         "u) {\n"
         // Eight loads issued before the first atomic: their latencies overlap.
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
         "  barrier();\n"
         "  for (uint d = t; d < " +
         D + "u; d += " + T +
         "u) out0.v[d * parts + p] = h[d];\n"
         "}\n";
}

// The portable scatter: thread t owns elements t*P .. t*P+P-1 of the block, counts them per
// digit in cnt[(digit, thread)], and an exclusive scan of cnt gives stable ranks.
std::string emit_scatter_portable(const KernelSpec& spec, const SortGeometry& g) {
  const std::string K = key_type(spec.inputs[0].dtype);
  const std::string T = str(g.threads), P = str(g.per_thread), B = str(g.block()),
                    D = str(g.digits());
  return header(spec, g) + operand_buffer(spec, 0, "readonly", K, "in0") +
         operand_buffer(spec, 1, "readonly", "uint", "in1") +
         operand_buffer(spec, 2, "readonly", "uint", "in2") +
         operand_buffer(spec, 3, "writeonly", K, "out0") +
         operand_buffer(spec, 4, "writeonly", "uint", "out1") + digit_function(K, g) + "shared " +
         K + " skey[" + B +
         "];\n"
         "shared uint sidx[" +
         B +
         "];\n"
         "shared uint cnt[" +
         D + " * " + T +
         "];\n"  // (digit, thread), digit-major
         "shared uint part[" +
         T +
         "];\n"
         "shared uint dstart[" +
         D +
         "];\n"
         "shared uint goff[" +
         D +
         "];\n"
         "void main() {\n" +
         partition(B) +
         "  bool keys = pc.c1.x == 0u;\n"
         "  for (uint d = t; d < " +
         D + "u; d += " + T +
         "u) goff[d] = in2.v[d * parts + p];\n"
         "  for (uint b = first; b < last; ++b) {\n"
         "    uint base = b * " +
         B +
         "u;\n"
         "    for (uint k = 0u; k < " +
         P +
         "u; ++k) {\n"  // coalesced loads
         "      uint i = k * " +
         T +
         "u + t;\n"
         "      if (base + i < n) {\n"
         "        skey[i] = keys ? in0.v[base + i] : " +
         K +
         "(0);\n"
         "        sidx[i] = in1.v[base + i];\n"
         "      }\n"
         "    }\n"
         "    for (uint d = 0u; d < " +
         D + "u; ++d) cnt[d * " + T +
         "u + t] = 0u;\n"
         "    barrier();\n"
         "    uint digs[" +
         P +
         "];\n"
         "    for (uint k = 0u; k < " +
         P +
         "u; ++k) {\n"
         "      uint i = t * " +
         P +
         "u + k;\n"
         "      digs[k] = base + i < n ? digit(skey[i], sidx[i]) : " +
         D +
         "u;\n"
         "      if (digs[k] < " +
         D + "u) cnt[digs[k] * " + T +
         "u + t] += 1u;\n"
         "    }\n"
         "    barrier();\n"
         // Exclusive scan of cnt in (digit, thread) order: thread t owns entries t*D..t*D+D-1.
         "    uint loc[" +
         D +
         "];\n"
         "    uint sum = 0u;\n"
         "    for (uint j = 0u; j < " +
         D +
         "u; ++j) {\n"
         "      loc[j] = cnt[t * " +
         D +
         "u + j];\n"
         "      sum += loc[j];\n"
         "    }\n"
         "    part[t] = sum;\n"
         "    barrier();\n" +
         workgroup_inclusive_scan(T, "    ") +
         "    uint run = part[t] - sum;\n"
         "    for (uint j = 0u; j < " +
         D +
         "u; ++j) {\n"
         "      cnt[t * " +
         D +
         "u + j] = run;\n"
         "      run += loc[j];\n"
         "    }\n"
         "    barrier();\n"
         "    if (t < " +
         D + "u) dstart[t] = cnt[t * " + T +
         "u];\n"
         "    barrier();\n"
         "    for (uint k = 0u; k < " +
         P +
         "u; ++k) {\n"
         "      uint d = digs[k];\n"
         "      if (d >= " +
         D +
         "u) continue;\n"
         "      uint i = t * " +
         P +
         "u + k;\n"
         "      uint rank = cnt[d * " +
         T +
         "u + t] - dstart[d];\n"
         "      cnt[d * " +
         T +
         "u + t] += 1u;\n"
         "      uint pos = goff[d] + rank;\n"
         "      if (keys) out0.v[pos] = skey[i];\n"
         "      out1.v[pos] = sidx[i];\n"
         "    }\n"
         "    barrier();\n" +
         advance_offsets(D, T, B) +
         "  }\n"
         "}\n";
}

// The 8-bit scatter. Subgroup s ranks the block's s-th chunk of SG * P keys, SG at a time in
// order: the lanes holding one digit find each other with eight ballots, rank among themselves
// by lane, and the last of them adds their number to the subgroup's count of the digit. Counts
// become offsets across subgroups and digits, the block is staged sorted by digit in shared
// memory, and consecutive invocations write consecutive positions of each digit's run.
std::string emit_scatter_ballot(const KernelSpec& spec, const SortGeometry& g, bool partitioned) {
  const std::string K = key_type(spec.inputs[0].dtype);
  const bool ids = spec.outputs.size() == 2;
  const std::string T = str(g.threads), P = str(g.per_thread), B = str(g.block()),
                    S = str(g.subgroups), DPT = str(256 / g.threads);
  std::string s = header(spec, g, partitioned) + operand_buffer(spec, 0, "readonly", K, "in0");
  if (ids) s += operand_buffer(spec, 1, "readonly", "uint", "in1");
  // The lanes holding digit d: one instruction where the device partitions subgroups, else
  // eight ballots, one per bit of the digit.
  const std::string match =
      partitioned ? "      uvec4 peers = subgroupPartitionNV(d) & subgroupBallot(valid);\n"
                  : "      uvec4 peers = subgroupBallot(valid);\n"
                    "      for (uint bit = 0u; bit < 8u; ++bit) {\n"
                    "        bool set = ((d >> bit) & 1u) != 0u;\n"
                    "        uvec4 m = subgroupBallot(set);\n"
                    "        peers &= set ? m : ~m;\n"
                    "      }\n";
  const int sums = ids ? 2 : 1;
  s += operand_buffer(spec, sums, "readonly", "uint", "in2") +
       operand_buffer(spec, sums + 1, "writeonly", K, "out0");
  if (ids) s += operand_buffer(spec, sums + 2, "writeonly", "uint", "out1");
  s += digit_function(K, g);
  s += "shared " + K + " skey[" + B + "];\n";
  if (ids) s += "shared uint sidx[" + B + "];\n";
  const std::string load_id = ids ? "in1.v[i]" : "0u";
  return s + "shared uint whist[" + S +
         " * 256];\n"  // (subgroup, digit): count, then offset
         "shared uint dstart[256];\n"
         "shared uint goff[256];\n"
         "shared uint part[" +
         T +
         "];\n"
         "void main() {\n" +
         partition(B) +
         "  uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID, size = gl_SubgroupSize;\n"
         "  bool keys = pc.c1.x == 0u;\n"
         "  for (uint d = t; d < 256u; d += " +
         T +
         "u) goff[d] = in2.v[d * parts + p];\n"
         "  for (uint b = first; b < last; ++b) {\n"
         "    uint base = b * " +
         B +
         "u;\n"
         "    for (uint j = t; j < " +
         S + "u * 256u; j += " + T +
         "u) whist[j] = 0u;\n"
         "    barrier();\n"
         "    " +
         K + " mk[" + P +
         "];\n"
         "    uint mi[" +
         P + "], mr[" + P +
         "];\n"
         "    for (uint r = 0u; r < " +
         P +
         "u; ++r) {\n"  // every load first
         "      uint i = base + (sg * " +
         P +
         "u + r) * size + lane;\n"
         "      mk[r] = i < n && keys ? in0.v[i] : " +
         K +
         "(0);\n"
         "      mi[r] = i < n ? " +
         load_id +
         " : 0u;\n"
         "    }\n"
         "    for (uint r = 0u; r < " +
         P +
         "u; ++r) {\n"
         "      bool valid = base + (sg * " +
         P +
         "u + r) * size + lane < n;\n"
         "      uint d = valid ? digit(mk[r], mi[r]) : 256u;\n" +
         match +
         "      uint rank = subgroupBallotExclusiveBitCount(peers);\n"
         "      uint count = subgroupBallotBitCount(peers);\n"
         "      uint prior = valid ? whist[sg * 256u + d] : 0u;\n"
         "      subgroupBarrier();\n"  // every peer has read the count before it grows
         "      if (valid && rank + 1u == count) whist[sg * 256u + d] = prior + count;\n"
         "      subgroupBarrier();\n"
         "      mr[r] = prior + rank;\n"
         "    }\n"
         "    barrier();\n"
         "    for (uint d = t; d < 256u; d += " +
         T +
         "u) {\n"
         "      uint run = 0u;\n"
         "      for (uint j = 0u; j < " +
         S +
         "u; ++j) {\n"
         "        uint c = whist[j * 256u + d];\n"
         "        whist[j * 256u + d] = run;\n"
         "        run += c;\n"
         "      }\n"
         "      dstart[d] = run;\n"
         "    }\n"
         "    barrier();\n"
         // Exclusive scan of the block's digit totals: thread t owns DPT consecutive digits.
         "    uint loc[" +
         DPT +
         "];\n"
         "    uint sum = 0u;\n"
         "    for (uint j = 0u; j < " +
         DPT +
         "u; ++j) {\n"
         "      loc[j] = dstart[t * " +
         DPT +
         "u + j];\n"
         "      sum += loc[j];\n"
         "    }\n"
         "    part[t] = sum;\n"
         "    barrier();\n" +
         workgroup_inclusive_scan(T, "    ") +
         "    uint run = part[t] - sum;\n"
         "    for (uint j = 0u; j < " +
         DPT +
         "u; ++j) {\n"
         "      dstart[t * " +
         DPT +
         "u + j] = run;\n"
         "      run += loc[j];\n"
         "    }\n"
         "    barrier();\n"
         "    for (uint r = 0u; r < " +
         P +
         "u; ++r) {\n"
         "      if (base + (sg * " +
         P +
         "u + r) * size + lane >= n) continue;\n"
         "      uint d = digit(mk[r], mi[r]);\n"
         "      uint pos = dstart[d] + whist[sg * 256u + d] + mr[r];\n"
         "      skey[pos] = mk[r];\n" +
         (ids ? "      sidx[pos] = mi[r];\n" : "") +
         "    }\n"
         "    barrier();\n"
         "    uint m = min(" +
         B +
         "u, n - base);\n"
         "    for (uint j = t; j < m; j += " +
         T +
         "u) {\n"
         "      " +
         K +
         " k = skey[j];\n"
         "      uint id = " +
         (ids ? "sidx[j]" : "0u") +
         ";\n"
         "      uint d = digit(k, id);\n"
         "      uint pos = goff[d] + j - dstart[d];\n"
         "      if (keys) out0.v[pos] = k;\n" +
         (ids ? "      out1.v[pos] = id;\n" : "") +
         "    }\n"
         "    barrier();\n" +
         advance_offsets("256", T, B) +
         "  }\n"
         "}\n";
}

std::vector<DType> slots(int digit_bits) {
  return std::vector<DType>(digit_bits == 8 ? 4 : 3, DType::kInt64);
}

KernelSpec pass_spec(KernelKind kind, const std::vector<DType>& in, const std::vector<DType>& out,
                     int digit_bits) {
  KernelSpec s = library_spec(kind, in, out, 0);
  s.slots = slots(digit_bits);
  return s;
}

}  // namespace

SortGeometry sort_geometry_portable() { return SortGeometry{}; }

SortGeometry sort_geometry(DType key, const EmitOptions& device, bool indices) {
  const int sg = static_cast<int>(device.subgroup_size);
  if (!device.subgroup_ballot || sg < 4 || sg > 128 || (sg & (sg - 1)) != 0) {
    return sort_geometry_portable();
  }
  SortGeometry g;
  g.digit_bits = 8;
  g.threads = std::min(256, 16 * sg);  // at most 16 subgroup histograms; divides 256
  g.subgroups = g.threads / sg;
  const int fixed = g.subgroups * 256 * 4 + 2 * 256 * 4 + g.threads * 4;
  const int per_key = (key == DType::kUInt64 ? 8 : 4) + (indices ? 4 : 0);
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

KernelSpec sort_scatter_spec(DType key, bool indices, int digit_bits) {
  VKA_ASSERT(indices || digit_bits == 8);
  if (!indices) {
    return pass_spec(KernelKind::kSortScatter, {key, DType::kUInt32}, {key}, digit_bits);
  }
  return pass_spec(KernelKind::kSortScatter, {key, DType::kUInt32, DType::kUInt32},
                   {key, DType::kUInt32}, digit_bits);
}

std::string emit_sort_pass(const KernelSpec& spec, const EmitOptions& device) {
  SortGeometry g = sort_geometry_portable();
  if (eight_bit(spec)) {
    // A histogram reads only the threads of the geometry, which indices do not change.
    const bool indices = spec.kind == KernelKind::kSortScatter && spec.outputs.size() == 2;
    g = sort_geometry(spec.inputs[0].dtype, device, indices);
    VKA_ASSERT(g.digit_bits == 8);  // the host asked the same device
  }
  if (spec.kind == KernelKind::kSortHistogram) return emit_histogram(spec, g);
  VKA_ASSERT(spec.kind == KernelKind::kSortScatter);
  return g.digit_bits == 8 ? emit_scatter_ballot(spec, g, device.subgroup_partitioned)
                           : emit_scatter_portable(spec, g);
}

}  // namespace vka
