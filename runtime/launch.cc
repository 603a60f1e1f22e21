// Kernel launches: output buffers, binding windows, push constants, dispatch per replica.
#include "runtime/launch.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "base/debug.h"
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
// The longest tape a CPU device's flat strided kernels unroll (compile time grows with it), and
// how many copies of it they run (launch(): measured on lavapipe).
constexpr int kMaxCpuUnrollTape = 1024;
constexpr int kCpuUnroll = 6;

std::atomic<uint64_t> kernels_dispatched{0};

// A tape holding a function whose GLSL is a routine of tens of lines rather than an
// instruction (the ops Limits::max_transcendental weighs).
bool has_transcendental(const KernelSpec& spec) {
  for (const TapeEntry& e : spec.tape) {
    if (transcendental_weight(e) > 0) return true;
  }
  return false;
}

}  // namespace

uint64_t kernels_launched() { return kernels_dispatched.load(); }

namespace {

// The interface limits every device of a context meets.
struct InterfaceLimits {
  uint64_t max_range = UINT64_MAX;  // maxStorageBufferRange
  uint64_t align = 1;               // minStorageBufferOffsetAlignment
  uint32_t push_bytes = UINT32_MAX;
  uint32_t uniform_bytes = UINT32_MAX;
  uint32_t descriptors = UINT32_MAX;  // storage descriptors one dispatch may push
  bool addresses = true;              // buffer device addresses everywhere
};

InterfaceLimits interface_limits(const std::shared_ptr<Context>& ctx) {
  InterfaceLimits l;
  for (int d = 0; d < ctx->num_devices(); ++d) {
    const Caps& c = ctx->device(d).caps();
    l.max_range = std::min<uint64_t>(l.max_range, c.max_storage_buffer_range);
    l.align = std::max<uint64_t>(l.align, c.min_storage_buffer_offset_alignment);
    l.push_bytes = std::min(l.push_bytes, c.max_push_constants_size);
    l.uniform_bytes = std::min(l.uniform_bytes, c.max_uniform_buffer_range);
    l.descriptors =
        std::min({l.descriptors, c.max_per_stage_storage_buffers, c.max_push_descriptors});
    l.addresses = l.addresses && c.buffer_device_address && c.shader_int64;
  }
  return l;
}

// Inputs read through a gather, which may read anywhere in their arrays.
std::vector<bool> gathered_inputs(const KernelSpec& spec) {
  std::vector<bool> gathered(spec.inputs.size(), false);
  for (const TapeEntry& e : spec.tape) {
    if (e.op == Op::kGather) gathered[e.accessor] = true;
  }
  return gathered;
}

std::string bytes_text(uint64_t n) { return std::to_string(n) + " bytes"; }

// VKA_INTERFACE: interfaces every launch takes even where it need not, so tests run each path
// on any device: "addresses" (operands addressed), "uniform" or "storage" (the argument block
// in a buffer), comma-separated. Read once.
struct Forced {
  bool addresses = false;
  ArgBlock args = ArgBlock::kPush;
};
const Forced& forced_interface() {
  static const Forced f = [] {
    Forced r;
    const char* e = std::getenv("VKA_INTERFACE");
    const std::string v = e ? e : "";
    r.addresses = v.find("addresses") != std::string::npos;
    if (v.find("uniform") != std::string::npos) r.args = ArgBlock::kUniform;
    if (v.find("storage") != std::string::npos) r.args = ArgBlock::kStorage;
    return r;
  }();
  return f;
}

}  // namespace

