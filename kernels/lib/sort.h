// Fixed library kernels of the LSD radix sort (array/sort_radix.cc) and of bincount's
// deterministic weighted sums. A sort runs over (key, index) pairs, or over keys alone when
// only the sorted values are wanted: sort_keys turns values into order-preserving unsigned
// keys and finds the key bits that differ between elements (passes over constant
// digits are skipped), and each pass is a block digit histogram, the offsets of each (digit,
// block) (8-bit passes: sort_offsets_spec; 4-bit ones: a prefix sum, kernels/lib/scan.h) and a
// stable scatter (kernels/lib/sort_pass.h).
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/glsl/emit_options.h"

namespace vka {

inline constexpr int kSortThreads = 256;  // the key and segment kernels' workgroup

// The key dtype of a data dtype: uint64 for 8-byte components (int64, uint64, float64,
// complex128), uint32 otherwise.
DType sort_key_dtype(DType data);

// sort_keys: in0 data (t, contiguous) → out0 keys, out1 indices (uint32, read and written),
// out2 (uint32 x 2 or more, zeroed): the key bits that vary, the OR of key ^ key[0] (low and
// high words).
// Slot c0: the part of each value the key orders (0: the value, or a complex real part; 1: a
// complex imaginary part; 2: a complex's NaN class, numpy's R+Rj < R+nanj < nan+Rj < nan+nanj).
// Slot c1: 1 for the first phase (indices start as 0..n-1), 0 to read data through them.
// Keys: floats flip their sign bit (negatives: every bit), -0.0 becomes 0.0 and every NaN the
// largest key, so unsigned key order is numpy's sort order; signed integers flip the sign bit.
KernelSpec sort_keys_spec(DType t);
// sort_keys for a sort of values (no slots): in0 data (t real, contiguous) → out0 keys as
// above, out1 (uint32 x 3, zeroed): words 0 and 1 the bits that vary as above, word 2 set when some value is -0.0 or a NaN other than the
// quiet NaN: values whose bits the keys lose, which only a stable permutation puts in place.
KernelSpec sort_value_keys_spec(DType t);
// segment_sum: in0 values (float64), in1 bounds (int64, m + 1) → out0[k] (float64) = the sum
// of values[bounds[k] .. bounds[k + 1]) in order, from 0.0 (numpy's bincount order when the
// values are sorted stably by bin).
KernelSpec segment_sum_spec();

// GLSL for the specs above, and the pass kernels' (sort_pass.h) for the device.
std::string emit_sort(const KernelSpec& spec, const EmitOptions& options);

}  // namespace vka
