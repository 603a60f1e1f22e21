// The radix sort's scatter kernels (kernels/lib/sort_pass.h): the portable 4-bit form and the
// 8-bit subgroup-ballot form.
#include "kernels/glsl/indexing.h"
#include "kernels/lib/sort_key_glsl.h"
#include "kernels/lib/sort_pass_glsl.h"

namespace vka {
namespace sort_pass_internal {

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
         "    barrier();\n" +
         // Exclusive scan of cnt in (digit, thread) order: thread t owns entries t*D..t*D+D-1.
         owned_exclusive_scan("cnt", D, T) +
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
std::string emit_scatter_ballot(const KernelSpec& spec, const SortGeometry& g) {
  const std::string K = key_type(spec.inputs[0].dtype);
  const bool ids = spec.outputs.size() == 2;
  // The first pass of an argsort of values (sort_position_scatter_spec): the indices moved are
  // the elements' positions, read from nowhere.
  const bool positions = ids && spec.inputs.size() == 3;
  // What moves with the keys: uint32 indices, or 64-bit values (sort_pass.h).
  const bool wide = ids && !positions && spec.inputs[1].dtype == DType::kUInt64;
  const std::string I = wide ? "uint64_t" : "uint";
  // 64-bit values are not held in registers nor staged: shared memory holds each key's place in
  // the block, and the values are read from there as they are written (the block's values
  // were just read, so those reads mostly hit the cache), which leaves room for the blocks of
  // 4-byte indices.
  const std::string R = wide ? "uint" : I;
  const std::string T = str(g.threads), P = str(g.per_thread), B = str(g.block()),
                    S = str(g.subgroups), DPT = str(256 / g.threads);
  std::string s = header(spec, g) + operand_buffer(spec, 0, "readonly", K, "in0");
  if (ids && !positions) s += operand_buffer(spec, 1, "readonly", I, "in1");
  // The lanes holding digit d: eight ballots, one per bit of the digit. (On an H200 these
  // ranked a pass's keys in 560 us at 2^26 against 760 us for VK_NV_shader_subgroup_partitioned's
  // one-instruction subgroupPartitionNV.)
  const std::string match =
      "      uvec4 peers = subgroupBallot(valid);\n"
      "      for (uint bit = 0u; bit < 8u; ++bit) {\n"
      "        bool set = ((d >> bit) & 1u) != 0u;\n"
      "        uvec4 m = subgroupBallot(set);\n"
      "        peers &= set ? m : ~m;\n"
      "      }\n";
  // The offsets within each digit, then the digits' starts (sort_offsets_spec).
  const int sums = ids && !positions ? 2 : 1;
  s += operand_buffer(spec, sums, "readonly", "uint", "in2") +
       operand_buffer(spec, sums + 1, "readonly", "uint", "in3") +
       operand_buffer(spec, sums + 2, "writeonly", K, "out0");
  if (ids) s += operand_buffer(spec, sums + 3, "writeonly", I, "out1");
  s += digit_function(K, g);
  // A sort of values (sort_value_scatter_spec): its first pass keys the values as it reads
  // them, its last writes values back.
  const DType value = spec.inputs[0].dtype, written = spec.outputs[0].dtype;
  const bool encode = !is_unsigned_integer(value), decode = !is_unsigned_integer(written);
  if (encode || decode) s += value_coding(encode ? value : written);
  // Keyed after every load is issued, so that the loads overlap.
  const std::string keyed =
      encode ? "    for (uint r = 0u; r < " + P + "u; ++r) mk[r] = encode_value(mk[r]);\n" : "";
  const std::string store = decode ? "decode_value(k)" : "k";
  s += "shared " + K + " skey[" + B + "];\n";
  if (ids) s += "shared " + R + " sidx[" + B + "];\n";
  const std::string load_id = positions ? "i" : ids && !wide ? "in1.v[i]" : "0u";
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
         // The digit's start plus the partition's offset within the digit.
         "  for (uint d = t; d < 256u; d += " +
         T +
         "u) goff[d] = in3.v[d] + in2.v[d * parts + p];\n"
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
         "    " +
         R + " mi[" + P + "];\n    uint mr[" + P +
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
         "    }\n" +
         keyed + "    for (uint r = 0u; r < " + P +
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
         "    barrier();\n" +
         // Exclusive scan of the block's digit totals: thread t owns DPT consecutive digits.
         owned_exclusive_scan("dstart", DPT, T) +
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
         (wide  ? "      sidx[pos] = (sg * " + P + "u + r) * size + lane;\n"
          : ids ? "      sidx[pos] = mi[r];\n"
                : "") +
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
         "      " +
         I + " id = " +
         (wide  ? "in1.v[base + sidx[j]]"
          : ids ? "sidx[j]"
                : "0u") +
         ";\n"
         "      uint d = digit(k, uint(id));\n"
         "      uint pos = goff[d] + j - dstart[d];\n"
         "      if (keys) out0.v[pos] = " +
         store + ";\n" + (ids ? "      out1.v[pos] = id;\n" : "") +
         "    }\n"
         "    barrier();\n" +
         advance_offsets("256", T, B) +
         "  }\n"
         "}\n";
}

}  // namespace sort_pass_internal
}  // namespace vka