void choose_interface(const std::shared_ptr<Context>& ctx, KernelSpec& spec,
                      const BindingBuffers& args) {
  VKA_ASSERT(static_cast<int>(args.size()) == spec.num_operand_bindings());
  const InterfaceLimits l = interface_limits(ctx);
  // Kernels declare their operands with operand_buffer (kernels/glsl/indexing.h), which
  // addresses them; the cooperative-matrix GEMMs bind theirs (uvec4 views of one binding).
  const bool generated = !(spec.kind == KernelKind::kGemm && spec.gemm.coop);
  bool big = false;
  for (const ReplicatedBuffer* b : args) big = big || b->nbytes() > l.max_range;
  // One descriptor more for an argument buffer, which a long block may need.
  const bool many = static_cast<uint32_t>(spec.num_operand_bindings()) + 1 > l.descriptors;
  const Forced& forced = forced_interface();
  if (generated && (big || many || forced.addresses) && l.addresses) {
    spec.addressing = Addressing::kAddresses;
  }
  const uint32_t block = push_layout(spec).size;
  spec.args = block <= l.push_bytes      ? ArgBlock::kPush
              : block <= l.uniform_bytes ? ArgBlock::kUniform
                                         : ArgBlock::kStorage;
  spec.args = std::max(spec.args, forced.args);
  if (debug_level() >= 1 &&
      (spec.args != ArgBlock::kPush || spec.addressing != Addressing::kBindings)) {
    std::string why;
    if (spec.addressing == Addressing::kAddresses) {
      why += big ? " operands addressed (an operand exceeds maxStorageBufferRange " +
                       std::to_string(l.max_range) + ")"
                 : " operands addressed (" + std::to_string(spec.num_operand_bindings()) +
                       " bindings and an argument buffer exceed " + std::to_string(l.descriptors) +
                       " descriptors)";
    }
    if (spec.args != ArgBlock::kPush) {
      why += std::string(" arguments in a ") +
             (spec.args == ArgBlock::kUniform ? "uniform" : "storage") + " buffer (" +
             std::to_string(block) + " bytes > maxPushConstantsSize " +
             std::to_string(l.push_bytes) + ")";
    }
    std::fprintf(stderr, "[vkarray] %s:%s\n", spec.name().c_str(), why.c_str());
  }
  const uint32_t needed = static_cast<uint32_t>(spec.num_bindings());
  if (needed > l.descriptors) {
    throw DeviceError("[" + spec.name() + "] needs " + std::to_string(needed) +
                      " descriptors in one dispatch; the device allows " +
                      std::to_string(l.descriptors) +
                      (l.addresses ? "" : " and has no buffer device addresses"));
  }
}

void dispatch_spec(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                   const BindingBuffers& args, const std::vector<Window>& win,
                   const LaunchParams& params, std::optional<int> only,
                   const std::function<std::array<uint64_t, 3>(const Caps&)>& groups) {
  VKA_ASSERT(static_cast<int>(args.size()) == spec.num_operand_bindings() &&
             win.size() == args.size());
  const PushLayout layout = push_layout(spec);
  std::vector<uint8_t> block = pack_push_constants(spec, layout, params);
  const bool addressed = spec.addressing == Addressing::kAddresses;
  const size_t n_in = static_cast<size_t>(spec.num_input_bindings());
  std::vector<bool> writes;
  for (size_t b = 0; b < args.size(); ++b) writes.push_back(b >= n_in);
  if (spec.args != ArgBlock::kPush) writes.push_back(false);
  std::vector<uint64_t> addresses(addressed ? args.size() : 0);
  std::vector<Binding> bindings;
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    if (only && *only != r) continue;
    Replica& rep = ctx->replica(r);
    // An input made on other replicas only is computed here first (ReplicatedBuffer validity).
    for (size_t b = 0; b < n_in; ++b) args[b]->ensure_valid(r);
    auto pipeline = KernelCache::instance().get(*rep.device, spec);
    bindings.clear();
    for (size_t b = 0; b < args.size(); ++b) {
      bindings.push_back({args[b]->vk_buffer(r), win[b].offset, win[b].range});
      bindings.back().addressed = addressed;
      if (addressed) addresses[b] = args[b]->device_address(r) + win[b].offset;
    }
    if (addressed) write_addresses(layout, addresses, block);
    if (spec.args != ArgBlock::kPush) {
      bindings.push_back(rep.stream->upload_arguments(block.data(), block.size()));
    }
    const std::array<uint64_t, 3> g = groups(rep.device->caps());
    rep.stream->dispatch(
        *pipeline, bindings, writes, spec.args == ArgBlock::kPush ? block.data() : nullptr,
        static_cast<uint32_t>(g[0]), static_cast<uint32_t>(g[1]), static_cast<uint32_t>(g[2]));
  }
  ++kernels_dispatched;
}

