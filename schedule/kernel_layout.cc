// Iteration spaces and accessor layouts of scheduled kernels (schedule/kernel_layout.h).
#include "schedule/kernel_layout.h"

#include <algorithm>
#include <utility>

namespace vka {
namespace {

// Strided accessors with equal strides share one set of stride fields.
void share_strides(KernelSpec& spec, const std::vector<View>& in_views,
                   const std::vector<View>& out_views, const std::vector<View>& src_views) {
  std::vector<std::pair<Layout, const View*>> acc;
  for (std::size_t i = 0; i < in_views.size(); ++i)
    acc.push_back({spec.inputs[i].layout, &in_views[i]});
  for (std::size_t i = 0; i < out_views.size(); ++i)
    acc.push_back({spec.outputs[i].layout, &out_views[i]});
  for (std::size_t i = 0; i < src_views.size(); ++i)
    acc.push_back({spec.sources[i], &src_views[i]});
  bool shared = false;
  spec.stride_of.resize(acc.size());
  for (std::size_t a = 0; a < acc.size(); ++a) {
    spec.stride_of[a] = static_cast<int32_t>(a);
    if (acc[a].first != Layout::kStrided) continue;
    for (std::size_t b = 0; b < a; ++b) {
      if (acc[b].first == Layout::kStrided && spec.stride_of[b] == static_cast<int32_t>(b) &&
          acc[b].second->strides == acc[a].second->strides) {
        spec.stride_of[a] = static_cast<int32_t>(b);
        shared = true;
        break;
      }
    }
  }
  if (!shared) spec.stride_of.clear();
}

Layout classify(const View& view, int64_t count) {
  if (count > 1 && view.is_scalar_broadcast()) return Layout::kScalar;
  return view.is_contiguous() ? Layout::kContiguous : Layout::kStrided;
}

// 64-bit index math: the element count or some view's offsets leave int32.
bool needs_index64(const std::vector<View*>& views, int64_t count, bool gather_index64) {
  bool index64 = count > INT32_MAX || gather_index64;
  for (const View* view : views) {
    auto [lo, hi] = view->extent();
    index64 = index64 || lo < INT32_MIN || hi > INT32_MAX;
  }
  return index64;
}

// Layouts of the inputs and sources (a gathered array is always read strided).
void classify_inputs(KernelSpec& spec, const KernelViews& v, int64_t count) {
  for (std::size_t i = 0; i < v.inputs.size(); ++i) {
    spec.inputs[i].layout = v.gathered[i] ? Layout::kStrided : classify(v.inputs[i], count);
  }
  for (std::size_t i = 0; i < v.sources.size(); ++i) {
    spec.sources[i] = classify(v.sources[i], count);
  }
}

}  // namespace

void lay_out_elementwise(ScheduledKernel& k, const Shape& iteration, KernelViews v,
                         std::vector<Scalar> slots) {
  KernelSpec& spec = k.spec;
  // Views over the iteration shape, then merged dims (fewer index computations, and a
  // contiguous kernel whatever the rank).
  std::vector<View*> all;
  for (auto* vs : {&v.inputs, &v.outputs, &v.sources}) {
    for (View& view : *vs) {
      view = broadcast_to("schedule", view, iteration);
      all.push_back(&view);
    }
  }
  Shape shape = collapse_dims(all);
  const int64_t count = size(shape);
  const bool index64 = needs_index64(all, count, v.gather_index64);
  classify_inputs(spec, v, count);
  for (std::size_t i = 0; i < v.outputs.size(); ++i) {
    spec.outputs[i].layout = classify(v.outputs[i], count);
  }
  share_strides(spec, v.inputs, v.outputs, v.sources);
  spec.rank = static_cast<int>(shape.size());
  spec.index64 = index64;
  k.params = LaunchParams{shape, v.inputs, v.outputs, v.sources, std::move(slots)};
}

void lay_out_reduction(ScheduledKernel& k, const Node& r, int result, KernelViews v,
                       std::vector<Scalar> slots) {
  KernelSpec& spec = k.spec;
  const NodePtr& x = r.inputs()[0];
  const ReduceInfo info = reduce_info(r);
  spec.kind = KernelKind::kReduce;
  spec.reduce.op = r.op();
  spec.reduce.acc = x->dtype();
  spec.outputs.push_back(Accessor{r.dtype(), Layout::kContiguous});
  spec.results.push_back(result);
  std::vector<int64_t> perm;
  for (int d = 0; d < static_cast<int>(x->shape().size()); ++d) {
    if (!std::binary_search(info.axes.begin(), info.axes.end(), d)) perm.push_back(d);
  }
  const int kept = static_cast<int>(perm.size());
  perm.insert(perm.end(), info.axes.begin(), info.axes.end());
  std::vector<View*> all;
  for (auto* vs : {&v.inputs, &v.sources}) {
    for (View& view : *vs) {
      view = permute("schedule", broadcast_to("schedule", view, x->shape()), perm);
      all.push_back(&view);
    }
  }
  View whole = permute("schedule", View::contiguous(x->shape()), perm);
  all.push_back(&whole);  // keeps the split when there are no other views
  int kept_rank = 0;
  Shape shape = collapse_split(all, kept, &kept_rank);
  const int64_t count = size(shape);
  const int64_t m = size(Shape(shape.begin(), shape.begin() + kept_rank));
  const int64_t reduced = size(Shape(shape.begin() + kept_rank, shape.end()));
  const bool index64 = needs_index64(all, count, v.gather_index64);
  classify_inputs(spec, v, count);
  std::vector<View> out_views = {View::contiguous({m})};
  share_strides(spec, v.inputs, out_views, v.sources);
  spec.rank = static_cast<int>(shape.size());
  spec.index64 = index64;
  spec.reduce.kept = kept_rank;
  k.params = LaunchParams{shape, v.inputs, out_views, v.sources, std::move(slots)};
  k.params.reduce_m = m;
  k.params.reduce_k = reduced;
}

}  // namespace vka
