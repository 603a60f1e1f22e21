// Fixed library kernels for prefix sums and compaction: the device side of nonzero and of
// boolean-mask reads (array/nonzero.h). An exclusive prefix sum of n flags runs as
// scan_blocks over blocks of kScanBlock elements (each block scanned in shared memory, its
// total written out), the same on the block totals until one block remains, then scan_add
// adding each block's offset back down the levels. compact writes the index of every set flag
// at its prefix-sum position.
#pragma once

#include <string>
#include <vector>

#include "ir/kernel_spec.h"

namespace vka {

inline constexpr int kScanThreads = 256;
inline constexpr int kScanPerThread = 4;
inline constexpr int kScanBlock = kScanThreads * kScanPerThread;  // elements per workgroup

// A library kernel's spec: rank 1, contiguous accessors of these dtypes, `int64_slots` int64
// scalar slots (push constants n, one offset per accessor, then the slots).
KernelSpec library_spec(KernelKind kind, const std::vector<DType>& in,
                        const std::vector<DType>& out, int int64_slots = 0);

// Specs (rank 1, contiguous accessors; push constants n and one offset per accessor).
// scan_blocks: in0 flags (bool) or counts (uint32) → out0 exclusive sums within each block
// (uint32), out1 block totals (uint32).
KernelSpec scan_blocks_spec(DType input);
// scan_add: in0 scanned block totals (uint32) → adds in0[i / kScanBlock] to out0[i] (uint32,
// bound as an output: read and written in place).
KernelSpec scan_add_spec();
// compact: in0 flags (bool), in1 exclusive sums (uint32) → out0[sums[i]] = i (int64) for every
// set flag.
KernelSpec compact_spec();

// Scatter with numpy's "the last assignment wins" for repeated addresses, in two passes over
// n (address, value) pairs. scatter_claim: in0 element addresses (int64) → out0 claims
// (int32, zeroed, one per element of the written range starting at slot c0 = its first
// address): atomicMax(claims[address - c0], i + 1). scatter_write: in0 addresses, in1 values
// (T), in2 claims → out0 (T, the array's buffer): out0[address] = value where pair i won.
KernelSpec scatter_claim_spec();
KernelSpec scatter_write_spec(DType t);

// searchsorted: in0 a sorted 1-d array (T), in1 values (T) → out0 (int64) insertion points,
// binary search in numpy's order (NaN after every number); slot c0 (int64): 0 for side='left'
// (first i with !(a[i] < v)), 1 for 'right' (first i with v < a[i]); slot c1: len(a).
KernelSpec searchsorted_spec(DType t);

// GLSL statements (each line prefixed by `indent`) turning the shared `uint part[threads]`
// into its inclusive prefix sums, invocation t owning part[t] (Hillis-Steele; the caller
// puts a barrier between its writes to part and these lines).
std::string workgroup_inclusive_scan(const std::string& threads, const std::string& indent);

// GLSL of the specs above (scan_blocks, scan_add, compact, scatter_claim, scatter_write,
// searchsorted).
std::string emit_scan(const KernelSpec& spec);

}  // namespace vka
