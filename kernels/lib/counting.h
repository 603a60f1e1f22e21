// bincount's counting kernel: occurrences of each value of a non-negative int64 array, counted
// with integer atomics (deterministic: integer adds commute), in a shared-memory histogram per
// workgroup when the bins fit there.
#pragma once

#include <string>

#include "ir/kernel_spec.h"

namespace vka {

inline constexpr int kBincountThreads = 256;
// Bins a workgroup counts in shared memory (16 KiB); more bins are counted in the output.
inline constexpr int kBincountSharedBins = 4096;

// bincount: in0 values (`values`: int64 or int32, contiguous, each in [0, c0)) → out0 counts
// (uint32, c0 of them, zeroed). Slot c0: the number of bins.
KernelSpec bincount_spec(DType values);

std::string emit_bincount(const KernelSpec& spec);

}  // namespace vka
