// Python binding of recorded functions (array/trace.h), for vkarray.jit (_jit.py): the effect
// count, the inputs' key, the recording and its replay.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <vector>

#include "array/trace.h"
#include "base/effects.h"
#include "bindings/convert.h"
#include "bindings/registry.h"

namespace vka {
namespace {

py::tuple to_tuple(const std::vector<int64_t>& v) {
  py::tuple t(v.size());
  for (size_t i = 0; i < v.size(); ++i) t[i] = v[i];
  return t;
}

// One hashable tuple for the inputs' trace_input_keys.
py::tuple trace_key(const std::vector<Array>& inputs) {
  std::vector<TraceInputKey> keys = trace_input_keys(inputs);
  py::tuple out(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const TraceInputKey& k = keys[i];
    py::object known = py::none();
    if (k.known)
      known = py::make_tuple(k.known->lo, k.known->hi, k.known->affine, k.known->a, k.known->b);
    out[i] = py::make_tuple(reinterpret_cast<uintptr_t>(k.context), static_cast<int>(k.dtype),
                            k.view.offset, to_tuple(k.view.shape), to_tuple(k.view.strides),
                            k.alias, known);
  }
  return out;
}

}  // namespace

void register_trace(py::module_& m) {
  m.def("_effect_count", &effect_count);
  m.def("_trace_key", &trace_key, py::arg("inputs"));
  py::class_<Trace, std::shared_ptr<Trace>>(m, "_Trace")
      .def(py::init<const std::vector<Array>&, const std::vector<Array>&>(), py::arg("inputs"),
           py::arg("outputs"))
      .def_property_readonly("unreplayable", &Trace::unreplayable)
      .def("current", &Trace::current)
      .def("replay", &Trace::replay, py::arg("inputs"));
}

}  // namespace vka
