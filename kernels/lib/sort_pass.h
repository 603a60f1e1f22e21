// One pass of the LSD radix sort (array/sort_radix.cc): a block digit histogram and a stable
// scatter, in two forms. The portable form takes 4-bit digits, 256 x 4 keys a workgroup, and
// ranks with per-thread counters in shared memory. Where compute shaders have subgroup ballots,
// the 8-bit form halves the passes: each subgroup ranks its keys by matching digits with eight
// ballots, and a workgroup stages its block in shared memory sorted by digit, so the scatter
// writes runs of consecutive addresses.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/glsl/emit_options.h"

namespace vka {

// Partitions of a pass: enough workgroups to fill a large GPU several times over, few enough
// that the counts (digits x parts) and their prefix sums are small next to the keys. On an
// H200 at 2^26 float32 keys, 8192 ran a pass moving indices 16% faster than 2048, and one of
// keys alone 7% faster.
inline constexpr int kSortParts = 8192;

struct SortGeometry {
  int threads = 256;    // invocations a workgroup
  int per_thread = 4;   // keys an invocation ranks
  int digit_bits = 4;   // bits a pass sorts
  int subgroups = 0;    // 8-bit form: subgroups a workgroup (its per-subgroup histograms)
  int block() const { return threads * per_thread; }
  int digits() const { return 1 << digit_bits; }
};

// The portable 4-bit form's geometry.
SortGeometry sort_geometry_portable();
// The 8-bit form's geometry for keys of `key` moving `payload_bytes` with each (0: keys alone,
// 4: uint32 indices, 8: 64-bit values) on a device, or the portable one where the device has no
// subgroup ballots or too little shared memory. Every replica of a sort must get the same
// answer (the tile size fixes the partitions).
SortGeometry sort_geometry(DType key, const EmitOptions& device, int payload_bytes);

// A pass runs over `parts` partitions of the keys, one workgroup each: partition p is a
// contiguous range of tiles (tile: block() keys), so each workgroup ranks its tiles in order,
// carrying its digits' next positions from tile to tile, and the counts are digits x parts.
// Slots: c0 the digit's shift, c1 the row length (0: the digit is the key's; > 0: the pass
// sorts by row, the digit is (index / c1)'s), c2 the number of partitions (the workgroups of
// the dispatch), and in the 8-bit form c3 = the tile size (the form is in the spec: a 4-bit spec
// has three slots).
// histogram: in0 keys[, in1 indices (row passes)] → out0 counts (uint32, digit-major:
// d * parts + p).
KernelSpec sort_histogram_spec(DType key, bool rows, int digit_bits);
// scatter: in0 keys[, in1 payload], in2 exclusive sums of the counts (8-bit form: offsets
// within each digit, and then the digits' starts; sort_offsets_spec) → out0 keys[, out1
// payload], each element at its digit's offset for its block plus its stable rank in the block
// (keys are not moved in row passes: nothing reads them afterwards). The payload, as in
// sort_geometry: uint32 indices (4 bytes), 64-bit values (8; the 8-bit form, no row passes: a
// sort by key of values such as bincount's weights; the tile stages each key's place, and the
// values are read from in1 as they are written), or nothing (0; the 8-bit form: a sort of
// values moves keys alone).
KernelSpec sort_scatter_spec(DType key, int payload_bytes, int digit_bits);

// The passes of a sort of a real t's values where t is as wide as its keys (float32, float64,
// int32, uint32, int64, uint64): the first reads the values and the last writes them back, so
// no pass of their own turns values into keys and back. The 8-bit form's slots.
// histogram: in0 values → out0 counts, out1 (uint32 x 3, zeroed): words 0 and 1 the key bits
// that vary (the OR of key ^ key[0], low and high), word 2 set when some value's bits its key
// loses (-0.0, a NaN other than the quiet NaN: only a stable permutation puts those in place).
KernelSpec sort_value_histogram_spec(DType t);
// scatter: in0 values (`reads_values`: keyed as they are read) or keys, in1 exclusive sums of
// the counts → out0 values (`writes_values`: decoded as they are written) or keys. Neither:
// sort_scatter_spec's keys alone. What the operands hold is in their dtypes, so each form is
// a kernel of its own, with no branch for the others.
KernelSpec sort_value_scatter_spec(DType t, bool reads_values, bool writes_values);
// The first pass of an argsort of t's values (as above): in0 values (keyed as they are read),
// in1 exclusive sums of the counts → out0 keys, out1 uint32 indices, each element's position
// (so no pass of their own makes the keys and the first indices).
KernelSpec sort_position_scatter_spec(DType t);
// Whether t's values sort through the specs above.
bool sorts_as_values(DType t);

// The 8-bit form's offsets from a histogram's counts, in two kernels (instead of a prefix sum
// over every count: five at 8192 partitions). `starts` false: one workgroup a digit, in0
// counts (digit-major, n = the partitions) → out0 each partition's exclusive offset within its
// digit, out1 (uint32 x 256) the digits' totals; true: one workgroup, in0 the totals → out0 the
// digits' starts (their exclusive sums). The 8-bit scatters read both outputs (in2, then in3).
KernelSpec sort_offsets_spec(bool starts);

// GLSL of the specs above for a device.
std::string emit_sort_pass(const KernelSpec& spec, const EmitOptions& device);

}  // namespace vka
