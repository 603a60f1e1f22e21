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

// The buffers of a launch, one per operand binding of its spec: the input bindings'
// (ir/kernel_spec.h: input_binding), then the outputs'.
using BindingBuffers = std::vector<const ReplicatedBuffer*>;

// Chooses how a launch of `spec` over `args` reaches its operands and its argument block on
// `ctx`'s devices (ir/kernel_spec.h: Addressing, ArgBlock). Generated kernels (elementwise,
// reductions, matrix products but the cooperative-matrix ones) take buffer device addresses when
// their bindings and argument block would exceed the descriptors a dispatch may push
// (maxPerStageDescriptorStorageBuffers, maxPushDescriptors), or an operand exceeds
// maxStorageBufferRange. The block travels as push constants while it fits maxPushConstantsSize,
// else in a uniform buffer (up to maxUniformBufferRange), else in a storage buffer. DeviceError,
// naming the numbers, when a device can do neither.
void choose_interface(const std::shared_ptr<Context>& ctx, KernelSpec& spec,
                      const BindingBuffers& args);

// The part of a buffer one binding covers: [offset, offset + range) in bytes.
struct Window {
  uint64_t offset = 0;
  uint64_t range = 0;
};

// Windows for the bindings of a launch. A binding covers its buffer whole (rounded up to whole
// 4-vectors where the allocation allows, for vectorized kernels) unless the buffer exceeds
// maxStorageBufferRange, or the operands are addressed: then only the elements its views touch
// (every view of a shared binding), from an offset aligned for the device and for 4-vectors,
// and those views' offsets in `params` move by the same amount, so element indices stay within
// 32 bits. A binding's views spanning more than a window may hold (maxStorageBufferRange bytes,
// or 2^32 elements when addressed) are refused, DeviceError naming both.
std::vector<Window> windows(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                            const BindingBuffers& args, LaunchParams& params);

// Dispatches `spec` over `args` through `win`, with `params`' argument block, on every replica
// or `only`; `groups` gives the workgroup counts (x, y, z) for a replica's device.
void dispatch_spec(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                   const BindingBuffers& args, const std::vector<Window>& win,
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
