// Host ↔ device and device ↔ device transfers as copy commands, with staged fallbacks.
#include "array/transfer.h"

#include <cstring>
#include <string>

#include "array/buffer.h"
#include "array/write.h"
#include "base/errors.h"
#include "device/stream.h"
#include "runtime/realize.h"

namespace vka {
namespace {

std::vector<int> replicas_of(const Context& ctx, std::optional<int> replica) {
  if (replica) {
    ctx.replica(*replica);  // IndexError naming the range
    return {*replica};
  }
  std::vector<int> all(ctx.num_replicas());
  for (int r = 0; r < ctx.num_replicas(); ++r) all[r] = r;
  return all;
}

std::vector<int64_t> byte_strides(const View& v, uint64_t itemsize) {
  std::vector<int64_t> s(v.strides.size());
  for (size_t k = 0; k < s.size(); ++k) s[k] = v.strides[k] * static_cast<int64_t>(itemsize);
  return s;
}

void check_match(const char* op, const Shape& device, DType device_dtype, const Shape& host,
                 DType host_dtype, const char* what = "host array") {
  if (device_dtype != host_dtype) {
    throw DTypeError(std::string("[") + op + "] " + what + " of " + std::string(name(host_dtype)) +
                     " does not match the device array's " + std::string(name(device_dtype)));
  }
  if (device != host) {
    throw ShapeError(std::string("[") + op + "] " + what + " of shape " + shape_to_string(host) +
                     " does not match the device array's shape " + shape_to_string(device));
  }
}

// Element-by-element (or row-by-row) copy between two host layouts of one shape.
void host_copy(uint8_t* dst, const std::vector<int64_t>& dst_strides, const uint8_t* src,
               const std::vector<int64_t>& src_strides, const Shape& shape, uint64_t itemsize,
               size_t axis = 0) {
  if (axis == shape.size()) {
    std::memcpy(dst, src, itemsize);
    return;
  }
  const int64_t n = shape[axis];
  if (axis + 1 == shape.size() && dst_strides[axis] == static_cast<int64_t>(itemsize) &&
      src_strides[axis] == static_cast<int64_t>(itemsize)) {
    std::memcpy(dst, src, static_cast<size_t>(n) * itemsize);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    host_copy(dst + i * dst_strides[axis], dst_strides, src + i * src_strides[axis], src_strides,
              shape, itemsize, axis + 1);
  }
}

std::vector<VkBufferCopy> to_vk(const std::vector<CopyRegion>& regions) {
  std::vector<VkBufferCopy> out(regions.size());
  for (size_t i = 0; i < regions.size(); ++i) {
    out[i] = {regions[i].src, regions[i].dst, regions[i].size};
  }
  return out;
}

// The regions between a device view and a pinned host view: the whole padded allocation in
// one region when both are the usable parts of allocations padded alike, else plan_copy.
std::optional<std::vector<CopyRegion>> host_regions(const Array& device, const View& view,
                                                    const HostView& host, bool to_device) {
  const uint64_t isz = itemsize(device.dtype());
  const int64_t host_offset = host.data - static_cast<uint8_t*>(host.pinned->data());
  if (host.padded) {
    std::optional<Shape> dp = padded_shape(device);
    if (dp && *dp == *host.padded) {
      const uint64_t n = static_cast<uint64_t>(size(*dp)) * isz;
      if (n == 0) return std::vector<CopyRegion>{};
      return std::vector<CopyRegion>{{0, 0, n}};
    }
  }
  const int64_t dev_offset = view.offset * static_cast<int64_t>(isz);
  const std::vector<int64_t> dev_strides = byte_strides(view, isz);
  if (to_device) {
    return plan_copy(view.shape, isz, host_offset, host.strides, dev_offset, dev_strides);
  }
  return plan_copy(view.shape, isz, dev_offset, dev_strides, host_offset, host.strides);
}

// Records a copy between pinned host memory and `device_buffer` (a buffer of replica `rep`)
// and adds its completion to `event`. Where the device has a transfer stream the copy runs
// there, after the replica stream's last use of the buffer (a device-side wait), and is
// submitted at once; the replica stream then holds the buffer as a foreign use, so its next
// command that writes the buffer, or reads it after an upload, waits for the copy (and no
// other command does). Otherwise the copy is
// recorded on the replica's stream, in order with its other work.
void record_host_copy(Replica& rep, HostBuffer& pinned, bool to_device, VkBuffer device_buffer,
                      const std::vector<CopyRegion>& regions, Event& event) {
  if (regions.empty()) return;
  Stream* transfer = rep.device->transfer_stream();
  Stream& stream = transfer ? *transfer : *rep.stream;
  const VkBuffer host_buffer = pinned.vk_buffer();
  if (transfer) transfer->wait_for_use(*rep.stream, device_buffer);
  stream.copy_regions(to_device ? host_buffer : device_buffer,
                      to_device ? device_buffer : host_buffer, to_vk(regions));
  pinned.used_by(stream);
  const uint64_t value = stream.submit();
  if (transfer) rep.stream->foreign_use(device_buffer, *transfer, value, to_device);
  event.add(stream, value);
}

}  // namespace

std::vector<int64_t> c_byte_strides(const Shape& shape, uint64_t itemsize) {
  std::vector<int64_t> s(shape.size());
  int64_t step = static_cast<int64_t>(itemsize);
  for (int k = static_cast<int>(shape.size()) - 1; k >= 0; --k) {
    s[k] = step;
    step *= shape[k];
  }
  return s;
}

void upload(Array& dst, const HostView& src, std::optional<int> replica, Event& event,
            const char* op) {
  check_match(op, dst.shape(), dst.dtype(), src.shape, src.dtype);
  if (!dst.is_writeable()) {
    throw ShapeError(std::string("[") + op + "] the destination array is read-only");
  }
  const std::shared_ptr<Context>& ctx = dst.context();
  const std::vector<int> targets = replicas_of(*ctx, replica);
  if (!dst.is_storage() && !replica) {
    // Every element of every replica is replaced: a fresh buffer, the old value never computed.
    dst.assign(default_graph().buffer(allocate_for(ctx, dst.dtype(), dst.shape()), dst.dtype(),
                                      View::contiguous(dst.shape())));
  }
  const NodePtr leaf = dst.storage();
  const View view = leaf->view();
  auto buf = device_buffer(*leaf->buffer());
  const uint64_t n = dst.nbytes();
  if (n == 0) return;
  std::vector<int> staged;
  bool copied = false;
  for (int r : targets) {
    Replica& rep = ctx->replica(r);
    std::optional<std::vector<CopyRegion>> regions;
    if (src.pinned && &src.pinned->device() == rep.device) {
      regions = host_regions(dst, view, src, true);
    }
    if (!regions) {
      staged.push_back(r);
      continue;
    }
    if (!copied) pin_readers(ctx, *leaf->buffer(), nullptr, &view);
    copied = true;
    record_host_copy(rep, *src.pinned, true, buf->vk_buffer(r), *regions, event);
  }
  if (copied) leaf->buffer()->bump_version();
  if (staged.empty()) return;
  // Staged: the bytes in C order, written through the array's own host path.
  const std::vector<int64_t> c_strides = c_byte_strides(src.shape, itemsize(src.dtype));
  std::vector<uint8_t> bytes;
  const uint8_t* data = src.data;
  if (src.strides != c_strides) {
    bytes.resize(n);
    host_copy(bytes.data(), c_strides, src.data, src.strides, src.shape, itemsize(src.dtype));
    data = bytes.data();
  }
  Array target = dst;  // shares dst's state: a storage view now
  if (staged.size() == static_cast<size_t>(ctx->num_replicas())) {
    target.write(data, n, std::nullopt);
  } else {
    for (int r : staged) target.write(data, n, r);
  }
  for (int r : staged) event.record(*ctx->replica(r).stream);
}

void download(Array& src, const HostView& dst, int replica, Event& event, const char* op) {
  check_match(op, src.shape(), src.dtype(), dst.shape, dst.dtype);
  const std::shared_ptr<Context>& ctx = src.context();
  Replica& rep = ctx->replica(replica);
  if (src.nbytes() == 0) return;
  src.eval();
  const NodePtr leaf = src.node();
  if (dst.pinned && &dst.pinned->device() == rep.device) {
    const View view = leaf->view();
    if (auto regions = host_regions(src, view, dst, false)) {
      auto buf = device_buffer(*leaf->buffer());
      record_host_copy(rep, *dst.pinned, false, buf->vk_buffer(replica), *regions, event);
      return;
    }
  }
  const std::vector<int64_t> c_strides = c_byte_strides(dst.shape, itemsize(dst.dtype));
  if (dst.strides == c_strides) {
    src.read(dst.data, src.nbytes(), replica);
    return;
  }
  std::vector<uint8_t> bytes(src.nbytes());
  src.read(bytes.data(), bytes.size(), replica);
  host_copy(dst.data, dst.strides, bytes.data(), c_strides, dst.shape, itemsize(dst.dtype));
}

void copy_device(Array& dst, Array& src, std::optional<int> replica, Event& event, const char* op) {
  check_match(op, dst.shape(), dst.dtype(), src.shape(), src.dtype(), "source region");
  if (dst.context() != src.context()) {
    throw ShapeError(std::string("[") + op + "] the arrays live on different contexts");
  }
  if (!dst.is_writeable()) {
    throw ShapeError(std::string("[") + op + "] the destination array is read-only");
  }
  const std::shared_ptr<Context>& ctx = dst.context();
  const std::vector<int> targets = replicas_of(*ctx, replica);
  if (dst.nbytes() == 0) return;
  src.eval();
  const NodePtr src_leaf = src.node();
  const NodePtr dst_leaf = dst.storage();
  const uint64_t isz = dst.itemsize();
  std::optional<std::vector<CopyRegion>> regions;
  // One buffer: copy commands must not overlap, and a kernel gives numpy's overlap result.
  if (src_leaf->buffer() != dst_leaf->buffer()) {
    const View& sv = src_leaf->view();
    const View& dv = dst_leaf->view();
    regions = plan_copy(dv.shape, isz, sv.offset * static_cast<int64_t>(isz), byte_strides(sv, isz),
                        dv.offset * static_cast<int64_t>(isz), byte_strides(dv, isz));
  }
  if (!regions) {
    write_into(ctx, dst_leaf, default_graph().convert(src_leaf, dst.dtype(), dst.shape()), replica);
  } else {
    pin_readers(ctx, *dst_leaf->buffer(), nullptr, &dst_leaf->view());
    auto from = device_buffer(*src_leaf->buffer());
    auto to = device_buffer(*dst_leaf->buffer());
    const std::vector<VkBufferCopy> vk = to_vk(*regions);
    for (int r : targets)
      ctx->replica(r).stream->copy_regions(from->vk_buffer(r), to->vk_buffer(r), vk);
    dst_leaf->buffer()->bump_version();
  }
  for (int r : targets) event.record(*ctx->replica(r).stream);
}

void zero(Array& a) {
  if (a.nbytes() == 0) return;
  if (!a.is_writeable()) throw ShapeError("[zero] the array is read-only");
  const NodePtr leaf = a.storage();
  const View& v = leaf->view();
  const uint64_t isz = a.itemsize();
  const uint64_t offset = static_cast<uint64_t>(v.offset) * isz;
  if (!v.is_contiguous() || offset % 4 != 0 || a.nbytes() % 4 != 0) {
    a.fill(0);
    return;
  }
  const std::shared_ptr<Context>& ctx = a.context();
  pin_readers(ctx, *leaf->buffer(), nullptr, &v);
  auto buf = device_buffer(*leaf->buffer());
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    ctx->replica(r).stream->fill(buf->vk_buffer(r), offset, a.nbytes(), 0);
  }
  leaf->buffer()->bump_version();
}

void wait_event(const Array& a, Event& event, std::optional<int> replica) {
  for (int r : replicas_of(*a.context(), replica)) {
    Replica& rep = a.context()->replica(r);
    event.enqueue_wait(*rep.stream);
    // The replica's host transfers run on its device's transfer stream: they wait too.
    if (Stream* t = rep.device->transfer_stream()) event.enqueue_wait(*t);
  }
}

Event record_event(const std::shared_ptr<Context>& context, std::optional<int> replica) {
  Event e(context);
  for (int r : replicas_of(*context, replica)) {
    Replica& rep = context->replica(r);
    e.record(*rep.stream);
    if (Stream* t = rep.device->transfer_stream()) e.record(*t);  // its host transfers
  }
  return e;
}

}  // namespace vka
