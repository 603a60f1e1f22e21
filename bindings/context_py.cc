// Python binding of contexts and devices: vkarray.Context, context(), set_context(),
// list_devices(), synchronize().
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "array/write.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/registry.h"
#include "device/context.h"
#include "device/memory_budget.h"

namespace vka {
namespace {

// A copy of one replica slot's description: it stays valid whatever happens to the context.
struct ReplicaInfo {
  int index;
  int device;           // index among the context's devices
  int physical_device;  // index in list_devices()
  int queue;
  std::string device_name;
  std::string label;
};

std::vector<int> to_device_list(py::handle devices) {
  std::vector<int> out;
  if (devices.is_none()) return out;
  if (py::isinstance<py::sequence>(devices) && !py::isinstance<py::str>(devices)) {
    for (py::handle d : py::reinterpret_borrow<py::sequence>(devices)) {
      out.push_back(to_replica_index(d, "Context", "device index").value());
    }
    if (out.empty()) throw ShapeError("[Context] devices=[] names no device");
    return out;
  }
  out.push_back(to_replica_index(devices, "Context", "device index").value());
  return out;
}

// memory_budget= and max_storage_buffer_range=: bytes (an int) or a size string ("512M").
std::optional<uint64_t> to_byte_size(py::handle value, const std::string& what) {
  if (value.is_none()) return std::nullopt;
  if (py::isinstance<py::str>(value)) {
    return parse_byte_size(value.cast<std::string>(), what);
  }
  if (py::isinstance<py::bool_>(value) || !py::hasattr(value, "__index__")) {
    throw DTypeError("[Context] " + what +
                     " must be an int (bytes), a size string such as "
                     "'512M', or None, got " +
                     std::string(py::repr(value)));
  }
  py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
  if (!v) throw py::error_already_set();
  int overflow = 0;
  const long long n = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow != 0 || n <= 0) {
    throw ShapeError("[Context] " + what + " must be a positive number of bytes, got " +
                     std::string(py::repr(value)));
  }
  return static_cast<uint64_t>(n);
}

// One dict per heap of each device: what vkarray uses and may use (docs/device.md, "Memory").
py::list memory_info(Context& c) {
  py::list out;
  for (int i = 0; i < c.num_devices(); ++i) {
    const MemoryBudget& b = c.device(i).memory_budget();
    for (uint32_t h = 0; h < b.heap_count(); ++h) {
      const HeapState s = b.state(h);
      py::dict d;
      d["device"] = i;
      d["heap"] = h;
      d["size"] = s.size;
      d["budget"] = s.budget;
      d["used"] = s.used;
      d["free"] = s.free();
      d["device_used"] = s.device_used;
      d["source"] = s.source == BudgetSource::kDriver     ? "VK_EXT_memory_budget"
                    : s.source == BudgetSource::kHeapSize ? "heap size"
                                                          : "memory_budget";
      out.append(d);
    }
  }
  return out;
}

std::shared_ptr<Context> make_context(py::handle devices, int queues_per_device,
                                      std::optional<bool> validate, const std::string& host_access,
                                      std::vector<std::string> disable_features,
                                      std::optional<std::string> transfer_queue,
                                      py::handle memory_budget,
                                      py::handle max_storage_buffer_range) {
  ContextOptions options;
  options.memory_budget = to_byte_size(memory_budget, "memory_budget");
  options.max_storage_buffer_range =
      to_byte_size(max_storage_buffer_range, "max_storage_buffer_range");
  if (transfer_queue) {
    if (*transfer_queue == "auto") {
      options.transfer_queue = TransferQueue::kAuto;
    } else if (*transfer_queue == "off") {
      options.transfer_queue = TransferQueue::kOff;
    } else if (*transfer_queue == "shared") {
      options.transfer_queue = TransferQueue::kShared;
    } else {
      throw ShapeError("[Context] transfer_queue must be 'auto', 'off' or 'shared', got '" +
                       *transfer_queue + "'");
    }
  }
  options.disable_features = std::move(disable_features);
  options.devices = to_device_list(devices);
  options.queues_per_device = queues_per_device;
  options.validate = validate;
  if (host_access == "auto") {
    options.host_access = HostAccess::kAuto;
  } else if (host_access == "staging") {
    options.host_access = HostAccess::kStaging;
  } else {
    throw ShapeError("[Context] host_access must be 'auto' or 'staging', got '" + host_access +
                     "'");
  }
  return Context::create(std::move(options));
}

std::vector<ReplicaInfo> replicas_of(const Context& c) {
  std::vector<ReplicaInfo> out;
  for (int i = 0; i < c.num_replicas(); ++i) {
    const Replica& r = c.replica(i);
    out.push_back({r.index, r.device_index, r.device->physical_index(), r.queue_index,
                   r.device->caps().device_name, r.label()});
  }
  return out;
}

py::list devices_of(const Context& c) {
  py::list out;
  for (int i = 0; i < c.num_devices(); ++i) {
    const Caps& caps = c.device(i).caps();
    py::dict d;
    d["index"] = i;
    d["physical_index"] = c.device(i).physical_index();
    d["name"] = caps.device_name;
    d["driver"] = caps.driver_name;
    d["num_queues"] = c.device(i).num_queues();
    d["transfer_queue"] = c.device(i).transfer_queue_description();
    d["max_storage_buffer_range"] = caps.max_storage_buffer_range;
    d["device_local_bytes"] = caps.device_local_bytes;
    d["host_visible_device_memory"] = caps.host_visible_device_memory;
    d["shader_float64"] = caps.shader_float64;
    d["shader_int64"] = caps.shader_int64;
    d["shader_float16"] = caps.shader_float16;
    d["is_cpu"] = caps.is_cpu;
    // float16 products on cooperative matrices (tensor cores), whose float32 accumulation
    // truncates (docs/accuracy.md, "Matrix products").
    d["cooperative_matrix_float16"] = caps.cooperative_matrix_f16;
    // Whether results below the smallest normal value are kept (numpy keeps them) or flushed.
    d["denorm_preserve_float16"] = caps.denorm_preserve_float16;
    d["denorm_preserve_float32"] = caps.denorm_preserve_float32;
    d["denorm_preserve_float64"] = caps.denorm_preserve_float64;
    out.append(d);
  }
  return out;
}

std::string context_repr(const Context& c) {
  std::string s = "vkarray.Context(";
  for (int i = 0; i < c.num_replicas(); ++i) s += (i ? "; " : "") + c.replica(i).label();
  return s + ")";
}

}  // namespace

