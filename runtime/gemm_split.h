// Split-K GEMM launches (kernels/gen/gemm.h: GemmSplit): a product with few output tiles for the
// device and a long K runs as a partial pass over S ranges of K and a combining pass that sums
// them in fixed order (and runs the epilogue, if any).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "device/buffer.h"
#include "device/context.h"
#include "schedule/schedule.h"

namespace vka {

// The split-K count S a launch of `spec` (a kGemm spec) over batch x (M x K) @ (K x N) uses
// on `ctx`'s devices: the override (set_gemm_split, else $VKA_GEMM_SPLIT), else a heuristic.
// The heuristic splits on GPUs only, where the output tiles (times the batch) number fewer
// than half the compute units (Caps::sm_count where the device reports it, else
// kAssumedComputeUnits): S brings them to about 4 per unit, each K range at least
// kMinSplitK long, S at most kMaxSplits. Either way S is capped so that the S x batch x M x N
// partial products fit one binding (maxStorageBufferRange) and 2^31 elements. 1: no split.
int64_t gemm_splits(const std::shared_ptr<Context>& ctx, const KernelSpec& spec, int64_t m,
                    int64_t n, int64_t k, int64_t batch);
// Sets (or, with nullopt, clears) the process-wide split-K override: every GEMM launched
// (cooperative-matrix ones aside) splits K into that many ranges, summed in order by a second
// kernel (kernels/gen/gemm.h; 1: never split). It wins over $VKA_GEMM_SPLIT; without either, a
// heuristic splits products with few output tiles for the device.
// ValueError outside 1..65536.
void set_gemm_split(std::optional<int> splits);

inline constexpr uint32_t kAssumedComputeUnits = 32;
inline constexpr int64_t kMinSplitK = 256, kMaxSplits = 128;

// The K range length of each of `splits` ranges: ceil(K / S) rounded up to whole slices of bk
// (the last ranges may be shorter, or empty when K < S * bk).
int64_t gemm_split_range(int64_t k, int64_t splits, int bk);

// Runs scheduled GEMM kernel `k` (args: its inputs, then outputs) as the two passes of a
// split-K product with `splits` ranges (kernels/gen/gemm.h): 2 kernels.
void launch_gemm_split(const std::shared_ptr<Context>& ctx, const ScheduledKernel& k,
                       const std::vector<const ReplicatedBuffer*>& args, std::optional<int> only,
                       int64_t splits);

}  // namespace vka