std::vector<Window> windows(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
                            const BindingBuffers& args, LaunchParams& params) {
  const InterfaceLimits l = interface_limits(ctx);
  const bool addressed = spec.addressing == Addressing::kAddresses;
  const std::vector<bool> gathered = gathered_inputs(spec);
  const size_t n_in = spec.inputs.size();
  const size_t n_in_b = static_cast<size_t>(spec.num_input_bindings());
  // The accessors (input or output index into the views) of each binding.
  std::vector<std::vector<size_t>> of(args.size());
  for (size_t a = 0; a < n_in; ++a)
    of[static_cast<size_t>(spec.input_binding(int(a)))].push_back(a);
  for (size_t j = 0; j < spec.outputs.size(); ++j) of[n_in_b + j].push_back(n_in + j);
  auto view = [&](size_t a) -> View& {
    return a < n_in ? params.inputs[a] : params.outputs[a - n_in];
  };
  auto dtype = [&](size_t a) {
    return a < n_in ? spec.inputs[a].dtype : spec.outputs[a - n_in].dtype;
  };
  std::vector<Window> out(args.size());
  for (size_t b = 0; b < args.size(); ++b) {
    const ReplicatedBuffer& buf = *args[b];
    const uint64_t whole = spec.vector_width > 1 ? buf.bindable_bytes() : buf.nbytes();
    out[b] = {0, whole};
    if (of[b].empty() || (!addressed && whole <= l.max_range)) continue;
    const uint64_t isz = itemsize(dtype(of[b][0]));
    // A window's size: what one descriptor may bind, or what 32-bit element indices reach.
    const uint64_t most = addressed ? (uint64_t{1} << 32) * isz - 64 : l.max_range;
    if (addressed && whole <= most) continue;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t a : of[b]) {
      auto [vlo, vhi] = view(a).extent();
      if (a < n_in && gathered[a]) {  // a gather may read anywhere in its array
        vlo = 0;
        vhi = static_cast<int64_t>(buf.nbytes() / isz);
      }
      lo = std::min(lo, vlo);
      hi = std::max(hi, vhi);
    }
    const uint64_t step = std::max<uint64_t>(l.align, 4 * isz);  // powers of two: the lcm
    const uint64_t start = static_cast<uint64_t>(lo) * isz / step * step;
    const uint64_t end =
        std::min<uint64_t>(whole, (static_cast<uint64_t>(hi) * isz + 31) / 32 * 32);
    if (end - start > most) {
      throw DeviceError("[" + spec.name() + "] the views of one operand span " +
                        bytes_text(end - start) + " of a " + bytes_text(buf.nbytes()) +
                        " buffer, more than a kernel reaches in one " +
                        (addressed ? "addressed operand (2^32 elements, " + bytes_text(most) + ")"
                                   : "binding (maxStorageBufferRange, " + bytes_text(most) + ")"));
    }
    out[b] = {start, end - start};
    for (size_t a : of[b]) view(a).offset -= static_cast<int64_t>(start / isz);
  }
  return out;
}

