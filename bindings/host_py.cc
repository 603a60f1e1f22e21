// Python binding of explicit transfers: pinned host memory (the storage of vkarray.HostArray),
// mapped device memory (vkarray.mapped_empty), vkarray.Event, and the transfer primitives
// that bindings/vkarray/_host.py builds the public methods from.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "array/buffer.h"
#include "array/transfer.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"
#include "device/event.h"
#include "device/host_memory.h"
#include "device/stream.h"
#include "runtime/device_support.h"
#include "runtime/realize.h"

namespace vka {
namespace {

using Ctx = std::shared_ptr<Context>;

// Pinned host memory holding a (padded) array: what a HostArray's buffer is.
struct HostMemory {
  std::shared_ptr<HostBuffer> buffer;
  Shape shape, padded;
  DType dtype;
};

HostMemory make_host_memory(py::handle shape, py::handle dtype, py::handle padded_shape,
                            Ctx context, int device) {
  HostMemory m;
  m.shape = to_shape(shape, "HostArray");
  m.padded = padded_shape.is_none() ? m.shape : to_shape(padded_shape, "HostArray");
  m.dtype = to_dtype(dtype, "HostArray");
  if (m.padded.size() != m.shape.size()) {
    throw ShapeError("[HostArray] padded_shape " + shape_to_string(m.padded) + " and shape " +
                     shape_to_string(m.shape) + " differ in length");
  }
  for (size_t k = 0; k < m.shape.size(); ++k) {
    if (m.padded[k] < m.shape[k]) {
      throw ShapeError("[HostArray] padded_shape " + shape_to_string(m.padded) +
                       " is smaller than shape " + shape_to_string(m.shape) + " on axis " +
                       std::to_string(k));
    }
  }
  const uint64_t nbytes = static_cast<uint64_t>(size(m.padded)) * itemsize(m.dtype);
  m.buffer = std::make_shared<HostBuffer>(context_or_default(std::move(context)), device, nbytes);
  return m;
}

// Host memory of one replica of a MappedBuffer, as a Python buffer.
struct MappedMemory {
  std::shared_ptr<MappedBuffer> mapped;
  // The buffer as the graph sees it, once device_array made it (weak: the array owns it).
  std::shared_ptr<std::weak_ptr<BufferRef>> ref;
  int replica = 0;
};

struct PyEvent {
  Event event;
  py::list keep;  // the host and device arrays of the transfer, until it completes
  bool is_done() {
    if (!event.is_done()) return false;
    keep = py::list();
    return true;
  }
  void wait() {
    event.wait();
    keep = py::list();
  }
};

// The HostMemory whose bytes hold all of `a`, found along a's chain of bases.
const HostMemory* pinned_memory(const py::array& a) {
  py::object obj = py::reinterpret_borrow<py::object>(a);
  while (!obj.is_none()) {
    if (py::isinstance<HostMemory>(obj)) return &obj.cast<const HostMemory&>();
    if (py::isinstance<py::memoryview>(obj)) {
      obj = obj.attr("obj");
      continue;
    }
    if (!py::hasattr(obj, "base")) return nullptr;
    obj = obj.attr("base");
  }
  return nullptr;
}

HostView host_view(py::handle host, const char* op, bool writing) {
  if (!py::isinstance<py::array>(host)) {
    throw py::type_error(std::string("[") + op + "] the host array must be a numpy array " +
                         "(vkarray.HostArray for the fast path), not " +
                         std::string(py::str(py::type::of(host).attr("__name__"))));
  }
  py::array a = py::reinterpret_borrow<py::array>(host);
  if (writing && !a.writeable()) {
    throw ShapeError(std::string("[") + op + "] the host array is read-only");
  }
  HostView v;
  v.dtype = to_dtype(a.dtype(), op);
  v.data = static_cast<uint8_t*>(const_cast<void*>(a.data()));
  for (py::ssize_t k = 0; k < a.ndim(); ++k) {
    v.shape.push_back(a.shape(k));
    v.strides.push_back(a.strides(k));
  }
  const HostMemory* mem = pinned_memory(a);
  if (!mem || size(v.shape) == 0) return v;
  // Pinned only when every byte the view touches lies in the memory.
  int64_t lo = 0, hi = static_cast<int64_t>(itemsize(v.dtype));
  for (size_t k = 0; k < v.shape.size(); ++k) {
    const int64_t span = (v.shape[k] - 1) * v.strides[k];
    (span < 0 ? lo : hi) += span;
  }
  auto* base = static_cast<uint8_t*>(mem->buffer->data());
  const int64_t offset = v.data - base;
  if (offset + lo < 0 || offset + hi > static_cast<int64_t>(mem->buffer->nbytes())) return v;
  v.pinned = mem->buffer.get();
  if (offset == 0 && v.dtype == mem->dtype && v.shape == mem->shape &&
      v.strides == c_byte_strides(mem->padded, itemsize(mem->dtype))) {
    v.padded = mem->padded;
  }
  return v;
}

PyEvent* make_event(const Ctx& ctx, py::handle device_array, py::handle host) {
  auto* ev = new PyEvent{Event(ctx), py::list()};
  ev->keep.append(device_array);
  if (host) ev->keep.append(host);
  return ev;
}

py::object finish(PyEvent* ev, bool wait) {
  auto owned = std::unique_ptr<PyEvent>(ev);
  if (wait) {
    owned->wait();
    return py::none();
  }
  return py::cast(owned.release(), py::return_value_policy::take_ownership);
}

}  // namespace

void register_host(py::module_& m) {
  py::class_<HostMemory>(m, "_HostMemory", py::buffer_protocol())
      .def(py::init(&make_host_memory), py::arg("shape"), py::arg("dtype"),
           py::arg("padded_shape") = py::none(), py::arg("context") = nullptr,
           py::arg("device") = 0)
      .def_buffer([](HostMemory& h) {
        return py::buffer_info(h.buffer->data(), 1, py::format_descriptor<uint8_t>::format(), 1,
                               {static_cast<py::ssize_t>(h.buffer->nbytes())}, {1});
      })
      .def_property_readonly("shape", [](const HostMemory& h) { return to_tuple(h.shape); })
      .def_property_readonly("padded_shape", [](const HostMemory& h) { return to_tuple(h.padded); })
      .def_property_readonly(
          "strides",
          [](const HostMemory& h) { return to_tuple(c_byte_strides(h.padded, itemsize(h.dtype))); })
      .def_property_readonly("context", [](const HostMemory& h) { return h.buffer->context(); })
      .def_property_readonly("device", [](const HostMemory& h) { return h.buffer->device_index(); })
      .def_property_readonly("host_cached",
                             [](const HostMemory& h) { return h.buffer->host_cached(); });

  py::class_<MappedMemory>(m, "_MappedMemory", py::buffer_protocol())
      .def(py::init([](uint64_t nbytes, bool require_coherent, bool force_non_coherent,
                       Ctx context) {
             MappedOptions o;
             o.require_coherent = require_coherent;
             o.force_non_coherent = force_non_coherent;
             auto mapped =
                 std::make_shared<MappedBuffer>(context_or_default(std::move(context)), nbytes, o);
             return MappedMemory{std::move(mapped), std::make_shared<std::weak_ptr<BufferRef>>()};
           }),
           py::arg("nbytes"), py::arg("require_coherent") = false,
           py::arg("force_non_coherent") = false, py::arg("context") = nullptr)
      .def_buffer([](MappedMemory& mm) {
        return py::buffer_info(mm.mapped->host_ptr(mm.replica), 1,
                               py::format_descriptor<uint8_t>::format(), 1,
                               {static_cast<py::ssize_t>(mm.mapped->nbytes())}, {1});
      })
      .def("for_replica",
           [](const MappedMemory& mm, int r) {
             mm.mapped->host_ptr(r);  // IndexError
             return MappedMemory{mm.mapped, mm.ref, r};
           })
      .def_property_readonly("replica", [](const MappedMemory& mm) { return mm.replica; })
      .def_property_readonly("nbytes", [](const MappedMemory& mm) { return mm.mapped->nbytes(); })
      .def_property_readonly("is_coherent",
                             [](const MappedMemory& mm) { return mm.mapped->is_coherent(); })
      .def_property_readonly(
          "non_coherent_atom_size",
          [](const MappedMemory& mm) { return mm.mapped->non_coherent_atom_size(); })
      .def(
          "flush",
          [](MappedMemory& mm, uint64_t offset, std::optional<uint64_t> size) {
            mm.mapped->flush(mm.replica, offset, size);
            // Host writes change the buffer: expressions made from now on are new nodes, so
            // none reuses a value computed before (as after any write, array/write.h).
            if (auto ref = mm.ref->lock()) ref->bump_version();
          },
          py::arg("offset") = 0, py::arg("size") = py::none())
      .def(
          "invalidate",
          [](MappedMemory& mm, uint64_t offset, std::optional<uint64_t> size) {
            mm.mapped->invalidate(mm.replica, offset, size);
          },
          py::arg("offset") = 0, py::arg("size") = py::none())
      .def("device_array", [](const MappedMemory& mm, py::handle shape, py::handle dtype) {
        const Shape s = to_shape(shape, "mapped_empty");
        const DType t = to_dtype(dtype, "mapped_empty");
        const Ctx& ctx = mm.mapped->buffer()->context();
        require_dtype(*ctx, t, "mapped_empty");
        VKA_ASSERT(static_cast<uint64_t>(size(s)) * itemsize(t) == mm.mapped->nbytes());
        Array a = storage_array(mm.mapped->buffer(), s, t, ctx);
        *mm.ref = a.node()->buffer();
        return a;
      });

  py::class_<PyEvent>(m, "Event", R"doc(
The completion of asynchronous work (set_async, get_async, copy_region(..., wait=False),
vkarray.record_event). ev.wait() blocks until it completes; ev.is_done() polls. Device arrays
can wait for it on the device instead: x.wait_event(ev) makes the work later submitted on x's
replicas wait for it without blocking the host (on the host where it ran on another device).
The event keeps the host and device arrays of its transfer alive until it is seen complete;
a host array must not be changed (set_async) or read (get_async) before then.
)doc")
      .def("wait", &PyEvent::wait, "Block until the work has completed.")
      .def("is_done", &PyEvent::is_done, "True once the work has completed (never blocks).")
      .def("__repr__", [](PyEvent& e) {
        return std::string("vkarray.Event(") + (e.is_done() ? "done" : "pending") + ")";
      });

  m.def(
      "record_event",
      [](std::optional<int> index, Ctx context) {
        Ctx ctx = context_or_default(std::move(context));
        return new PyEvent{record_event(ctx, index), py::list()};
      },
      py::arg("index") = py::none(), py::kw_only(), py::arg("context") = nullptr,
      py::return_value_policy::take_ownership,
      "An Event that completes when the work submitted so far on the replicas of the context "
      "(every one, or replica `index`) completes.");

  m.def("_upload", [](py::object x, py::handle host, py::handle index, bool wait, const char* op) {
    std::optional<int> r = to_replica_index(index, op);
    Array& a = x.cast<Array&>();
    HostView v = host_view(host, op, false);
    PyEvent* ev = make_event(a.context(), x, host);
    try {
      upload(a, v, r, ev->event, op);
    } catch (...) {
      delete ev;
      throw;
    }
    return finish(ev, wait);
  });
  m.def("_download",
        [](py::object x, py::handle host, py::handle index, bool wait, const char* op) {
          std::optional<int> r = to_replica_index(index, op);
          Array& a = x.cast<Array&>();
          HostView v = host_view(host, op, true);
          PyEvent* ev = make_event(a.context(), x, host);
          try {
            download(a, v, r.value_or(0), ev->event, op);
          } catch (...) {
            delete ev;
            throw;
          }
          return finish(ev, wait);
        });
  m.def("_copy_device", [](py::object dst, py::object src, py::handle index, bool wait) {
    std::optional<int> r = to_replica_index(index, "copy_region");
    Array& d = dst.cast<Array&>();
    Array& s = src.cast<Array&>();
    PyEvent* ev = make_event(d.context(), dst, src);
    try {
      copy_device(d, s, r, ev->event);
    } catch (...) {
      delete ev;
      throw;
    }
    return finish(ev, wait);
  });
  m.def("_zero", [](Array& a) { zero(a); });
  m.def("_wait_event", [](const Array& a, PyEvent& ev, py::handle index) {
    wait_event(a, ev.event, to_replica_index(index, "wait_event"));
  });
  m.def(
      "_empty_padded",
      [](py::handle shape, py::handle padded, py::handle dtype, Ctx context) {
        return empty_padded(to_shape(shape, "DeviceArray"), to_shape(padded, "DeviceArray"),
                            to_dtype(dtype, "DeviceArray"), context_or_default(std::move(context)));
      },
      py::arg("shape"), py::arg("padded_shape"), py::arg("dtype"), py::arg("context") = nullptr);
  m.def("_padded_shape", [](const Array& a) -> py::object {
    std::optional<Shape> p = padded_shape(a);
    return p ? py::object(to_tuple(*p)) : py::object(py::none());
  });
}

}  // namespace vka
