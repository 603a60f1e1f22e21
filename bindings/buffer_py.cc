// Python binding of the seed Buffer API: vkarray.Buffer and vkarray.asbuffer.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "array/buffer.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/registry.h"
#include "device/context.h"

namespace vka {
namespace {

std::shared_ptr<Context> context_or_default(const std::shared_ptr<Context>& context) {
  return context ? context : Context::default_context();
}

// The replica `index` names (None: every replica), or IndexError naming the op and the range.
std::optional<int> checked_replica(const Buffer& b, py::handle index, const char* op) {
  std::optional<int> r = to_replica_index(index, op);
  if (r && *r >= b.num_replicas()) {
    throw IndexError(std::string("[") + op + "] replica index " + std::to_string(*r) +
                     " is out of range for a context with " + std::to_string(b.num_replicas()) +
                     " replica(s)");
  }
  return r;
}

// The Python-facing buffer. It keeps shape and dtype after _destroy() so that repr() and the
// error raised on later use can still say which buffer it was.
class PyBuffer {
 public:
  PyBuffer(std::vector<int64_t> shape, DType dtype, std::shared_ptr<Context> context)
      : shape_(shape), dtype_(dtype), context_(context_or_default(context)) {
    buffer_ = std::make_unique<Buffer>(std::move(shape), dtype, context_);
  }

  const std::vector<int64_t>& shape() const { return shape_; }
  DType dtype() const { return dtype_; }
  const std::shared_ptr<Context>& context() const { return context_; }
  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape_) n *= d;
    return n;
  }
  uint64_t nbytes() const { return static_cast<uint64_t>(size()) * itemsize(dtype_); }
  bool destroyed() const { return buffer_ == nullptr; }

  Buffer& live(const char* op) const {
    if (!buffer_) {
      throw std::runtime_error(std::string("[") + op + "] buffer of shape " +
                               shape_to_string(shape_) + " and dtype " + std::string(name(dtype_)) +
                               " was destroyed by _destroy()");
    }
    return *buffer_;
  }

  void destroy() { buffer_.reset(); }

  void write(py::handle data, py::handle index) {
    Buffer& b = live("write");
    // Convert and validate everything first: a write that fails leaves every replica intact.
    std::optional<int> replica = checked_replica(b, index, "write");
    HostData host = host_data_for_write(data, shape_, dtype_, "write");
    // The GIL stays held: it is what serializes Python threads' use of the device layer.
    b.write(host.ptr, host.nbytes, replica);
  }

  py::array read(py::handle index) const {
    Buffer& b = live("read");
    std::optional<int> replica = checked_replica(b, index, "read");
    if (replica) {
      py::array out(to_numpy_dtype(dtype_), std::vector<py::ssize_t>(shape_.begin(), shape_.end()));
      b.read(out.mutable_data(), nbytes(), *replica);
      return out;
    }
    std::vector<py::ssize_t> stacked = {b.num_replicas()};
    stacked.insert(stacked.end(), shape_.begin(), shape_.end());
    py::array out(to_numpy_dtype(dtype_), stacked);
    auto* bytes = static_cast<uint8_t*>(out.mutable_data());
    for (int r = 0; r < b.num_replicas(); ++r) b.read(bytes + r * nbytes(), nbytes(), r);
    return out;
  }

  std::string repr() const {
    std::string s =
        "vkarray.Buffer(shape=" + shape_to_string(shape_) + ", dtype=" + std::string(name(dtype_));
    if (destroyed()) return s + ", destroyed)";
    return s + ", replicas=" + std::to_string(buffer_->num_replicas()) + ")";
  }

 private:
  std::vector<int64_t> shape_;
  DType dtype_;
  std::shared_ptr<Context> context_;
  std::unique_ptr<Buffer> buffer_;
};

PyBuffer make_buffer(py::handle shape, py::handle dtype, std::shared_ptr<Context> context) {
  std::vector<int64_t> dims = to_shape(shape, "Buffer");
  DType t = dtype.is_none() ? DType::kFloat32 : to_dtype(dtype, "Buffer");
  return PyBuffer(std::move(dims), t, std::move(context));
}

PyBuffer asbuffer(py::handle data, std::shared_ptr<Context> context) {
  DType t;
  py::array a = as_supported_array(data, "asbuffer", &t);
  PyBuffer b(std::vector<int64_t>(a.shape(), a.shape() + a.ndim()), t, std::move(context));
  b.write(a, py::none());
  return b;
}

}  // namespace

void register_buffer(py::module_& m) {
  py::class_<PyBuffer>(m, "Buffer", R"doc(
A typed N-dimensional block of device memory with one copy (replica) per device and queue
of its context.

Buffer(shape, dtype=vkarray.float32, context=None): shape is an int or a tuple of ints (any
number of dimensions, 0-d and zero-size allowed); dtype is anything numpy accepts as a dtype;
context defaults to vkarray.context(). Contents start undefined.
)doc")
      .def(py::init(&make_buffer), py::arg("shape"), py::arg("dtype") = py::none(),
           py::arg("context") = nullptr)
      .def_property_readonly("shape", [](const PyBuffer& b) { return to_tuple(b.shape()); })
      .def_property_readonly("dtype", [](const PyBuffer& b) { return to_numpy_dtype(b.dtype()); })
      .def_property_readonly("size", &PyBuffer::size)
      .def_property_readonly("nbytes", &PyBuffer::nbytes)
      .def_property_readonly("ndim", [](const PyBuffer& b) { return b.shape().size(); })
      .def_property_readonly("itemsize", [](const PyBuffer& b) { return itemsize(b.dtype()); })
      .def_property_readonly("num_replicas",
                             [](const PyBuffer& b) { return b.context()->num_replicas(); })
      .def_property_readonly("context", &PyBuffer::context)
      .def("__len__",
           [](const PyBuffer& b) {
             if (b.shape().empty()) throw py::type_error("len() of a 0-d buffer");
             return b.shape()[0];
           })
      .def("__repr__", &PyBuffer::repr)
      .def("write", &PyBuffer::write, py::arg("data"), py::arg("index") = py::none(), R"doc(
Upload host data: to every replica when index is None, else to replica `index` (0 <= index <
num_replicas; negative indices raise IndexError).

data is bytes/bytearray/memoryview of exactly nbytes bytes, or an array-like whose shape equals
the buffer's shape or which is 1-d with `size` elements. Its dtype is converted only when no
value changes beyond float rounding: integers must fit the buffer's dtype, finite values must
not overflow to inf; float to integer, complex to real and anything but bool to bool raise
TypeError. Nothing is written when the call raises.
)doc")
      .def("read", &PyBuffer::read, py::arg("index") = py::none(), R"doc(
Download replica `index` as a numpy array of the buffer's shape and dtype; with index None,
every replica stacked on a new leading axis: shape (num_replicas, *shape).
)doc")
      .def("_destroy", &PyBuffer::destroy,
           "Free the device memory now; any later write or read raises RuntimeError.");

  m.def("asbuffer", &asbuffer, py::arg("array"), py::arg("context") = nullptr, R"doc(
Upload an array-like to a new Buffer on every replica of `context` (default: vkarray.context()).
The buffer takes the shape and dtype of numpy.asarray(array): a list of Python floats gives
float64, of ints int64.
)doc");
}

}  // namespace vka
