// Python binding of replicas (array/replicas.h): the replica scope, cross-replica operations,
// copy and queue counters. The pure-Python vkarray.replicas namespace wraps these.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>

#include "array/replicas.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/registry.h"
#include "device/context.h"
#include "device/cross_device.h"
#include "device/stream.h"

namespace vka {
namespace {

// `with vkarray.replica(i):` — the scope is entered and left with the with-statement (scopes
// nest, per thread).
class PyReplicaScope {
 public:
  explicit PyReplicaScope(int index) : index_(index) {
    if (index < 0) {
      throw IndexError("[replica] replica index " + std::to_string(index) + " is negative");
    }
  }
  void enter() {
    if (scope_) throw py::value_error("[replica] this scope is already entered");
    scope_ = std::make_unique<ReplicaScope>(index_);
  }
  void exit() { scope_.reset(); }
  int index() const { return index_; }

 private:
  int index_;
  std::unique_ptr<ReplicaScope> scope_;
};

py::dict stats_dict(const StreamStats& s) {
  py::dict d;
  d["dispatches"] = s.dispatches;
  d["copies"] = s.copies;
  d["barriers"] = s.barriers;
  d["submits"] = s.submits;
  d["queue_waits"] = s.queue_waits;
  return d;
}

}  // namespace

void register_replicas(py::module_& m) {
  py::class_<PyReplicaScope>(m, "_ReplicaScope")
      .def(py::init<int>(), py::arg("index"))
      .def_property_readonly("index", &PyReplicaScope::index)
      .def("__enter__",
           [](py::object self) {
             self.cast<PyReplicaScope&>().enter();
             return self;
           })
      .def("__exit__", [](PyReplicaScope& s, py::args) {
        s.exit();
        return false;
      });
  m.def("_current_replica", &current_replica,
        "The replica of the innermost `with vkarray.replica(i)` on this thread, or None.");
  m.def(
      "_replicas_broadcast",
      [](const Array& x, int src) { return replicas_broadcast(x, src); }, py::arg("x"),
      py::arg("src"));
  m.def(
      "_replicas_gather", [](const Array& x) { return replicas_gather(x); }, py::arg("x"));
  m.def(
      "_replicas_all_reduce",
      [](const Array& x, const std::string& op) { return replicas_all_reduce(x, op); },
      py::arg("x"), py::arg("op"));
  m.def("_replica_copy_stats", [] {
    const ReplicaCopyStats s = replica_copy_stats();
    py::dict d;
    d["same_queue"] = s.same_queue;
    d["queue_to_queue"] = s.queue_to_queue;
    d["host"] = s.host;
    d["shared_host"] = s.shared_host;
    d["staged_host"] = s.staged_host;
    d["host_chunks"] = s.host_chunks;
    return d;
  });
  m.def(
      "_replica_paths",
      [](const std::shared_ptr<Context>& ctx) {
        py::list out;
        for (int i = 0; i < ctx->num_devices(); ++i) {
          for (int j = 0; j < ctx->num_devices(); ++j) {
            if (i == j) continue;
            const PeerInfo p = peer_info(*ctx, i, j);
            py::dict d;
            d["devices"] = py::make_tuple(i, j);
            d["path"] = name(p.path);
            d["external_memory_host"] = p.external_memory_host;
            d["device_group"] = p.device_group;
            d["same_uuid"] = p.same_uuid;
            out.append(d);
          }
        }
        return out;
      },
      py::arg("context"));
  m.def("_cross_device_options", [] {
    const CrossDeviceOptions o = cross_device_options();
    py::dict d;
    d["chunk_bytes"] = o.chunk_bytes;
    d["slots"] = o.slots;
    d["shared_host"] = o.shared_host;
    return d;
  });
  m.def(
      "_set_cross_device_options",
      [](uint64_t chunk_bytes, int slots, bool shared_host) {
        CrossDeviceOptions o;
        o.chunk_bytes = chunk_bytes;
        o.slots = slots;
        o.shared_host = shared_host;
        set_cross_device_options(o);
      },
      py::arg("chunk_bytes"), py::arg("slots"), py::arg("shared_host"));
  m.def(
      "_stream_stats",
      [](const std::shared_ptr<Context>& ctx) {
        py::list out;
        for (int r = 0; r < ctx->num_replicas(); ++r) {
          Stream& s = *ctx->replica(r).stream;
          py::dict d = stats_dict(s.stats());
          d["completed_value"] = s.completed_value();
          d["pending_value"] = s.pending_value();
          out.append(d);
        }
        return out;
      },
      py::arg("context"));
  m.def(
      "_transfer_stream_stats",
      [](const std::shared_ptr<Context>& ctx, int device) -> py::object {
        Stream* s = ctx->device(device).transfer_stream();
        if (!s) return py::none();
        py::dict d = stats_dict(s->stats());
        d["completed_value"] = s->completed_value();
        d["pending_value"] = s->pending_value();
        return std::move(d);
      },
      py::arg("context"), py::arg("device") = 0);
}

}  // namespace vka
