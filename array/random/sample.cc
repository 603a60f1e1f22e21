// vka::random: draws of the looping samplers (kernels/lib/random_draw.h): parameters bound as
// buffers or push constants, launches of at most one binding's worth of elements.
#include <algorithm>

#include "array/random/params.h"
#include "array/random/random.h"
#include "array/views.h"
#include "array/write.h"
#include "base/errors.h"
#include "kernels/lib/random_draw.h"
#include "runtime/device_support.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka::random {
namespace {

int64_t g_launch_limit = 0;  // set_max_sample_launch: 0 is the device's limit

// Elements of one launch: every buffer is bound whole (runtime/library.h), so no binding may
// pass maxStorageBufferRange (128 MiB on lavapipe); results and parameters are 8 bytes at most.
int64_t launch_elements(const Context& ctx) {
  int64_t n = kRandomDrawMaxElements;
  for (int d = 0; d < ctx.num_devices(); ++d) {
    n = std::min<int64_t>(n,
                          static_cast<int64_t>(ctx.device(d).caps().max_storage_buffer_range / 8));
  }
  return g_launch_limit > 0 ? std::min(n, g_launch_limit) : n;
}

// Elements [first, first + count) of `a` (flattened) in a buffer of their own, as `t`; a
// contiguous leaf that is exactly that is bound as it is.
std::shared_ptr<BufferRef> flat_part(const Array& a, DType t, int64_t first, int64_t count) {
  const NodePtr& node = a.node();
  if (node->is_leaf() && a.dtype() == t && first == 0 && count == a.size() &&
      node->view().is_contiguous() && node->view().offset == 0) {
    return node->buffer();
  }
  Array part = reshape(a, {a.size()})[{range(first, first + count)}];
  auto ref = allocate_for(a.context(), t, {count}, "random");
  NodePtr dest = default_graph().buffer(ref, t, View::contiguous({count}));
  realize(a.context(), {default_graph().convert(part.node(), t, {count})}, std::nullopt, {dest});
  return ref;
}

}  // namespace

void set_max_sample_launch(int64_t elements) { g_launch_limit = std::max<int64_t>(elements, 0); }

Array Generator::sample(const char* op, KernelKind kind, DType out,
                        const std::vector<Param>& params, const Shape& size, int64_t mode) {
  const std::vector<DType> types = random_draw_params(kind, out);
  VKA_ASSERT(types.size() == params.size());
  require_dtype(*context_, out, op);
  for (DType t : types) require_dtype(*context_, t, op);
  // The samplers compute in float64, but gamma's in its result's dtype.
  if (out != DType::kFloat32) require_dtype(*context_, DType::kFloat64, op);
  const int64_t n = vka::size(size);
  if (n == 0) return zeros(size, out, context_);
  std::vector<DrawParam> bound;
  std::vector<Array> arrays;  // the array parameters, broadcast to the draw
  for (std::size_t k = 0; k < params.size(); ++k) {
    bound.push_back({types[k], params[k].is_array()});
    if (params[k].is_array()) arrays.push_back(broadcast_to(params[k].array(), size));
  }
  const KernelSpec spec = random_draw_spec(kind, out, bound);
  const int64_t chunk = launch_elements(*context_);
  // One block of the counter per element: element i's loop reads blocks (counter + i, j, 0).
  // A per-replica generator builds once per replica and keeps replica r's result of the r-th
  // build (draw()); a library launch runs on every replica, so that case does R times the
  // work (one replica's key cannot reach one replica's launch alone).
  return draw(op, size, out, static_cast<uint64_t>(n), [&](uint64_t key, uint64_t counter) {
    std::vector<std::shared_ptr<BufferRef>> parts;
    for (int64_t first = 0; first < n; first += chunk) {
      const int64_t m = std::min(chunk, n - first);
      Buffers bufs;
      for (std::size_t k = 0, a = 0; k < params.size(); ++k) {
        if (params[k].is_array())
          bufs.push_back(device_buffer(*flat_part(arrays[a++], types[k], first, m)));
      }
      parts.push_back(allocate_for(context_, out, {m}, op));
      bufs.push_back(device_buffer(*parts.back()));
      std::vector<Scalar> slots = {Scalar::of_uint(key), Scalar::of_uint(counter),
                                   Scalar::of_int(first), Scalar::of_int(mode)};
      for (std::size_t k = 0; k < params.size(); ++k) {
        if (params[k].is_array()) continue;
        slots.push_back(is_floating(types[k]) ? Scalar::of_double(params[k].value(), types[k])
                                              : Scalar::of_int(params[k].int_value()));
      }
      const uint64_t groups =
          static_cast<uint64_t>((m + kRandomDrawThreads - 1) / kRandomDrawThreads);
      dispatch_library(context_, spec, bufs, m, groups, slots);
    }
    if (parts.size() == 1) {
      return Array(default_graph().buffer(parts[0], out, View::contiguous(size)), context_);
    }
    // Several launches: their pieces side by side in one array.
    Array whole = zeros(size, out, context_);
    const auto& ref = whole.storage()->buffer();
    for (std::size_t c = 0; c < parts.size(); ++c) {
      const int64_t first = static_cast<int64_t>(c) * chunk, m = std::min(chunk, n - first);
      write_into(context_, default_graph().buffer(ref, out, View::contiguous({m}, first)),
                 default_graph().buffer(parts[c], out, View::contiguous({m})));
    }
    return whole;
  });
}

}  // namespace vka::random
