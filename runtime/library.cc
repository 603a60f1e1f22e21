// Library kernel dispatch through the one dispatch path (runtime/launch.h), whole buffers.
#include "runtime/library.h"

#include <algorithm>

#include "base/errors.h"
#include "device/pipeline.h"
#include "device/stream.h"
#include "kernels/cache.h"
#include "kernels/lib/scan.h"
#include "runtime/launch.h"
#include "runtime/realize.h"

namespace vka {

namespace {

// Library kernels that loop over their elements (or blocks) by the grid's size: their launch
// may take fewer workgroups than items, up to the device's maxComputeWorkGroupCount.
bool grid_stride(KernelKind k) {
  return k == KernelKind::kScanBlocks || k == KernelKind::kScanAdd || k == KernelKind::kCompact ||
         k == KernelKind::kScatterClaim || k == KernelKind::kScatterWrite ||
         k == KernelKind::kSearchSorted;
}

}  // namespace

void dispatch_library(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                      const Buffers& bufs, int64_t n, uint64_t groups,
                      const std::vector<Scalar>& slots) {
  VKA_ASSERT(static_cast<int>(bufs.size()) == spec.num_operand_bindings());
  if (n == 0) return;
  LaunchParams p;
  p.shape = {n};
  for (size_t i = 0; i < spec.inputs.size(); ++i) p.inputs.push_back(View::contiguous({n}));
  for (size_t i = 0; i < spec.outputs.size(); ++i) p.outputs.push_back(View::contiguous({n}));
  p.slots = slots;
  BindingBuffers args;
  for (const auto& b : bufs) args.push_back(b.get());
  KernelSpec s = spec;
  choose_interface(ctx, s, args);
  std::vector<Window> whole;  // library kernels index their buffers from the start
  for (const ReplicatedBuffer* b : args) whole.push_back({0, b->nbytes()});
  dispatch_spec(ctx, s, args, whole, p, std::nullopt, [&](const Caps& caps) {
    const uint64_t most = caps.max_compute_work_group_count[0];
    VKA_ASSERT(groups <= most || grid_stride(s.kind));
    return std::array<uint64_t, 3>{std::min(groups, most), 1, 1};
  });
}

std::shared_ptr<ReplicatedBuffer> scratch_buffer(const std::shared_ptr<Context>& ctx, DType t,
                                                 int64_t n) {
  return device_buffer(*allocate_for(ctx, t, {std::max<int64_t>(n, 1)}));
}

void zero_fill(const std::shared_ptr<Context>& ctx, const ReplicatedBuffer& buf) {
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    ctx->replica(r).stream->fill(buf.vk_buffer(r), 0, buf.nbytes(), 0);
  }
}

std::shared_ptr<ReplicatedBuffer> exclusive_sums(const std::shared_ptr<Context>& ctx,
                                                 const std::shared_ptr<ReplicatedBuffer>& input,
                                                 DType input_dtype, int64_t n,
                                                 std::shared_ptr<ReplicatedBuffer>* total) {
  auto make = [&ctx](int64_t count) { return scratch_buffer(ctx, DType::kUInt32, count); };
  // Each level's block totals are the next level's input, until one block remains.
  struct Level {
    std::shared_ptr<ReplicatedBuffer> sums;
    int64_t n;
  };
  std::vector<Level> levels;
  std::shared_ptr<ReplicatedBuffer> in = input;
  DType in_type = input_dtype;
  for (int64_t m = n;;) {
    const int64_t nb = (m + kScanBlock - 1) / kScanBlock;
    auto sums = make(m), totals = make(nb);
    dispatch_library(ctx, scan_blocks_spec(in_type), {in, sums, totals}, m,
                     static_cast<uint64_t>(nb));
    levels.push_back({sums, m});
    if (nb <= 1) {
      if (total) *total = totals;
      break;
    }
    in = totals;
    in_type = DType::kUInt32;
    m = nb;
  }
  for (size_t l = levels.size() - 1; l-- > 0;) {
    dispatch_library(ctx, scan_add_spec(), {levels[l + 1].sums, levels[l].sums}, levels[l].n,
                     (levels[l].n + kScanThreads - 1) / kScanThreads);
  }
  return levels[0].sums;
}

}  // namespace vka
