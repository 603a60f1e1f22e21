// User kernels, sequences and the profiler (array/user_kernel.h, sequence.h, profile.h): the
// core classes under vkarray.Kernel, vkarray.Sequence and vkarray.profile
// (vkarray/_kernels.py converts push and specialization constants and documents them).
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "array/sequence.h"
#include "array/user_kernel.h"
#include "base/errors.h"
#include "bindings/registry.h"
#include "runtime/profile.h"

namespace py = pybind11;

namespace vka {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes to_bytes(const py::bytes& b) {
  const std::string s = b;
  return Bytes(s.begin(), s.end());
}

std::optional<std::array<uint32_t, 3>> dims3(const std::optional<std::vector<int64_t>>& v,
                                             const std::string& what) {
  if (!v) return std::nullopt;
  if (v->empty() || v->size() > 3) {
    throw ShapeError("[Kernel] " + what + " takes 1 to 3 values, got " + std::to_string(v->size()));
  }
  std::array<uint32_t, 3> out{1, 1, 1};
  for (size_t k = 0; k < v->size(); ++k) {
    if ((*v)[k] < 0 || (*v)[k] > UINT32_MAX) {
      throw ShapeError("[Kernel] " + what + " value " + std::to_string((*v)[k]) +
                       " is out of range");
    }
    out[k] = static_cast<uint32_t>((*v)[k]);
  }
  return out;
}

UserCall make_call(const std::optional<std::vector<int64_t>>& groups,
                   const std::optional<py::bytes>& push,
                   const std::optional<std::vector<bool>>& writes, std::optional<int> index) {
  UserCall call;
  call.groups = dims3(groups, "groups");
  if (push) call.push_consts = to_bytes(*push);
  call.writes = writes;
  call.index = index;
  return call;
}

std::shared_ptr<UserKernel> make_kernel(py::object source,
                                        const std::optional<std::vector<int64_t>>& local_size,
                                        const std::optional<std::vector<int64_t>>& groups,
                                        const std::map<uint32_t, py::object>& spec,
                                        const std::optional<py::bytes>& push, std::string name) {
  UserKernelOptions o;
  o.local_size = dims3(local_size, "local_size");
  o.groups = dims3(groups, "workgroup");
  for (const auto& [id, v] : spec) {
    if (py::isinstance<py::float_>(v)) {
      o.spec_consts[id] = SpecValue::of_float(v.cast<double>());
    } else {
      o.spec_consts[id] = SpecValue::of_int(v.cast<int64_t>());
    }
  }
  if (push) o.push_consts = to_bytes(*push);
  o.name = std::move(name);
  if (py::isinstance<py::str>(source)) {
    return std::make_shared<UserKernel>(UserKernel::from_glsl(source.cast<std::string>(), o));
  }
  const std::string b = source.cast<py::bytes>();
  if (b.size() % 4 != 0) {
    throw ShapeError("[Kernel " + o.name + "] SPIR-V of " + std::to_string(b.size()) +
                     " bytes is not a whole number of 32-bit words");
  }
  std::vector<uint32_t> words(b.size() / 4);
  std::memcpy(words.data(), b.data(), b.size());
  return std::make_shared<UserKernel>(UserKernel::from_spirv(std::move(words), o));
}

}  // namespace

void register_kernels(py::module_& m) {
  py::class_<UserKernel, std::shared_ptr<UserKernel>>(m, "_Kernel")
      .def(py::init(&make_kernel), py::arg("source"), py::arg("local_size"), py::arg("groups"),
           py::arg("spec"), py::arg("push"), py::arg("name"))
      .def_property_readonly("name", &UserKernel::name)
      .def_property_readonly("num_bindings", &UserKernel::num_bindings)
      .def_property_readonly("readonly", &UserKernel::readonly)
      .def_property_readonly("local_size", &UserKernel::local_size)
      .def_property_readonly("groups", &UserKernel::groups)
      .def_property_readonly("push_constant_bytes", &UserKernel::push_constant_bytes)
      .def_property_readonly("spirv",
                             [](const UserKernel& k) {
                               const auto& w = k.spirv();
                               return py::bytes(reinterpret_cast<const char*>(w.data()),
                                                w.size() * 4);
                             })
      .def("__call__",
           [](const UserKernel& k, std::vector<Array> args,
              std::optional<std::vector<int64_t>> groups, std::optional<py::bytes> push,
              std::optional<std::vector<bool>> writes, std::optional<int> index) {
             return k(args, make_call(groups, push, writes, index));
           },
           py::arg("args"), py::arg("groups"), py::arg("push"), py::arg("writes"),
           py::arg("index"));

  py::class_<Sequence>(m, "_Sequence")
      .def(py::init([](int replica, std::shared_ptr<Context> ctx) {
             return std::make_unique<Sequence>(ctx ? ctx : Context::default_context(), replica);
           }),
           py::arg("replica"), py::arg("context"))
      .def_property_readonly("replica", &Sequence::replica)
      .def("__len__", &Sequence::size)
      .def("record_kernel",
           [](Sequence& s, std::shared_ptr<UserKernel> k, std::vector<Array> args,
              std::optional<std::vector<int64_t>> groups, std::optional<py::function> push,
              std::optional<std::vector<bool>> writes) {
             Sequence::BytesSource source;
             if (push) {
               py::function f = *push;
               source = [f] { return to_bytes(f().cast<py::bytes>()); };
             }
             s.record_kernel(std::move(k), std::move(args),
                             make_call(groups, std::nullopt, writes, std::nullopt), source);
           })
      .def("record_write",
           [](Sequence& s, Array x, py::function data) {
             s.record_write(std::move(x), [data] { return to_bytes(data().cast<py::bytes>()); });
           })
      .def("record_read", &Sequence::record_read)
      .def("record_eval",
           [](Sequence& s, py::function expr, std::optional<Array> out) {
             return s.record_eval([expr] { return expr().cast<Array>(); }, std::move(out));
           })
      .def("eval", &Sequence::eval)
      .def("eval_async", &Sequence::eval_async)
      .def("eval_await", &Sequence::eval_await, py::arg("timeout") = py::none())
      .def("is_running", &Sequence::is_running)
      .def("clear", &Sequence::clear)
      .def("rerecord", &Sequence::rerecord)
      .def("durations_ns", &Sequence::durations_ns)
      .def("timestamps_ns", &Sequence::timestamps_ns)
      .def("read_result",
           [](const Sequence& s, int slot) {
             const Bytes& b = s.read_result(slot);
             return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
           })
      .def("eval_result", &Sequence::eval_result);

  py::class_<Profile>(m, "_Profile")
      .def(py::init([](std::shared_ptr<Context> ctx) {
             return std::make_unique<Profile>(ctx ? ctx : Context::default_context());
           }),
           py::arg("context"))
      .def("start", &Profile::start)
      .def("stop", &Profile::stop)
      .def_property_readonly("active", &Profile::active)
      .def("records", [](Profile& p) {
        py::list out;
        for (const ProfileRecord& r : p.records()) {
          out.append(py::make_tuple(r.name, r.replica, r.gpu_ns, r.bytes));
        }
        return out;
      });
}

}  // namespace vka
