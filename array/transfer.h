// Explicit transfers between arrays and host memory: synchronous or asynchronous (an Event),
// whole arrays or regions, single copy commands straight from and into pinned host memory
// (HostBuffer) where the layouts allow, staged through the ordinary paths otherwise; and
// device arrays allocated with padding (the usable shape a corner of the allocation).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "array/array.h"
#include "device/event.h"
#include "device/host_memory.h"

namespace vka {

// Host bytes seen as an array: element (i0, i1, ...) at data + Σ i_k * strides[k] (bytes).
struct HostView {
  uint8_t* data = nullptr;
  Shape shape;
  std::vector<int64_t> strides;  // bytes; any sign
  DType dtype = DType::kFloat32;
  // Set when the bytes lie in a HostBuffer: copies then use it directly.
  HostBuffer* pinned = nullptr;
  // Set when the view is the whole usable part of a padded host allocation that starts at
  // `data` (a HostArray): the allocation is `padded` in C order.
  std::optional<Shape> padded;
};

// One region of a copy command, in bytes.
struct CopyRegion {
  uint64_t src = 0, dst = 0, size = 0;
  bool operator==(const CopyRegion& o) const {
    return src == o.src && dst == o.dst && size == o.size;
  }
};

constexpr size_t kMaxCopyRegions = 1 << 16;

// The byte regions that copy `shape` elements of `itemsize` bytes from (src_offset,
// src_strides) to (dst_offset, dst_strides), strides in bytes: axes are merged wherever both
// sides are contiguous across them, so a C-contiguous copy is one region and a copy between
// row-padded layouts one region per row. nullopt when a stride is negative, a destination
// axis of extent > 1 has stride 0, or more than `max_regions` regions would be needed.
std::optional<std::vector<CopyRegion>> plan_copy(const Shape& shape, uint64_t itemsize,
                                                 int64_t src_offset,
                                                 const std::vector<int64_t>& src_strides,
                                                 int64_t dst_offset,
                                                 const std::vector<int64_t>& dst_strides,
                                                 size_t max_regions = kMaxCopyRegions);

// Row-major (C order) strides in bytes of `shape` for elements of `itemsize` bytes.
std::vector<int64_t> c_byte_strides(const Shape& shape, uint64_t itemsize);

// A new device array of `shape` whose allocation is `padded` (C order, padded[i] >= shape[i]):
// a writeable view of the allocation's corner. ShapeError naming both shapes otherwise.
Array empty_padded(const Shape& shape, const Shape& padded, DType dtype,
                   std::shared_ptr<Context> context = Context::default_context());
// A storage array (views share it, writes change it in place) over all of `buffer`, which
// must hold `shape` of `dtype`: how memory made elsewhere (mapped memory) becomes an array.
Array storage_array(std::shared_ptr<ReplicatedBuffer> buffer, const Shape& shape, DType dtype,
                    std::shared_ptr<Context> context);
// The padded shape of an array made by empty_padded (the whole array, not a view of it).
std::optional<Shape> padded_shape(const Array& a);

// Host → device: `src` (of dst's shape and dtype; ShapeError/DTypeError otherwise) into the
// array or view `dst` (made storage first), on every replica or on `replica`. Records the
// copies on the replicas' streams and adds their completion to `event`; from pinned memory
// nothing is read until the copies run, so `src` must not change before the event completes.
// From other host memory the bytes are staged before this returns.
void upload(Array& dst, const HostView& src, std::optional<int> replica, Event& event,
            const char* op = "set");
// Device → host: replica `replica` of `src` into `dst`. Into pinned memory the copies are
// recorded (dst is written when the event completes); into other host memory the download
// is complete on return.
void download(Array& src, const HostView& dst, int replica, Event& event, const char* op = "get");
// Device → device: `src` (any array of the same context, dtype and shape) into the array or
// view `dst`, on every replica or one: copy commands where the layouts allow, a kernel
// otherwise (and always where the two overlap in one buffer, with numpy's result).
void copy_device(Array& dst, Array& src, std::optional<int> replica, Event& event,
                 const char* op = "copy_region");
// Sets every element to zero on every replica (a fill command where the view is contiguous
// and 4-byte aligned, a kernel otherwise).
void zero(Array& a);

// Queue-side wait: later work on the replicas of `a`'s context (every one, or `replica`),
// their host transfers on a transfer stream included, waits on the device for `event` (on
// the host for work of another device).
void wait_event(const Array& a, Event& event, std::optional<int> replica);
// An event that completes when the work recorded so far on the replicas (every one, or
// `replica`) and on their devices' transfer streams completes; submits that work.
Event record_event(const std::shared_ptr<Context>& context, std::optional<int> replica);

}  // namespace vka
