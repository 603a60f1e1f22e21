// The evaluation pipeline, one stage a line in realize(); the helpers below keep it that way.
#include "array/realize.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <unordered_map>

#include "array/debug.h"
#include "device/errors.h"
#include "device/pipeline.h"
#include "device/stream.h"
#include "kernels/cache.h"
#include "kernels/elementwise.h"
#include "kernels/indexing.h"

namespace vka {
namespace {

constexpr uint32_t kWorkgroupSize = 256;
// Row mode's target workgroup count (measured on an H200: fewer, longer-lived workgroups beat
// one per row; see benchmarks/results/nvidia-h200/indexing.md).
constexpr uint64_t kRowModeGroups = 4096;

std::atomic<uint64_t> kernels_dispatched{0}, realizations{0};

// Nodes computed earlier, by node id, for as long as their buffers live: an array evaluated
// once is never recomputed because another lazy expression still refers to its old node.
class RealizedTable {
 public:
  std::shared_ptr<BufferRef> find(const Node& n) {
    if (auto pinned = n.pinned()) return pinned;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = table_.find(n.id());
    return it == table_.end() ? nullptr : it->second.lock();
  }
  void add(const NodePtr& node, const std::shared_ptr<BufferRef>& buf) {
    const Node& n = *node;
    n.mark_realized();
    buf->add_producer(node);
    std::lock_guard<std::mutex> lock(mu_);
    if (++inserts_ % 4096 == 0) {  // purge entries whose buffers are gone
      for (auto it = table_.begin(); it != table_.end();) {
        it = it->second.expired() ? table_.erase(it) : std::next(it);
      }
    }
    table_[n.id()] = buf;
  }

