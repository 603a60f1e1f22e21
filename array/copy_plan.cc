// Copy planning (strided layouts → copy-command regions) and padded device allocations.
#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "array/buffer.h"
#include "array/transfer.h"
#include "base/errors.h"
#include "runtime/device_support.h"
#include "runtime/realize.h"

namespace vka {

std::optional<std::vector<CopyRegion>> plan_copy(const Shape& shape, uint64_t itemsize,
                                                 int64_t src_offset,
                                                 const std::vector<int64_t>& src_strides,
                                                 int64_t dst_offset,
                                                 const std::vector<int64_t>& dst_strides,
                                                 size_t max_regions) {
  VKA_ASSERT(src_strides.size() == shape.size() && dst_strides.size() == shape.size());
  std::vector<CopyRegion> regions;
  if (size(shape) == 0) return regions;
  if (src_offset < 0 || dst_offset < 0) return std::nullopt;
  // Axes from the innermost out: `run` bytes are contiguous on both sides so far; the axes
  // that break contiguity become loops, merged with each other where both sides allow.
  struct Loop {
    int64_t extent, src_stride, dst_stride;
  };
  std::vector<Loop> loops;  // innermost first
  uint64_t run = itemsize;
  bool in_run = true;
  for (int k = static_cast<int>(shape.size()) - 1; k >= 0; --k) {
    const int64_t n = shape[k], ss = src_strides[k], ds = dst_strides[k];
    if (n == 1) continue;
    if (ss < 0 || ds <= 0) return std::nullopt;
    if (in_run && ss == static_cast<int64_t>(run) && ds == static_cast<int64_t>(run)) {
      run *= static_cast<uint64_t>(n);
      continue;
    }
    in_run = false;
    if (!loops.empty() && ss == loops.back().extent * loops.back().src_stride &&
        ds == loops.back().extent * loops.back().dst_stride) {
      loops.back().extent *= n;
      continue;
    }
    loops.push_back({n, ss, ds});
  }
  uint64_t count = 1;
  for (const Loop& l : loops) {
    count *= static_cast<uint64_t>(l.extent);
    if (count > max_regions) return std::nullopt;
  }
  regions.reserve(count);
  std::vector<int64_t> index(loops.size(), 0);
  for (uint64_t i = 0; i < count; ++i) {
    int64_t s = src_offset, d = dst_offset;
    for (size_t k = 0; k < loops.size(); ++k) {
      s += index[k] * loops[k].src_stride;
      d += index[k] * loops[k].dst_stride;
    }
    regions.push_back({static_cast<uint64_t>(s), static_cast<uint64_t>(d), run});
    for (size_t k = 0; k < loops.size() && ++index[k] == loops[k].extent; ++k) index[k] = 0;
  }
  // Regions in address order of the destination (the loops were innermost first).
  std::sort(regions.begin(), regions.end(),
            [](const CopyRegion& a, const CopyRegion& b) { return a.dst < b.dst; });
  return regions;
}

namespace {

// Padded allocations made by empty_padded, by buffer id: the buffer (weakly), the usable
// shape and dtype, and the padded shape.
struct PaddedEntry {
  std::weak_ptr<BufferRef> buffer;
  Shape shape, padded;
  DType dtype;
};
struct PaddedRegistry {
  std::mutex mu;
  std::unordered_map<uint64_t, PaddedEntry> entries;
};

PaddedRegistry& registry() {
  static PaddedRegistry* r = new PaddedRegistry;
  return *r;
}

std::vector<int64_t> c_strides(const Shape& shape) {
  std::vector<int64_t> s(shape.size());
  int64_t step = 1;
  for (int k = static_cast<int>(shape.size()) - 1; k >= 0; --k) {
    s[k] = step;
    step *= shape[k];
  }
  return s;
}

}  // namespace

Array empty_padded(const Shape& shape, const Shape& padded, DType dtype,
                   std::shared_ptr<Context> context) {
  if (padded.size() != shape.size()) {
    throw ShapeError("[DeviceArray] padded_shape " + shape_to_string(padded) + " and shape " +
                     shape_to_string(shape) + " differ in length");
  }
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] < 0 || padded[k] < shape[k]) {
      throw ShapeError("[DeviceArray] padded_shape " + shape_to_string(padded) +
                       " is smaller than shape " + shape_to_string(shape) + " on axis " +
                       std::to_string(k));
    }
  }
  require_dtype(*context, dtype, "DeviceArray");
  Array base(
      default_graph().buffer(allocate_for(context, dtype, padded), dtype, View::contiguous(padded)),
      context);
  base.storage();  // the fresh buffer, held by nothing else, becomes storage with no copy
  const std::shared_ptr<BufferRef>& ref = base.node()->buffer();
  {
    PaddedRegistry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    for (auto it = r.entries.begin(); it != r.entries.end();) {
      it = it->second.buffer.expired() ? r.entries.erase(it) : std::next(it);
    }
    r.entries[ref->id()] = PaddedEntry{ref, shape, padded, dtype};
  }
  View corner;
  corner.offset = 0;
  corner.shape = shape;
  corner.strides = c_strides(padded);
  return base.view(corner);
}

Array storage_array(std::shared_ptr<ReplicatedBuffer> buffer, const Shape& shape, DType dtype,
                    std::shared_ptr<Context> context) {
  VKA_ASSERT(static_cast<uint64_t>(size(shape)) * itemsize(dtype) <= buffer->nbytes());
  Array a(default_graph().buffer(std::make_shared<BufferRef>(std::move(buffer)), dtype,
                                 View::contiguous(shape)),
          std::move(context));
  a.storage();  // the leaf holds the only reference: storage in place, no copy
  VKA_ASSERT(a.is_storage());
  return a;
}

std::optional<Shape> padded_shape(const Array& a) {
  if (!a.is_storage()) return std::nullopt;
  const NodePtr& leaf = a.node();
  PaddedEntry e;
  {
    PaddedRegistry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.entries.find(leaf->buffer()->id());
    if (it == r.entries.end()) return std::nullopt;
    e = it->second;
  }
  // Only the whole usable part: a view of part of it has real elements in its "padding".
  const View& v = leaf->view();
  if (v.offset != 0 || v.shape != e.shape || v.strides != c_strides(e.padded) ||
      leaf->dtype() != e.dtype) {
    return std::nullopt;
  }
  return e.padded;
}

}  // namespace vka
