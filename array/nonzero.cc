// nonzero: flags → prefix sums (runtime/library.h: exclusive_sums) → count readback → compact;
// and the reads built on it.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "array/array.h"
#include "base/errors.h"
#include "device/pipeline.h"
#include "device/stream.h"
#include "kernels/cache.h"
#include "kernels/lib/scan.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka {
namespace {

// The flags of `a` (a != 0) as a contiguous bool buffer of a.size() elements.
std::shared_ptr<ReplicatedBuffer> flags_of(const Array& a) {
  Array f = a.dtype() == DType::kBool ? a : not_equal(a, Arg(0));
  NodePtr leaf = f.eval().node();
  if (leaf->view() != View::contiguous(leaf->shape())) {
    leaf = realize(a.context(), {default_graph().convert(leaf, DType::kBool, leaf->shape())})[0];
  }
  return device_buffer(*leaf->buffer());
}

}  // namespace

Array flatnonzero(const Array& a) {
  const std::shared_ptr<Context>& ctx = a.context();
  const int64_t n = a.size();
  if (n >= (int64_t{1} << 31)) {
    throw ShapeError("[nonzero] arrays of 2^31 elements or more are not supported yet (got " +
                     std::to_string(n) + ")");
  }
  if (n == 0) return Array(default_graph().full(Scalar::of_int(0, DType::kInt64), {0}), ctx);
  auto flags = flags_of(a);
  std::shared_ptr<ReplicatedBuffer> total;
  auto sums = exclusive_sums(ctx, flags, DType::kBool, n, &total);
  uint32_t count = 0;
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    uint32_t c = 0;
    total->read(&c, 0, sizeof(c), r);
    if (r > 0 && c != count) {
      throw DeviceError("[nonzero] replicas hold different values: " + std::to_string(count) +
                        " nonzero elements on replica 0, " + std::to_string(c) + " on replica " +
                        std::to_string(r));
    }
    count = c;
  }
  auto out = allocate_for(ctx, DType::kInt64, {std::max<int64_t>(count, 1)});
  dispatch_library(ctx, compact_spec(), {flags, sums, device_buffer(*out)}, n,
           (n + kScanThreads - 1) / kScanThreads);
  return Array(default_graph().buffer(out, DType::kInt64, View::contiguous({count})), ctx);
}

std::vector<Array> nonzero(const Array& a) {
  Array flat = flatnonzero(a);
  if (a.ndim() <= 1) return {flat};
  // Coordinates from flat indices: (flat // stride) % extent per axis, fused lazily.
  std::vector<Array> out;
  int64_t stride = 1;
  std::vector<int64_t> strides(a.ndim());
  for (int d = a.ndim() - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= a.shape()[d];
  }
  for (int d = 0; d < a.ndim(); ++d) {
    Array c = d == 0 ? floor_divide(flat, Arg(strides[d]))
                     : remainder(floor_divide(flat, Arg(strides[d])), Arg(a.shape()[d]));
    out.push_back(c);
  }
  return out;
}

Array masked(const Array& a, const Array& mask) {
  if (mask.dtype() != DType::kBool) {
    throw IndexError("[index] a mask must be a boolean array, got " + std::string(name(mask.dtype())));
  }
  // Each mask dimension matches the array's or is 0 (numpy: an empty mask selects nothing,
  // whatever the extent it covers; the array API's tests rely on it).
  auto fits = [&](int d) { return mask.shape()[d] == a.shape()[d] || mask.shape()[d] == 0; };
  bool ok = mask.ndim() <= a.ndim();
  for (int d = 0; ok && d < mask.ndim(); ++d) ok = fits(d);
  if (!ok) {
    std::string at;
    for (int d = 0; d < std::min(mask.ndim(), a.ndim()); ++d) {
      if (!fits(d)) {
        at = "; dimension is " + std::to_string(a.shape()[d]) + " but corresponding boolean "
             "dimension is " + std::to_string(mask.shape()[d]);
        break;
      }
    }
    throw IndexError("[index] boolean index did not match indexed array along axis " +
                     std::to_string(mask.ndim()) + at + " (array shape " + to_string(a.shape()) +
                     ", mask shape " + to_string(mask.shape()) + ")");
  }
  Shape flat = {mask.size()};
  flat.insert(flat.end(), a.shape().begin() + mask.ndim(), a.shape().end());
  if (mask.size() == 0) return zeros(flat, a.dtype(), a.context());
  Array idx = flatnonzero(mask);
  return gather(reshape(a, flat), {idx}, {0}, 0, /*checked=*/true, "index");
}

Array compress(const Array& condition, const Array& a, std::optional<int64_t> axis) {
  if (condition.ndim() != 1) {
    throw ShapeError("[compress] condition must be a 1-d array, got shape " +
                     to_string(condition.shape()));
  }
  Array src = axis ? a : reshape(a, {-1});
  const int ax = normalize_axis("compress", axis.value_or(0), src.ndim());
  if (condition.size() > src.shape()[ax]) {
    throw IndexError("[compress] condition of length " + std::to_string(condition.size()) +
                     " is longer than axis " + std::to_string(ax) + " of size " +
                     std::to_string(src.shape()[ax]));
  }
  Array idx = flatnonzero(condition);
  return gather(src, {idx}, {ax}, ax, /*checked=*/true, "compress");
}

Array extract(const Array& condition, const Array& a) {
  Array flat = reshape(a, {-1});
  Array cond = reshape(condition, {-1});
  Array idx = flatnonzero(cond);
  // A longer condition is fine while its true elements stay inside the array (numpy's take).
  return gather(flat, {idx}, {0}, 0, /*checked=*/cond.size() <= flat.size(), "extract");
}

}  // namespace vka
