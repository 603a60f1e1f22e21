// Split-K GEMM launches (runtime/gemm_split.h): the split count, and the two passes.
#include "runtime/gemm_split.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string>

#include "base/errors.h"
#include "kernels/gen/gemm.h"
#include "runtime/launch.h"
#include "runtime/library.h"

namespace vka {
namespace {

std::mutex split_mutex;
std::optional<int> split_override;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

void check_split(int64_t s, const std::string& from) {
  if (s < 1 || s > 65536) {
    throw ShapeError("[matmul] GEMM split-K count " + from +
                     " is invalid: it must be an integer from 1 to 65536");
  }
}

// The override in force: set_gemm_split's, else $VKA_GEMM_SPLIT's, else none.
std::optional<int64_t> override_split() {
  {
    std::lock_guard<std::mutex> lock(split_mutex);
    if (split_override) return *split_override;
  }
  const char* env = std::getenv("VKA_GEMM_SPLIT");
  if (!env || !*env) return std::nullopt;
  char* end = nullptr;
  const long long v = std::strtoll(env, &end, 10);
  if (*end != '\0') check_split(0, "\"" + std::string(env) + "\" ($VKA_GEMM_SPLIT)");
  check_split(v, std::to_string(v) + " ($VKA_GEMM_SPLIT)");
  return v;
}

// Two int32 values in one int64 slot (kernels/gen/gemm.h), low word first.
Scalar pair(int64_t lo, int64_t hi) {
  const uint64_t l = static_cast<uint32_t>(static_cast<int32_t>(lo));
  const uint64_t h = static_cast<uint32_t>(static_cast<int32_t>(hi));
  return Scalar::of_int(static_cast<int64_t>(l | h << 32), DType::kInt64);
}

}  // namespace

void set_gemm_split(std::optional<int> splits) {
  if (splits) check_split(*splits, std::to_string(*splits));
  std::lock_guard<std::mutex> lock(split_mutex);
  split_override = splits;
}

int64_t gemm_split_range(int64_t k, int64_t splits, int bk) {
  return ceil_div(ceil_div(k, splits), bk) * bk;
}

int64_t gemm_splits(const std::shared_ptr<Context>& ctx, const KernelSpec& spec, int64_t m,
                    int64_t n, int64_t k, int64_t batch) {
  const GemmSpec& g = spec.gemm;
  if (g.coop || k <= 0) return 1;
  bool cpu = false;
  uint32_t units = UINT32_MAX;
  uint64_t max_range = UINT64_MAX;
  for (int d = 0; d < ctx->num_devices(); ++d) {
    const Caps& c = ctx->device(d).caps();
    cpu = cpu || c.is_cpu;
    units = std::min(units, c.sm_count > 0 ? c.sm_count : kAssumedComputeUnits);
    max_range = std::min<uint64_t>(max_range, c.max_storage_buffer_range);
  }
  int64_t s = 1;
  if (std::optional<int64_t> o = override_split()) {
    s = *o;
  } else if (!cpu) {
    const int64_t tiles = ceil_div(m, g.bm) * ceil_div(n, g.bn) * batch;
    if (2 * tiles < static_cast<int64_t>(units)) {
      s = std::min({ceil_div(4 * static_cast<int64_t>(units), tiles), k / kMinSplitK, kMaxSplits});
      // No empty ranges.
      if (s > 1) s = ceil_div(k, gemm_split_range(k, s, g.bk));
    }
  }
  const int64_t total = batch * m * n;
  const uint64_t bytes = itemsize(gemm_accumulator(spec.inputs[1].dtype)) * total;
  s = std::min<int64_t>(s, static_cast<int64_t>(max_range / std::max<uint64_t>(bytes, 1)));
  s = std::min<int64_t>(s, ((int64_t{1} << 31) - 1) / std::max<int64_t>(total, 1));
  return std::max<int64_t>(s, 1);
}

void launch_gemm_split(const std::shared_ptr<Context>& ctx, const ScheduledKernel& k,
                       const std::vector<const ReplicatedBuffer*>& args, std::optional<int> only,
                       int64_t splits) {
  const KernelSpec& spec = k.spec;
  VKA_ASSERT(spec.kind == KernelKind::kGemm && !spec.gemm.coop && splits > 1);
  auto word = [&k](int i, int half) {
    return static_cast<int64_t>((static_cast<uint64_t>(k.params.slots[i].as_int()) >> (32 * half)) &
                                0xffffffffu);
  };
  const int64_t m = word(0, 0), n = word(0, 1), kk = word(1, 0), batch = word(1, 1);
  const int64_t total = batch * m * n;
  const DType acc = gemm_accumulator(spec.inputs[1].dtype);
  const std::shared_ptr<ReplicatedBuffer> partials = scratch_buffer(ctx, acc, splits * total);
  auto whole = [](const std::vector<const ReplicatedBuffer*>& bufs) {
    std::vector<Window> w;
    for (const ReplicatedBuffer* b : bufs) w.push_back({0, b->nbytes()});
    return w;
  };

  // The partial pass: the plain GEMM kernel over each K range, z over (range, batch).
  KernelSpec first;
  first.kind = KernelKind::kGemm;
  first.rank = 1;
  first.inputs = {spec.inputs[0], spec.inputs[1]};
  first.outputs = {Accessor{acc, Layout::kContiguous}};
  first.results = {0};
  first.slots.assign(kGemmSlots + 1, DType::kInt64);
  first.gemm = spec.gemm;
  first.gemm.split = GemmSplit::kPartial;
  LaunchParams p;
  p.shape = {splits * total};
  p.inputs = {k.params.inputs[0], k.params.inputs[1]};
  p.outputs = {View::contiguous({1}, 0)};
  p.slots.assign(k.params.slots.begin(), k.params.slots.begin() + kGemmSlots);
  p.slots.push_back(pair(splits, gemm_split_range(kk, splits, spec.gemm.bk)));
  const std::vector<const ReplicatedBuffer*> args1 = {args[0], args[1], partials.get()};
  choose_interface(ctx, first, args1);
  dispatch_spec(ctx, first, args1, whole(args1), p, only, [&](const Caps& c) {
    return std::array<uint64_t, 3>{
        std::min<uint64_t>(ceil_div(n, spec.gemm.bn), c.max_compute_work_group_count[0]),
        std::min<uint64_t>(ceil_div(m, spec.gemm.bm), c.max_compute_work_group_count[1]),
        std::min<uint64_t>(splits * batch, c.max_compute_work_group_count[2])};
  });

  // The combining pass: the scheduled kernel (its epilogue, bindings and slots) reading the
  // partials as input 0; slot c2 carries S (A's strides are not read).
  KernelSpec second = spec;
  second.inputs[0] = Accessor{acc, Layout::kContiguous};
  second.gemm.split = GemmSplit::kCombine;
  LaunchParams q = k.params;
  q.inputs[0] = View::contiguous({1}, 0);
  q.slots[2] = pair(splits, 0);
  std::vector<const ReplicatedBuffer*> args2 = args;
  args2[0] = partials.get();
  choose_interface(ctx, second, args2);
  dispatch_spec(ctx, second, args2, whole(args2), q, only, [&](const Caps& c) {
    const uint64_t groups = ceil_div(total, kGemmCombineGroup);
    return std::array<uint64_t, 3>{std::min<uint64_t>(groups, c.max_compute_work_group_count[0]), 1,
                                   1};
  });
}

}  // namespace vka
