// The seed Buffer API over ReplicatedBuffer.
#include "array/buffer.h"

#include <limits>

#include "base/errors.h"
#include "runtime/device_support.h"

namespace vka {

std::string shape_to_string(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}

Buffer::Buffer(std::vector<int64_t> shape, DType dtype, std::shared_ptr<Context> context)
    : shape_(std::move(shape)), dtype_(dtype) {
  for (int64_t d : shape_) {
    if (d < 0) {
      throw ShapeError("[Buffer] negative dimension " + std::to_string(d) + " in shape " +
                       shape_to_string(shape_));
    }
  }
  // Past int64 bytes is numpy's ValueError ("array is too big"); below, the device decides
  // (OutOfMemory when it cannot hold them).
  const uint64_t limit =
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / itemsize(dtype_);
  uint64_t size = 1;
  for (int64_t d : shape_) {
    if (d != 0 && size > limit / static_cast<uint64_t>(d)) {
      throw ShapeError("[Buffer] shape " + shape_to_string(shape_) + " of " +
                       std::string(name(dtype_)) + " is too large to address");
    }
    size *= static_cast<uint64_t>(d);
  }
  size_ = static_cast<int64_t>(size);
  require_dtype(*context, dtype_, "Buffer");
  storage_ = std::make_shared<ReplicatedBuffer>(std::move(context), nbytes());
}

std::string Buffer::shape_string() const { return shape_to_string(shape_); }

void Buffer::check_type(DType requested, const char* op) const {
  if (requested != dtype_) {
    throw DTypeError(std::string("[") + op + "] buffer holds " + std::string(name(dtype_)) +
                     ", not " + std::string(name(requested)));
  }
}

void Buffer::write(const void* data, uint64_t n, std::optional<int> index) {
  if (n != nbytes()) {
    throw ShapeError("[write] data of " + std::to_string(n) + " bytes does not match buffer " +
                     shape_string() + " " + std::string(name(dtype_)) + " of " +
                     std::to_string(nbytes()) + " bytes");
  }
  storage_->write(data, 0, n, index);
}

void Buffer::read(void* out, uint64_t n, int index) const {
  if (n != nbytes()) {
    throw ShapeError("[read] destination of " + std::to_string(n) +
                     " bytes does not match buffer " + shape_string() + " of " +
                     std::to_string(nbytes()) + " bytes");
  }
  storage_->read(out, 0, n, index);
}

}  // namespace vka
