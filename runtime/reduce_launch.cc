// Reduction launches: the strategy and the split of each output's elements, chosen from the
// layout and the device; one pass, or a partial pass and a combining pass.
#include <algorithm>
#include <cstdlib>

#include "base/errors.h"
#include "kernels/gen/reduce.h"
#include "runtime/launch.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka {
namespace {

// Invocations that keep a device busy: a GPU wants hundreds of thousands in flight; a CPU
// driver runs workgroups on a few threads, and splitting only adds passes there.
constexpr int64_t kGpuParallelism = int64_t{1} << 18;
constexpr int64_t kCpuParallelism = int64_t{1} << 12;
// Elements of one output a serial invocation / a cooperative workgroup reduces at least
// before splitting them pays for a second pass.
constexpr int64_t kMinSerialSlice = 64;
constexpr int64_t kMinCooperativeSlice = int64_t{kWorkgroupSize} * 16;
// Reduced extents below this go serial: a workgroup per output would idle.
constexpr int64_t kMinCooperativeK = 64;

struct Plan {
  ReduceStrategy strategy;
  int64_t splits;
  int64_t chunk;
};

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// kSerial when neighbouring outputs are neighbouring elements of the leading input (the kept
// index is the fast one: column sums, middle and outer axes), or when there is little to
// reduce per output; kCooperative otherwise (row sums, whole-array sums).
ReduceStrategy strategy_for(const KernelSpec& spec, const LaunchParams& p) {
  const int kept = spec.reduce.kept;
  if (p.reduce_k < kMinCooperativeK || spec.rank == kept) return ReduceStrategy::kSerial;
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    if (spec.inputs[i].layout == Layout::kScalar) continue;
    const View& v = p.inputs[i];
    const bool kept_fast = spec.inputs[i].layout == Layout::kStrided && kept > 0 &&
                           std::llabs(v.strides[kept - 1]) == 1;
    return kept_fast ? ReduceStrategy::kSerial : ReduceStrategy::kCooperative;
  }
  return ReduceStrategy::kCooperative;
}

Plan plan(const KernelSpec& spec, const LaunchParams& p, const Caps& caps, bool may_split) {
  const int64_t m = p.reduce_m, k = p.reduce_k;
  const ReduceStrategy st = strategy_for(spec, p);
  const int64_t parallel = caps.is_cpu ? kCpuParallelism : kGpuParallelism;
  int64_t splits = 1;
  if (may_split && st == ReduceStrategy::kSerial && m < parallel) {
    splits = std::min(ceil_div(parallel, m), ceil_div(k, kMinSerialSlice));
  } else if (may_split && st == ReduceStrategy::kCooperative) {
    const int64_t groups = parallel / kWorkgroupSize;
    if (m < groups) splits = std::min(ceil_div(groups, m), ceil_div(k, kMinCooperativeSlice));
  }
  splits = std::max<int64_t>(splits, 1);
  const int64_t chunk = ceil_div(k, splits);
  return {st, chunk == 0 ? 1 : ceil_div(k, chunk), chunk};
}

void dispatch(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
              const BindingBuffers& args, const std::vector<Window>& win, const LaunchParams& p,
              std::optional<int> only) {
  const int64_t items = p.reduce_m * p.split_count;
  const bool coop = spec.reduce.strategy == ReduceStrategy::kCooperative;
  dispatch_spec(ctx, spec, args, win, p, only, [&](const Caps& caps) {
    const int64_t groups = coop ? items : ceil_div(items, kWorkgroupSize);
    return std::array<uint64_t, 3>{
        std::min<uint64_t>(static_cast<uint64_t>(groups), caps.max_compute_work_group_count[0]), 1,
        1};
  });
}

// One pass over every split: its interface chosen, its windows bound (operands larger than a
// binding are addressed: runtime/launch.h).
void run(const std::shared_ptr<Context>& ctx, KernelSpec spec, const BindingBuffers& args,
         LaunchParams p, std::optional<int> only) {
  p.split_base = 0;
  p.split_count = p.splits;
  choose_interface(ctx, spec, args);
  const std::vector<Window> win = windows(ctx, spec, args, p);
  dispatch(ctx, spec, args, win, p, only);
}

// Cooperative first passes load 4-vectors when every input is contiguous (or one broadcast
// element) at a multiple of 4 elements, each output's elements start at one (K % 4 == 0), and
// every buffer can be bound in whole vectors; slices then hold multiples of 4 elements.
bool vectors_fit(const KernelSpec& spec, const LaunchParams& p, const BindingBuffers& inputs) {
  if (spec.reduce.strategy != ReduceStrategy::kCooperative || p.reduce_k % 4 != 0) return false;
  for (const TapeEntry& e : spec.tape) {
    if (e.op == Op::kGather) return false;
  }
  for (Layout l : spec.sources) {
    if (l == Layout::kStrided) return false;
  }
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    const Accessor& a = spec.inputs[i];
    if (is_complex(a.dtype) || a.layout == Layout::kStrided) return false;
    if (a.layout == Layout::kContiguous && p.inputs[i].offset % 4 != 0) return false;
    if (!binds_whole_vectors(*inputs[static_cast<size_t>(spec.input_binding(int(i)))])) {
      return false;
    }
  }
  return true;
}

}  // namespace

