// vka::random (array/random/random.h) for the vkarray.random module: the SeedSequence and Generator
// cores. numpy's argument handling (size=None, array-valued parameters, the legacy functions)
// is in bindings/vkarray/random.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <vector>

#include "array/random/random.h"
#include "bindings/convert.h"
#include "bindings/index_py.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"

namespace vka {
namespace {

using random::Generator;
using random::SeedSequence;

std::optional<Array> optional_array(py::handle p, std::string_view op, const Generator& g) {
  if (p.is_none()) return std::nullopt;
  return as_array(p, op, std::nullopt, g.context());
}

}  // namespace

void register_random(py::module_& m) {
  py::class_<SeedSequence>(m, "_SeedSequence")
      .def(py::init<std::vector<uint32_t>, std::vector<uint32_t>>(), py::arg("entropy"),
           py::arg("spawn_key"))
      .def("generate_state", &SeedSequence::generate_state, py::arg("n_words"))
      .def("spawn", &SeedSequence::spawn, py::arg("n_children"))
      .def_property_readonly("entropy", &SeedSequence::entropy)
      .def_property_readonly("spawn_key", &SeedSequence::spawn_key);

  py::class_<Generator>(m, "_Generator")
      .def(py::init([](const SeedSequence& s, std::shared_ptr<Context> ctx, bool per_replica) {
             return Generator(s, context_or_default(std::move(ctx)), per_replica);
           }),
           py::arg("seed_seq"), py::arg("context") = nullptr, py::arg("per_replica") = false)
      .def_property_readonly("key", &Generator::key)
      .def_property_readonly("counter", &Generator::counter)
      .def("set_state", &Generator::set_state, py::arg("key"), py::arg("counter"))
      .def_property_readonly("per_replica", &Generator::per_replica)
      .def_property_readonly("context", &Generator::context)
      .def_property_readonly("seed_seq", &Generator::seed_seq)
      .def("random",
           [](Generator& g, py::handle size, py::handle dtype) {
             return g.random(to_shape(size, "random"), to_dtype(dtype, "random"));
           })
      .def("standard_normal",
           [](Generator& g, py::handle size, py::handle dtype) {
             return g.standard_normal(to_shape(size, "standard_normal"),
                                      to_dtype(dtype, "standard_normal"));
           })
      .def("standard_exponential",
           [](Generator& g, py::handle size, py::handle dtype) {
             return g.standard_exponential(to_shape(size, "standard_exponential"),
                                           to_dtype(dtype, "standard_exponential"));
           })
      .def("integers",
           [](Generator& g, bool low_neg, uint64_t low_mag, bool high_neg, uint64_t high_mag,
              py::handle size, py::handle dtype, bool endpoint) {
             return g.integers_wide(low_neg, low_mag, high_neg, high_mag,
                                    to_shape(size, "integers"), to_dtype(dtype, "integers"),
                                    endpoint);
           })
      .def("integers_array",
           [](Generator& g, py::handle low, py::handle high, py::handle size, py::handle dtype,
              bool endpoint) {
             std::optional<Shape> shape;
             if (!size.is_none()) shape = to_shape(size, "integers");
             return g.integers(as_array(low, "integers", std::nullopt, g.context()),
                               as_array(high, "integers", std::nullopt, g.context()), shape,
                               to_dtype(dtype, "integers"), endpoint);
           })
      .def("permutation_n", [](Generator& g, int64_t n) { return g.permutation(n); })
      .def("permutation",
           [](Generator& g, py::handle x, int64_t axis) {
             return g.permutation(as_array(x, "permutation", std::nullopt, g.context()), axis);
           })
      .def("shuffle", [](Generator& g, const Array& x, int64_t axis) { g.shuffle(x, axis); })
      .def("choice_n",
           [](Generator& g, int64_t n, py::handle size, bool replace, py::handle p) {
             return g.choice(n, to_shape(size, "choice"), replace, optional_array(p, "choice", g));
           })
      .def("choice",
           [](Generator& g, py::handle x, py::handle size, bool replace, py::handle p,
              int64_t axis) {
             return g.choice(as_array(x, "choice", std::nullopt, g.context()),
                             to_shape(size, "choice"), replace, optional_array(p, "choice", g),
                             axis);
           })
      .def("bits",
           [](Generator& g, py::handle size, py::handle dtype, uint32_t stride, uint32_t offset,
              uint64_t key, uint64_t counter) {
             return g.bits(to_shape(size, "bits"), to_dtype(dtype, "bits"), stride, offset, key,
                           counter);
           })
      .def("spawn", &Generator::spawn, py::arg("n_children"));
}

}  // namespace vka
