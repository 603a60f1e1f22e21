// vka::Array's host transfers: reads of a replica into host memory, writes from it (in place for
// storage arrays, one replica or all).
#include <optional>

#include "array/array.h"
#include "array/replicas.h"
#include "array/write.h"
#include "base/errors.h"
#include "device/stream.h"
#include "runtime/realize.h"

namespace vka {

void Array::read(void* out, uint64_t n, int replica) const {
  if (n != nbytes()) {
    throw ShapeError("[read] destination of " + std::to_string(n) + " bytes does not match " +
                     std::string(name(dtype())) + " array of " + std::to_string(nbytes()) +
                     " bytes");
  }
  context()->replica(replica);  // IndexError before any work
  if (n == 0) return;
  // Outside a replica scope a lazy value is computed on every replica (reads of the others
  // follow); inside one, on that replica. Other replicas' values are computed where they are
  // missing, the first time they are read.
  const std::optional<int> where = current_replica();
  NodePtr leaf = node();
  if (!leaf->is_leaf()) {
    leaf = realize(context(), {leaf}, where)[0];
    state_->node = leaf;
  }
  if (!leaf->view().is_contiguous()) {  // a strided view: gather it on the device first
    leaf = realize(context(), {default_graph().elementwise(Op::kAstype, dtype(), {leaf})},
                   replica)[0];
  }
  if (context()->num_replicas() > 1) flush(*context());  // all queues work while the host waits
  device_buffer(*leaf->buffer())->read(out, leaf->view().offset * itemsize(), n, replica);
}

void Array::write(const void* data, uint64_t n, std::optional<int> replica) {
  if (n != nbytes()) {
    throw ShapeError("[write] data of " + std::to_string(n) + " bytes does not match " +
                     std::string(name(dtype())) + " array of " + std::to_string(nbytes()) +
                     " bytes");
  }
  if (replica) context()->replica(*replica);
  if (is_storage()) {  // in place, where every view sees it
    const NodePtr& leaf = node();
    pin_readers(context(), *leaf->buffer(), nullptr, &leaf->view());
    if (leaf->view().is_contiguous()) {
      device_buffer(*leaf->buffer())->write(data, leaf->view().offset * itemsize(), n, replica);
      leaf->buffer()->bump_version();
    } else {
      auto tmp = allocate_for(context(), dtype(), shape());
      device_buffer(*tmp)->write(data, 0, n, replica);
      NodePtr src = default_graph().buffer(tmp, dtype(), View::contiguous(shape()));
      write_into(context(), leaf, default_graph().convert(src, dtype(), shape()), replica);
    }
    return;
  }
  // Writing every replica replaces the value outright. Writing one keeps the others' values:
  // in place when this array alone holds its buffer (expressions reading it are computed
  // first), else into a fresh buffer whose other replicas take the old value from the old
  // expression the first time they are needed (nothing is computed or copied before).
  if (replica && context()->num_replicas() > 1) {
    if (owns_buffer()) {
      const NodePtr& leaf = node();
      pin_readers(context(), *leaf->buffer());
      device_buffer(*leaf->buffer())->write(data, 0, n, replica);
      leaf->buffer()->bump_version();
      return;
    }
    auto ref = allocate_for(context(), dtype(), shape());
    NodePtr old = node();
    std::weak_ptr<BufferRef> weak = ref;
    std::shared_ptr<Context> ctx = context();
    device_buffer(*ref)->set_valid_only({*replica}, [ctx, old, weak](int r) {
      std::shared_ptr<BufferRef> dest = weak.lock();
      VKA_ASSERT(dest != nullptr);
      const View whole = View::contiguous(old->shape());
      realize(ctx, {old}, r, {default_graph().buffer(dest, old->dtype(), whole)});
    });
    device_buffer(*ref)->write(data, 0, n, replica);
    assign(default_graph().buffer(ref, dtype(), View::contiguous(shape())));
    return;
  }
  auto ref = allocate_for(context(), dtype(), shape());
  device_buffer(*ref)->write(data, 0, n, std::nullopt);
  assign(default_graph().buffer(ref, dtype(), View::contiguous(shape())));
}

void Array::check_host_type(DType requested) const {
  if (requested != dtype()) {
    throw DTypeError("[read] array holds " + std::string(name(dtype())) + ", not " +
                     std::string(name(requested)));
  }
}

}  // namespace vka