void launch(const std::shared_ptr<Context>& ctx, const ScheduledKernel& k,
            std::unordered_map<const Node*, std::shared_ptr<BufferRef>>& buffers,
            const std::unordered_map<const Node*, NodePtr>& dests, std::optional<int> only) {
  KernelSpec spec = k.spec;
  // One buffer per input binding (the first accessor of each names it), then the outputs'.
  BindingBuffers args(static_cast<size_t>(spec.num_input_bindings()), nullptr);
  for (size_t a = 0; a < k.inputs.size(); ++a) {
    const NodePtr& in = k.inputs[a];
    const ReplicatedBuffer*& slot = args[static_cast<size_t>(spec.input_binding(int(a)))];
    const ReplicatedBuffer* b =
        device_buffer(in->is_leaf() ? *in->buffer() : *buffers.at(in.get())).get();
    VKA_ASSERT(slot == nullptr || slot == b);
    slot = b;
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
  // Vectors read whole vectors: only where every binding can cover its last partial one.
  if (spec.vector_width > 1) {
    for (const ReplicatedBuffer* b : args) {
      if (!binds_whole_vectors(*b)) spec.vector_width = 1;
    }
  }
  // Independent copies of the tape interleave their dependency chains: worth their code size
  // on CPU devices (lavapipe), which have few threads to hide latency with, for tapes up to
  // kMaxCpuUnrollTape (the equation of state's 420-entry tape over 2^20 float64 elements: 204
  // ms one element at a time, 84 ms four; then, on 2 cores, medians of 7 calls: 2 copies 119
  // ms, 3 93, 4 77-81, 5 75, 6 66-69, 8 80-83, its first use 0.67 s with 4 and 0.78 s with
  // 6); on GPUs, where warps hide it, 4 for short strided tapes of rank >= 2 only.
  // Not where the tape holds transcendental functions: each copies a long routine (float64's
  // sine reduces its argument with Payne-Hanek) into the shader once per unrolled element, and
  // compile time grows faster than the code (lavapipe: a float64 sin chain of 4 took 57 s
  // unrolled).
  if (unrolls(spec) && !has_transcendental(spec)) {
    const bool cpu = ctx->device(0).caps().is_cpu;
    const int tape = static_cast<int>(spec.tape.size());
    const bool strided_nd = spec.rank >= 2 && any_strided(spec);
    spec.unroll = cpu && tape <= kMaxCpuUnrollTape       ? kCpuUnroll
                  : strided_nd && tape <= kMaxVectorTape ? 4
                                                         : 1;
  }
  if (k.params.count() == 0) return;
  choose_interface(ctx, spec, args);
  LaunchParams params = k.params;
  const std::vector<Window> win = windows(ctx, spec, args, params);
  const int64_t n = params.count();
  dispatch_spec(ctx, spec, args, win, params, only, [&](const Caps& caps) {
    const uint64_t max_x = caps.max_compute_work_group_count[0];
    if (uses_rows(spec)) {  // x along the last index, y along rows (kernels/glsl/indexing.h)
      const int64_t inner = params.shape.back(), rows = n / inner;
      // Each workgroup walks kWorkgroupSize / lanes rows at once (row_lanes: short rows).
      const uint32_t lanes = row_lanes(inner, row_unroll(spec), kWorkgroupSize);
      const int64_t per_group = int64_t{lanes} * row_unroll(spec);  // columns
      const int64_t packed = kWorkgroupSize / lanes;
      const uint64_t gx = std::min<uint64_t>((inner + per_group - 1) / per_group, max_x);
      // Enough workgroups to fill the device several times over; each walks several rows.
      const uint64_t gy = std::min<uint64_t>({static_cast<uint64_t>((rows + packed - 1) / packed),
                                              std::max<uint64_t>(1, kRowModeGroups / gx),
                                              caps.max_compute_work_group_count[1]});
      return std::array<uint64_t, 3>{gx, gy, 1};
    }
    // One invocation per vector of `vector_width` elements: more would only start
    // workgroups that find nothing to do.
    const int64_t per = spec.vector_width * flat_unroll(spec);
    const int64_t items = (n + per - 1) / per;
    return std::array<uint64_t, 3>{
        std::min<uint64_t>((items + kWorkgroupSize - 1) / kWorkgroupSize, max_x), 1, 1};
  });
}

}  // namespace vka