void launch_reduction(const std::shared_ptr<Context>& ctx, const ScheduledKernel& k,
                      const BindingBuffers& inputs, const std::shared_ptr<ReplicatedBuffer>& output,
                      std::optional<int> only) {
  LaunchParams p = k.params;
  const int64_t m = p.reduce_m;
  if (m == 0) return;
  const Caps& caps = ctx->device(0).caps();
  KernelSpec first = k.spec;
  Plan pl = plan(first, p, caps, /*may_split=*/true);
  first.reduce.strategy = pl.strategy;
  if (vectors_fit(first, p, inputs)) {
    first.vector_width = 4;
    pl.chunk = (pl.chunk + 3) / 4 * 4;
    pl.splits = pl.chunk == 0 ? 1 : ceil_div(p.reduce_k, pl.chunk);
  }
  p.chunk = pl.chunk;
  p.splits = pl.splits;
  // Empty inputs (nothing to reduce: every result is the identity) bind a stand-in, as a
  // binding may not be empty; the kernel reads none of it.
  BindingBuffers args = inputs;
  std::shared_ptr<ReplicatedBuffer> stand_in;
  for (const ReplicatedBuffer*& b : args) {
    if (b->nbytes() > 0) continue;
    if (!stand_in) stand_in = scratch_buffer(ctx, DType::kComplex128, 1);
    b = stand_in.get();
  }
  if (pl.splits == 1) {
    args.push_back(output.get());
    run(ctx, first, args, p, only);
    return;
  }

  // Partial pass: one state per (output, split), laid out [output][split] by cooperative
  // kernels and [split][output] by serial ones (each pass's writes stay adjacent).
  const ReduceSpec& r = k.spec.reduce;
  const bool arg = is_arg_reduction(r.op);
  const int64_t states = m * pl.splits;
  const int n_in = static_cast<int>(first.inputs.size());
  first.reduce.partial = true;
  first.outputs = {Accessor{r.acc, Layout::kContiguous}};
  first.results = {k.spec.results[0]};
  p.outputs = {View::contiguous({states})};
  if (arg) {
    first.outputs.push_back(Accessor{DType::kInt64, Layout::kContiguous});
    first.results.push_back(k.spec.results[0]);
    p.outputs.push_back(View::contiguous({states}));
    if (!first.stride_of.empty()) {  // sources' accessor numbers move up by one
      for (int32_t& a : first.stride_of) a += a > n_in ? 1 : 0;
      first.stride_of.insert(first.stride_of.begin() + n_in + 1, n_in + 1);
    }
  }
  auto values = scratch_buffer(ctx, r.acc, states);
  auto indices = arg ? scratch_buffer(ctx, DType::kInt64, states) : nullptr;
  args.push_back(values.get());
  if (arg) args.push_back(indices.get());
  run(ctx, first, args, p, only);

  // Combining pass over the states: an M × splits iteration space.
  KernelSpec second;
  second.kind = KernelKind::kReduce;
  second.reduce = r;
  second.reduce.combine = true;
  second.inputs = {Accessor{r.acc, Layout::kContiguous}};
  if (arg) second.inputs.push_back(Accessor{DType::kInt64, Layout::kContiguous});
  TapeEntry load{Op::kBuffer, r.acc};
  load.accessor = 0;
  second.tape = {load};
  second.results = {0};
  second.outputs = {k.spec.outputs[0]};
  LaunchParams q;
  if (r.divisor_slot >= 0) {
    second.slots = {real_dtype(r.acc)};
    second.reduce.divisor_slot = 0;
    q.slots = {p.slots.back()};
  }
  const bool serial = pl.strategy == ReduceStrategy::kSerial;
  const View state_view{
      0, {m, pl.splits}, serial ? std::vector<int64_t>{1, m} : std::vector<int64_t>{pl.splits, 1}};
  q.inputs = std::vector<View>(second.inputs.size(), state_view);
  std::vector<View*> views;
  for (View& v : q.inputs) views.push_back(&v);
  int kept = 0;
  q.shape = collapse_split(views, 1, &kept);
  const Layout layout = q.inputs[0].is_contiguous() ? Layout::kContiguous : Layout::kStrided;
  for (Accessor& a : second.inputs) a.layout = layout;
  if (arg && layout == Layout::kStrided) second.stride_of = {0, 0, 2};
  second.rank = static_cast<int>(q.shape.size());
  second.reduce.kept = kept;
  second.index64 =
      states > INT32_MAX || k.params.outputs[0].offset + m > INT32_MAX || k.spec.index64;
  q.outputs = {k.params.outputs[0]};
  q.reduce_m = m;
  q.reduce_k = pl.splits;
  const Plan pl2 = plan(second, q, caps, /*may_split=*/false);
  second.reduce.strategy = pl2.strategy;
  q.chunk = pl2.chunk;
  q.splits = 1;
  BindingBuffers args2 = {values.get()};
  if (arg) args2.push_back(indices.get());
  args2.push_back(output.get());
  run(ctx, second, args2, q, only);
}

}  // namespace vka
