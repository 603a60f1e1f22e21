// Buffer: the seed Buffer API — a typed, N-dimensional block of device memory replicated on
// every replica of a context, with explicit per-replica host writes and reads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "device/buffer.h"
#include "device/context.h"
#include "ir/dtype.h"

namespace vka {

class Buffer {
 public:
  // ShapeError for a negative dimension or a size past the device's limits; DTypeError when a
  // device of the context cannot hold `dtype`; OutOfMemory when the driver runs out.
  Buffer(std::vector<int64_t> shape, DType dtype,
         std::shared_ptr<Context> context = Context::default_context());

  const std::vector<int64_t>& shape() const { return shape_; }
  DType dtype() const { return dtype_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const { return size_; }
  uint64_t nbytes() const { return static_cast<uint64_t>(size_) * itemsize(dtype_); }
  int num_replicas() const { return storage_->num_replicas(); }
  const std::shared_ptr<Context>& context() const { return storage_->context(); }
  const std::shared_ptr<ReplicatedBuffer>& storage() const { return storage_; }

  // `nbytes` must equal this buffer's nbytes (ShapeError otherwise, naming both), and `index`
  // must name a replica (IndexError); on error nothing is written. Unset `index`: every replica.
  void write(const void* data, uint64_t nbytes, std::optional<int> index = std::nullopt);
  void read(void* out, uint64_t nbytes, int index) const;

  template <typename T>
  void write(const std::vector<T>& data, std::optional<int> index = std::nullopt) {
    check_type(dtype_of_v<T>, "write");
    write(data.data(), data.size() * sizeof(T), index);
  }
  template <typename T>
  std::vector<T> read(int index) const {
    check_type(dtype_of_v<T>, "read");
    std::vector<T> out(static_cast<size_t>(size_));
    read(out.data(), out.size() * sizeof(T), index);
    return out;
  }

  std::string shape_string() const;  // "(2, 3)" as numpy prints it

 private:
  void check_type(DType requested, const char* op) const;

  std::vector<int64_t> shape_;
  DType dtype_;
  int64_t size_ = 1;
  std::shared_ptr<ReplicatedBuffer> storage_;
};

// "(2, 3)", "(5,)", "()".
std::string shape_to_string(const std::vector<int64_t>& shape);

}  // namespace vka