void register_context(py::module_& m) {
  py::class_<ReplicaInfo>(m, "Replica", "One replica slot of a context: a queue of a device.")
      .def_readonly("index", &ReplicaInfo::index)
      .def_readonly("device", &ReplicaInfo::device)
      .def_readonly("physical_device", &ReplicaInfo::physical_device)
      .def_readonly("queue", &ReplicaInfo::queue)
      .def_readonly("device_name", &ReplicaInfo::device_name)
      .def("__repr__", [](const ReplicaInfo& r) { return "<" + r.label + ">"; });

  py::class_<Context, std::shared_ptr<Context>>(m, "Context", R"doc(
Vulkan devices and their compute queues; each (device, queue) pair is a replica slot, and
every buffer has one copy per replica.

Context(devices=None, queues_per_device=1, validate=None, host_access="auto",
disable_features=(), transfer_queue=None): devices is a
list of indices into vkarray.list_devices() (an index may repeat: several logical devices on
one physical device), default VKA_DEVICE or the best device; validate turns on the Khronos
validation layer (default: VKA_VALIDATE); host_access "staging" sends every transfer through
the staging pool even where device memory is host-visible; disable_features leaves optional
device features off ("float64", "int64", "int16", "int8", "float16", "subgroup_ballot",
"subgroup_arithmetic"), as a smaller device would;
transfer_queue says which queue copies between HostArrays and device arrays (default:
VKA_TRANSFER_QUEUE, else "auto"): "auto" the device's dedicated transfer queue family (its
copy engines, which run beside kernels) where it has one, else the replica's own queue;
"off" always the replica's own queue; "shared" a second stream on the replica's queue (the
synchronization of a dedicated queue, on any device). context.transfer_queue says which was
opened: "dedicated family N", "shared" or "none". memory_budget (bytes, or a size such as
"512M"; default VKA_MEMORY_BUDGET, else none) caps what each device of the context allocates
of each memory heap, below what the device allows: an allocation past it raises MemoryError.
max_storage_buffer_range (bytes or a size, at least 1024; default VKA_MAX_STORAGE_BUFFER_RANGE,
else the device's) binds at most that much of a buffer per descriptor, so that small arrays
take the paths of operands larger than a binding.
)doc")
      .def(py::init(&make_context), py::arg("devices") = py::none(),
           py::arg("queues_per_device") = 1, py::arg("validate") = py::none(),
           py::arg("host_access") = "auto",
           py::arg("disable_features") = std::vector<std::string>{},
           py::arg("transfer_queue") = py::none(), py::arg("memory_budget") = py::none(),
           py::arg("max_storage_buffer_range") = py::none())
      .def_property_readonly("num_replicas", &Context::num_replicas)
      .def_property_readonly("num_devices", &Context::num_devices)
      .def_property_readonly("replicas", &replicas_of)
      .def_property_readonly("devices", &devices_of, "One dict of facts per logical device.")
      .def_property_readonly("validating", &Context::validating)
      .def_property_readonly("transfer_queue", &Context::transfer_queue,
                             "Which queue HostArray transfers use: \"dedicated family N\", "
                             "\"shared\" or \"none\" (the replica's own queue).")
      .def("describe", &Context::describe, "One line per replica: device, driver, API version.")
      .def(
          "synchronize",
          [](Context& c) {
            run_recorded_writes();
            c.synchronize();
          },
          "Run every recorded write and wait for all work on every replica.")
      .def("memory_info", &memory_info,
           "One dict per memory heap of each device: device, heap, size, budget, used, free, "
           "device_used (this device's allocations) and source (\"VK_EXT_memory_budget\", "
           "\"heap size\" or \"memory_budget\": the tightest budget that applies).")
      .def("release_cached_memory", &Context::release_cached_memory,
           "Wait for all work, then give memory kept for reuse back to the driver.")
      .def("__repr__", &context_repr);

  m.def("context", &Context::default_context,
        "The process default context, created on first use (VKA_DEVICE, VKA_VALIDATE).");
  m.def(
      "set_context",
      [](std::shared_ptr<Context> c) {
        if (!c) throw py::type_error("[set_context] expected a vkarray.Context, got None");
        Context::set_default(std::move(c));
      },
      py::arg("context"), "Make `context` the process default for buffers created later.");
  m.def(
      "list_devices",
      [] {
        py::list out;
        for (const PhysicalDeviceInfo& d : list_physical_devices()) {
          py::dict e;
          e["index"] = d.index;
          e["name"] = d.name;
          e["type"] = d.type;
          out.append(e);
        }
        return out;
      },
      "The Vulkan physical devices: dicts with index, name and type.");
  m.def(
      "synchronize",
      [] {
        run_recorded_writes();
        Context::default_context()->synchronize();
      },
      "Run every recorded write and wait for all work on every replica of the default context.");
  m.def(
      "_finish_default",
      [] {
        if (auto ctx = Context::default_if_created()) ctx->synchronize();
      },
      "Wait for the default context's work, if a default context exists (used at exit).");
}

}  // namespace vka
