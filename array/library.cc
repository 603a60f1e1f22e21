// Library kernel dispatch: the spec's pipeline from the kernel cache, whole-buffer bindings,
// the push constants of push_layout(), on every replica.
#include "array/library.h"

#include "device/errors.h"
#include "device/pipeline.h"
#include "device/stream.h"
#include "kernels/cache.h"
#include "kernels/scan.h"

namespace vka {

void dispatch_library(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                      const Buffers& bufs, int64_t n, uint64_t groups,
                      const std::vector<Scalar>& slots) {
  VKA_ASSERT(static_cast<int>(bufs.size()) == spec.num_bindings());
  if (n == 0) return;
  LaunchParams p;
  p.shape = {n};
  for (size_t i = 0; i < spec.inputs.size(); ++i) p.inputs.push_back(View::contiguous({n}));
  for (size_t i = 0; i < spec.outputs.size(); ++i) p.outputs.push_back(View::contiguous({n}));
  p.slots = slots;
  const std::vector<uint8_t> push = pack_push_constants(spec, push_layout(spec), p);
  std::vector<bool> writes(bufs.size(), false);
  for (size_t j = spec.inputs.size(); j < bufs.size(); ++j) writes[j] = true;
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    Replica& rep = ctx->replica(r);
    auto pipeline =
        KernelCache::instance().get(*rep.device, spec, [&spec] { return emit_library(spec); });
    std::vector<Binding> bindings;
    for (const auto& b : bufs) bindings.push_back({b->vk_buffer(r), 0, b->nbytes()});
    rep.stream->dispatch(*pipeline, bindings, writes, push.data(), static_cast<uint32_t>(groups));
  }
}

}  // namespace vka
