// Launching scheduled kernels: buffers for their outputs, the windows of large buffers they
// bind, their push constants, one dispatch per replica. realize() calls launch() per kernel.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "device/buffer.h"
#include "device/context.h"
#include "schedule/schedule.h"

namespace vka {

inline constexpr uint32_t kWorkgroupSize = 256;

// Runs scheduled kernel `k`: allocates its outputs into `buffers` (or writes the leaves
// `dests` names), reads its inputs from leaves or from `buffers`; every replica or `only`.
void launch(const std::shared_ptr<Context>& ctx, const ScheduledKernel& k,
            std::unordered_map<const Node*, std::shared_ptr<BufferRef>>& buffers,
            const std::unordered_map<const Node*, NodePtr>& dests, std::optional<int> only);

// Kernels dispatched so far (counted once per launch, not per replica; a reduction in two
// passes counts two).
uint64_t kernels_launched();

// True when a binding of `b` can cover its last partial 4-vector (vectorized kernels read
// whole vectors).
inline bool binds_whole_vectors(const ReplicatedBuffer& b) {
  return b.bindable_bytes() == (b.nbytes() + 31) / 32 * 32;
}

// The part of a buffer one operand binds: [offset, offset + range) in bytes.
struct Window {
  uint64_t offset = 0;
  uint64_t range = 0;
};

// Windows for the operands of a launch. An operand's buffer is bound whole (rounded up to
// whole 4-vectors where the allocation allows, for vectorized kernels), unless it exceeds
// maxStorageBufferRange: then only the elements its view touches are bound, from an offset
// aligned for the device and for 4-vectors, and the view's offset in `params` moves by the
// same amount. A view spanning more than the range is refused (DeviceError naming both):
// launch() first splits such launches into slabs of the first axis that fit.
std::vector<Window> windows(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                            const std::vector<const ReplicatedBuffer*>& args, LaunchParams& params);

// Dispatches `spec` over `args` (inputs, then outputs) bound through `win`, with `params`'
// push constants, on every replica or `only`; `groups` gives the workgroup counts (x, y, z)
// for a replica's device.
void dispatch_spec(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                   const std::vector<const ReplicatedBuffer*>& args, const std::vector<Window>& win,
                   const LaunchParams& params, std::optional<int> only,
                   const std::function<std::array<uint64_t, 3>(const Caps&)>& groups);

// A reduction's kernel (kernels/gen/reduce.h), in one pass or two (runtime/reduce_launch.cc).
void launch_reduction(const std::shared_ptr<Context>& ctx, const ScheduledKernel& k,
                      const std::vector<const ReplicatedBuffer*>& inputs,
                      const std::shared_ptr<ReplicatedBuffer>& output, std::optional<int> only);

// A GEMM kernel, with or without an epilogue (kernels/gen/gemm.h; array/matmul.cc): every
// binding whole, workgroups over (N tiles, M tiles, batch).
void launch_gemm(const std::shared_ptr<Context>& ctx, const ScheduledKernel& k,
                 const std::vector<const ReplicatedBuffer*>& args, std::optional<int> only);

}  // namespace vka
