// Kernel launches: output buffers, binding windows, push constants, dispatch per replica.
#include "runtime/launch.h"

#include <algorithm>
#include <atomic>

#include "base/errors.h"
#include "device/pipeline.h"
#include "device/stream.h"
#include "kernels/cache.h"
#include "kernels/glsl/indexing.h"
#include "runtime/realize.h"

namespace vka {
namespace {

// Row mode's target workgroup count (measured on an H200: fewer, longer-lived workgroups beat
// one per row; see benchmarks/results/nvidia-h200/indexing.md).
constexpr uint64_t kRowModeGroups = 4096;

std::atomic<uint64_t> kernels_dispatched{0};

}  // namespace

uint64_t kernels_launched() { return kernels_dispatched.load(); }

namespace {

// The smallest maxStorageBufferRange and the largest minStorageBufferOffsetAlignment of the
// context's devices.
std::pair<uint64_t, uint64_t> binding_limits(const std::shared_ptr<Context>& ctx) {
  uint64_t max_range = UINT64_MAX, align = 1;
  for (int d = 0; d < ctx->num_devices(); ++d) {
    const Caps& c = ctx->device(d).caps();
    max_range = std::min<uint64_t>(max_range, c.max_storage_buffer_range);
    align = std::max<uint64_t>(align, c.min_storage_buffer_offset_alignment);
  }
  return {max_range, align};
}

// Inputs read through a gather, which may read anywhere in their arrays.
std::vector<bool> gathered_inputs(const KernelSpec& spec) {
  std::vector<bool> gathered(spec.inputs.size(), false);
  for (const TapeEntry& e : spec.tape) {
    if (e.op == Op::kGather) gathered[e.accessor] = true;
  }
  return gathered;
}

// A launch whose operand views span more than maxStorageBufferRange runs as several
// dispatches, each over a slab of the iteration's first axis narrow enough that every
// operand's part of it fits one binding window (windows() then binds those parts). Operands
// that no slab makes narrow enough (a gather's, or a single slice wider than the range) are
// left to windows(), which refuses them by name.
std::vector<LaunchParams> slabs(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                                const std::vector<const ReplicatedBuffer*>& args,
                                const LaunchParams& params) {
  if (params.shape.empty()) return {params};
  const auto [max_range, align] = binding_limits(ctx);
  const std::vector<bool> gathered = gathered_inputs(spec);
  const size_t n_in = spec.inputs.size();
  const int64_t n0 = params.shape[0];
  int64_t rows = n0;
  for (size_t a = 0; a < args.size(); ++a) {
    const uint64_t whole = spec.vector_width == 4 ? args[a]->bindable_bytes() : args[a]->nbytes();
    if (whole <= max_range || (a < n_in && gathered[a])) continue;
    View first = a < n_in ? params.inputs[a] : params.outputs[a - n_in];
    const uint64_t isz = itemsize(a < n_in ? spec.inputs[a].dtype : spec.outputs[a - n_in].dtype);
    const uint64_t stride = static_cast<uint64_t>(std::abs(first.strides[0])) * isz;
    first.shape[0] = 1;
    const auto [lo, hi] = first.extent();
    // Room for the window's start rounded down and its end rounded up to whole 4-vectors.
    const uint64_t used = static_cast<uint64_t>(hi - lo) * isz + 2 * std::max(align, 4 * isz) + 32;
    if (stride == 0 || used > max_range) continue;
    rows = std::min<int64_t>(rows, static_cast<int64_t>((max_range - used) / stride) + 1);
  }
  if (rows >= n0) return {params};
  if (rows >= 1024) rows = rows / 1024 * 1024;  // slabs keep the views' 4-vector alignment
  std::vector<LaunchParams> out;
  for (int64_t start = 0; start < n0; start += rows) {
    LaunchParams p = params;
    p.shape[0] = std::min(rows, n0 - start);
    for (auto* views : {&p.inputs, &p.outputs, &p.sources}) {
      for (View& v : *views) {
        v.offset += start * v.strides[0];
        v.shape[0] = p.shape[0];
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

void dispatch_spec(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                   const std::vector<const ReplicatedBuffer*>& args, const std::vector<Window>& win,
                   const LaunchParams& params, std::optional<int> only,
                   const std::function<std::array<uint64_t, 3>(const Caps&)>& groups) {
  const PushLayout layout = push_layout(spec);
  const std::vector<uint8_t> push = pack_push_constants(spec, layout, params);
  std::vector<bool> writes(args.size(), false);
  for (size_t j = spec.inputs.size(); j < args.size(); ++j) writes[j] = true;
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    if (only && *only != r) continue;
    Replica& rep = ctx->replica(r);
    // An input made on other replicas only is computed here first (ReplicatedBuffer validity).
    for (size_t a = 0; a < spec.inputs.size(); ++a) args[a]->ensure_valid(r);
    auto pipeline = KernelCache::instance().get(*rep.device, spec);
    std::vector<Binding> bindings;
    for (size_t a = 0; a < args.size(); ++a) {
      bindings.push_back({args[a]->vk_buffer(r), win[a].offset, win[a].range});
    }
    const std::array<uint64_t, 3> g = groups(rep.device->caps());
    rep.stream->dispatch(*pipeline, bindings, writes, push.data(), static_cast<uint32_t>(g[0]),
                         static_cast<uint32_t>(g[1]), static_cast<uint32_t>(g[2]));
  }
  ++kernels_dispatched;
}

std::vector<Window> windows(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                            const std::vector<const ReplicatedBuffer*>& args,
                            LaunchParams& params) {
  const auto [max_range, align] = binding_limits(ctx);
  const std::vector<bool> gathered = gathered_inputs(spec);
  const size_t n_in = spec.inputs.size();
  std::vector<Window> out(args.size());
  for (size_t a = 0; a < args.size(); ++a) {
    const ReplicatedBuffer& b = *args[a];
    const uint64_t whole = spec.vector_width == 4 ? b.bindable_bytes() : b.nbytes();
    out[a] = {0, whole};
    if (whole <= max_range) continue;
    View& v = a < n_in ? params.inputs[a] : params.outputs[a - n_in];
    const DType t = a < n_in ? spec.inputs[a].dtype : spec.outputs[a - n_in].dtype;
    const uint64_t isz = itemsize(t);
    auto [lo, hi] = v.extent();
    if (a < n_in && gathered[a]) {  // a gather may read anywhere in its array
      lo = 0;
      hi = static_cast<int64_t>(b.nbytes() / isz);
    }
    const uint64_t step = std::max<uint64_t>(align, 4 * isz);  // powers of two: the lcm
    const uint64_t start = static_cast<uint64_t>(lo) * isz / step * step;
    const uint64_t end =
        std::min<uint64_t>(whole, (static_cast<uint64_t>(hi) * isz + 31) / 32 * 32);
    if (end - start > max_range) {
      throw DeviceError("[" + spec.name() + "] an operand's view spans " +
                        std::to_string(end - start) + " bytes of a " + std::to_string(b.nbytes()) +
                        "-byte buffer, more than "
                        "maxStorageBufferRange (" +
                        std::to_string(max_range) +
                        "); kernels bind at most that much of an array through a gather or one slice of the "
                        "iteration's first axis");
    }
    out[a] = {start, end - start};
    v.offset -= static_cast<int64_t>(start / isz);
  }
  return out;
}

void launch(const std::shared_ptr<Context>& ctx, const ScheduledKernel& k,
            std::unordered_map<const Node*, std::shared_ptr<BufferRef>>& buffers,
            const std::unordered_map<const Node*, NodePtr>& dests, std::optional<int> only) {
  KernelSpec spec = k.spec;
  std::vector<const ReplicatedBuffer*> args;
  for (const NodePtr& in : k.inputs) {
    args.push_back(device_buffer(in->is_leaf() ? *in->buffer() : *buffers.at(in.get())).get());
  }
  const size_t n_in = args.size();
  for (const NodePtr& out : k.outputs) {
    auto d = dests.find(out.get());
    auto buf = d != dests.end() ? d->second->buffer()
                                : allocate_for(ctx, out->dtype(), out->shape(), name(out->op()));
    buffers[out.get()] = buf;
    args.push_back(device_buffer(*buf).get());
  }
  if (spec.kind == KernelKind::kGemm) {
    launch_gemm(ctx, k, args, only);
    return;
  }
  if (spec.kind == KernelKind::kReduce) {  // its passes bind their own partial states
    launch_reduction(ctx, k, {args.begin(), args.begin() + n_in},
                     device_buffer(*buffers.at(k.outputs[0].get())), only);
    return;
  }
  spec.vector_width = choose_vector_width(spec, k.params);
  // Vectors read whole 4-vectors: only where every binding can cover its last partial one.
  if (spec.vector_width == 4) {
    for (const ReplicatedBuffer* b : args) {
      if (!binds_whole_vectors(*b)) spec.vector_width = 1;
    }
  }
  if (k.params.count() == 0) return;
  for (LaunchParams& params : slabs(ctx, spec, args, k.params)) {
    const std::vector<Window> win = windows(ctx, spec, args, params);
    const int64_t n = params.count();
    dispatch_spec(ctx, spec, args, win, params, only, [&](const Caps& caps) {
      const uint64_t max_x = caps.max_compute_work_group_count[0];
      if (uses_rows(spec)) {  // x along the last index, y along rows (kernels/glsl/indexing.h)
        const int64_t inner = params.shape.back(), rows = n / inner;
        const int64_t per_group = int64_t{kWorkgroupSize} * row_unroll(spec);  // columns
        const uint64_t gx = std::min<uint64_t>((inner + per_group - 1) / per_group, max_x);
        // Enough workgroups to fill the device several times over; each walks several rows.
        const uint64_t gy = std::min<uint64_t>({static_cast<uint64_t>(rows),
                                                std::max<uint64_t>(1, kRowModeGroups / gx),
                                                caps.max_compute_work_group_count[1]});
        return std::array<uint64_t, 3>{gx, gy, 1};
      }
      // One invocation per vector of `vector_width` elements: more would only start
      // workgroups that find nothing to do.
      const int64_t items = (n + spec.vector_width - 1) / spec.vector_width;
      return std::array<uint64_t, 3>{
          std::min<uint64_t>((items + kWorkgroupSize - 1) / kWorkgroupSize, max_x), 1, 1};
    });
  }
}

}  // namespace vka