 private:
  std::mutex mu_;
  std::unordered_map<uint64_t, std::weak_ptr<BufferRef>> table_;
  uint64_t inserts_ = 0;
};

// VKA_DEBUG=2: how long each stage of one realize() took, on one line.
class StageTimer {
 public:
  StageTimer() : on_(debug_level() >= 2), last_(std::chrono::steady_clock::now()) {}
  void mark(const char* stage) {
    if (!on_) return;
    auto now = std::chrono::steady_clock::now();
    line_ +=
        std::string(" ") + stage + " " +
        std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(now - last_).count()) +
        " us";
    last_ = now;
  }
  void report(size_t kernels) const {
    if (on_) std::fprintf(stderr, "[vkarray] realize %zu kernel(s):%s\n", kernels, line_.c_str());
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point last_;
  std::string line_;
};

RealizedTable& realized() {
  static RealizedTable t;
  return t;
}

NodePtr leaf_for(const Node& n, const std::shared_ptr<BufferRef>& buf) {
  return default_graph().buffer(buf, n.dtype(), View::contiguous(n.shape()));
}

}  // namespace

bool has_value(const Node& n) { return n.was_realized() && realized().find(n) != nullptr; }

std::vector<NodePtr> substitute_realized(const std::vector<NodePtr>& roots) {
  const std::vector<NodePtr> order = topological_order(roots);
  bool any = false;
  for (const NodePtr& n : order) any = any || (n->was_realized() && !n->is_leaf());
  if (!any) return roots;  // the common case: nothing under the roots was computed before
  std::unordered_map<const Node*, NodePtr> done;
  for (const NodePtr& n : order) {
    NodePtr out = n;
    if (!n->is_leaf() && !n->is_constant()) {
      if (auto buf = n->was_realized() ? realized().find(*n) : nullptr) {
        out = leaf_for(*n, buf);
      } else {
        std::vector<NodePtr> inputs;
        bool changed = false;
        for (const NodePtr& in : n->inputs()) {
          inputs.push_back(done.at(in.get()));
          changed = changed || inputs.back() != in;
        }
        if (changed) out = default_graph().with_inputs(*n, std::move(inputs));
      }
    }
    done[n.get()] = out;
  }
  std::vector<NodePtr> result;
  for (const NodePtr& r : roots) result.push_back(done.at(r.get()));
  return result;
}

namespace {

// The part of a buffer one operand binds: [offset, offset + range) in bytes.
struct Window {
  uint64_t offset = 0;
  uint64_t range = 0;
};

// Windows for the operands of a launch. An operand's buffer is bound whole (rounded up to
// whole 4-vectors where the allocation allows, for vectorized kernels), unless it exceeds
// maxStorageBufferRange: then only the elements its view touches are bound, from an offset
// aligned for the device and for 4-vectors, and the view's offset in `params` moves by the
// same amount. A view spanning more than the range is refused (DeviceError naming both).
std::vector<Window> windows(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                            const std::vector<const ReplicatedBuffer*>& args,
                            LaunchParams& params) {
  uint64_t max_range = UINT64_MAX, align = 1;
  for (int d = 0; d < ctx->num_devices(); ++d) {
    const Caps& c = ctx->device(d).caps();
    max_range = std::min<uint64_t>(max_range, c.max_storage_buffer_range);
    align = std::max<uint64_t>(align, c.min_storage_buffer_offset_alignment);
  }
  std::vector<bool> gathered(spec.inputs.size(), false);
  for (const TapeEntry& e : spec.tape) {
    if (e.op == Op::kGather) gathered[e.accessor] = true;
  }
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
    const uint64_t end = std::min<uint64_t>(
        whole, (static_cast<uint64_t>(hi) * isz + 31) / 32 * 32);
    if (end - start > max_range) {
      throw DeviceError("[" + spec.name() + "] an operand's view spans " +
                        std::to_string(end - start) + " bytes of a " +
                        std::to_string(b.nbytes()) + "-byte buffer, more than "
                        "maxStorageBufferRange (" + std::to_string(max_range) +
                        "); fused kernels over such views are not supported yet");
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
  spec.vector_width = choose_vector_width(spec, k.params);
  std::vector<const ReplicatedBuffer*> args;
  for (const NodePtr& in : k.inputs) {
    args.push_back(device_buffer(in->is_leaf() ? *in->buffer() : *buffers.at(in.get())).get());
  }
  for (const NodePtr& out : k.outputs) {
    auto d = dests.find(out.get());
    auto buf = d != dests.end() ? d->second->buffer() : allocate_for(ctx, out->dtype(), out->shape());
    buffers[out.get()] = buf;
    args.push_back(device_buffer(*buf).get());
  }
  // Vectors read whole 4-vectors: only where every binding can cover its last partial one.
  if (spec.vector_width == 4) {
    for (const ReplicatedBuffer* b : args) {
      if (b->bindable_bytes() != (b->nbytes() + 31) / 32 * 32) spec.vector_width = 1;
    }
  }
  const int64_t n = k.params.count();
  if (n == 0) return;
  LaunchParams params = k.params;
  const std::vector<Window> win = windows(ctx, spec, args, params);
  const PushLayout layout = push_layout(spec);
  const std::vector<uint8_t> push = pack_push_constants(spec, layout, params);
  std::vector<bool> writes(args.size(), false);
  for (size_t j = k.inputs.size(); j < args.size(); ++j) writes[j] = true;
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    if (only && *only != r) continue;
    Replica& rep = ctx->replica(r);
    const Caps& caps = rep.device->caps();
    auto pipeline = KernelCache::instance().get(*rep.device, spec);
    std::vector<Binding> bindings;
    for (size_t a = 0; a < args.size(); ++a) {
      bindings.push_back({args[a]->vk_buffer(r), win[a].offset, win[a].range});
    }
    if (uses_rows(spec)) {  // x along the last index, y along rows (kernels/indexing.h)
      const int64_t inner = k.params.shape.back(), rows = n / inner;
      const int64_t per_group = int64_t{kWorkgroupSize} * row_unroll(spec);  // columns
      const uint64_t gx = std::min<uint64_t>((inner + per_group - 1) / per_group,
                                             caps.max_compute_work_group_count[0]);
      // Enough workgroups to fill the device several times over; each walks several rows.
      const uint64_t gy = std::min<uint64_t>(
          {static_cast<uint64_t>(rows), std::max<uint64_t>(1, kRowModeGroups / gx),
           caps.max_compute_work_group_count[1]});
      rep.stream->dispatch(*pipeline, bindings, writes, push.data(), static_cast<uint32_t>(gx),
                           static_cast<uint32_t>(gy));
      continue;
    }
    // One invocation per vector of `vector_width` elements: more would only start workgroups
    // that find nothing to do.
    const int64_t items = (n + spec.vector_width - 1) / spec.vector_width;
    const uint64_t groups = std::min<uint64_t>((items + kWorkgroupSize - 1) / kWorkgroupSize,
                                               caps.max_compute_work_group_count[0]);
    rep.stream->dispatch(*pipeline, bindings, writes, push.data(), static_cast<uint32_t>(groups));
  }
  ++kernels_dispatched;
}

}  // namespace

std::shared_ptr<ReplicatedBuffer> device_buffer(const BufferRef& ref) {
  return std::static_pointer_cast<ReplicatedBuffer>(ref.payload());
}

std::shared_ptr<BufferRef> allocate_for(const std::shared_ptr<Context>& context, DType dtype,
                                        const Shape& shape) {
  auto buf = std::make_shared<ReplicatedBuffer>(context, size(shape) * itemsize(dtype));
  return std::make_shared<BufferRef>(std::move(buf));
}

Limits limits_of(const Caps& caps) {
  Limits l;
  l.max_storage_buffers =
      static_cast<int>(std::min<uint32_t>(caps.max_per_stage_storage_buffers, 32));
  l.max_push_constant_bytes = static_cast<int>(caps.max_push_constants_size);
  return l;
}

std::vector<NodePtr> realize(const std::shared_ptr<Context>& context,
                             const std::vector<NodePtr>& targets, std::optional<int> replica,
                             const std::vector<NodePtr>& destinations) {
  VKA_ASSERT(destinations.empty() || destinations.size() == targets.size());
  if (replica) context->replica(*replica);  // IndexError before any work
  ++realizations;
  StageTimer timer;
  std::vector<NodePtr> roots = substitute_realized(targets);
  // A destination is always written by a kernel, even when its value is a buffer already.
  std::unordered_map<const Node*, NodePtr> dests;
  for (size_t i = 0; i < destinations.size(); ++i) {
    if (!destinations[i]) continue;
    const NodePtr& d = destinations[i];
    VKA_ASSERT(d->is_leaf() && d->shape() == roots[i]->shape() && d->dtype() == roots[i]->dtype());
    if (roots[i]->is_leaf()) roots[i] = default_graph().convert(roots[i], d->dtype(), d->shape());
    VKA_ASSERT(!dests.count(roots[i].get()));
    dests[roots[i].get()] = d;
  }
  timer.mark("substitute");
  Schedule plan = schedule(roots, limits_of(context->device(0).caps()), dests);
  timer.mark("schedule");
  debug_schedule(plan);
  std::unordered_map<const Node*, std::shared_ptr<BufferRef>> buffers;
  for (const ScheduledKernel& k : plan.kernels) launch(context, k, buffers, dests, replica);
  timer.mark("launch");
  timer.report(plan.kernels.size());
  std::vector<NodePtr> leaves;
  for (size_t i = 0; i < roots.size(); ++i) {
    const NodePtr& r = roots[i];
    auto d = dests.find(r.get());
    if (d != dests.end()) {
      leaves.push_back(d->second);
      continue;
    }
    if (r->is_leaf()) {
      leaves.push_back(r);
      continue;
    }
    const std::shared_ptr<BufferRef>& buf = buffers.at(r.get());
    realized().add(targets[i], buf);
    realized().add(r, buf);
    leaves.push_back(leaf_for(*r, buf));
  }
  return leaves;
}

RealizeStats realize_stats() { return {kernels_dispatched.load(), realizations.load()}; }

}  // namespace vka
