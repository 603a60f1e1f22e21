// vka::random (array/random/random.h) for the vkarray.random module: the SeedSequence and Generator
// cores, the distributions with their parameters as numbers or arrays. numpy's signatures and
// the legacy functions are in bindings/vkarray/random.py and its siblings.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <vector>

#include "array/random/random.h"
#include "base/errors.h"
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

// A distribution parameter: a Python or numpy number (or 0-d numpy data) stays a number, checked
// and passed on the host; anything else is an array on the generator's context.
random::Param to_param(py::handle h, const char* op, const Generator& g) {
  if (!is_array(h)) {
    py::module_ np = py::module_::import("numpy");
    if (np.attr("ndim")(h).cast<int>() == 0) {
      py::object v = np.attr("asarray")(h);
      const char kind = v.attr("dtype").attr("kind").cast<std::string>()[0];
      py::object item = v.attr("item")();
      if (kind == 'b' || kind == 'i' || kind == 'u') {
        try {
          return random::Param(item.cast<int64_t>());
        } catch (const py::cast_error&) {  // beyond int64: numpy takes it as a float
          return random::Param(py::float_(item).cast<double>());
        }
      }
      if (kind == 'f') return random::Param(item.cast<double>());
      throw DTypeError("[" + std::string(op) + "] parameters must be real numbers, got " +
                       py::str(v.attr("dtype")).cast<std::string>());
    }
  }
  return random::Param(as_array(h, op, std::nullopt, g.context()));
}

std::optional<Shape> to_size(py::handle size, const char* op) {
  if (size.is_none()) return std::nullopt;
  return to_shape(size, op);
}

using Size = std::optional<Shape>;
using random::Param;

// numpy's distribution methods of one, two and three parameters, and a size.
template <typename Fn>
void def1(py::class_<Generator>& c, const char* name, Fn fn) {
  c.def(name, [name, fn](Generator& g, py::handle a, py::handle size) {
    return (g.*fn)(to_param(a, name, g), to_size(size, name));
  });
}
template <typename Fn>
void def2(py::class_<Generator>& c, const char* name, Fn fn) {
  c.def(name, [name, fn](Generator& g, py::handle a, py::handle b, py::handle size) {
    return (g.*fn)(to_param(a, name, g), to_param(b, name, g), to_size(size, name));
  });
}
template <typename Fn>
void def3(py::class_<Generator>& c, const char* name, Fn fn) {
  c.def(name, [name, fn](Generator& g, py::handle a, py::handle b, py::handle d, py::handle size) {
    return (g.*fn)(to_param(a, name, g), to_param(b, name, g), to_param(d, name, g),
                   to_size(size, name));
  });
}

void register_distributions(py::class_<Generator>& c) {
  c.def("standard_gamma", [](Generator& g, py::handle shape, py::handle size, py::handle dtype) {
    return g.standard_gamma(to_param(shape, "standard_gamma", g), to_size(size, "standard_gamma"),
                            to_dtype(dtype, "standard_gamma"));
  });
  c.def("standard_cauchy", [](Generator& g, py::handle size) {
    return g.standard_cauchy(to_size(size, "standard_cauchy").value_or(Shape{}));
  });
  def1(c, "chisquare", &Generator::chisquare);
  def1(c, "standard_t", &Generator::standard_t);
  def1(c, "pareto", &Generator::pareto);
  def1(c, "power", &Generator::power);
  def1(c, "rayleigh", &Generator::rayleigh);
  def1(c, "weibull", &Generator::weibull);
  def1(c, "poisson", &Generator::poisson);
  def1(c, "geometric", &Generator::geometric);
  def1(c, "zipf", &Generator::zipf);
  def1(c, "logseries", &Generator::logseries);
  def2(c, "gamma", &Generator::gamma);
  def2(c, "beta", &Generator::beta);
  def2(c, "noncentral_chisquare", &Generator::noncentral_chisquare);
  def2(c, "f", &Generator::f);
  def2(c, "laplace", &Generator::laplace);
  def2(c, "logistic", &Generator::logistic);
  def2(c, "gumbel", &Generator::gumbel);
  def2(c, "lognormal", &Generator::lognormal);
  def2(c, "wald", &Generator::wald);
  def2(c, "vonmises", &Generator::vonmises);
  def2(c, "binomial", &Generator::binomial);
  def2(c, "negative_binomial", &Generator::negative_binomial);
  def3(c, "noncentral_f", &Generator::noncentral_f);
  def3(c, "triangular", &Generator::triangular);
  def3(c, "hypergeometric", &Generator::hypergeometric);
  c.def("dirichlet", [](Generator& g, py::handle alpha, py::handle size) {
    return g.dirichlet(as_array(alpha, "dirichlet", std::nullopt, g.context()),
                       to_size(size, "dirichlet"));
  });
  c.def("multinomial", [](Generator& g, py::handle n, py::handle pvals, py::handle size) {
    return g.multinomial(to_param(n, "multinomial", g),
                         as_array(pvals, "multinomial", std::nullopt, g.context()),
                         to_size(size, "multinomial"));
  });
  c.def("multivariate_hypergeometric",
        [](Generator& g, std::vector<int64_t> colors, int64_t nsample, py::handle size) {
          return g.multivariate_hypergeometric(colors, Param(nsample),
                                               to_size(size, "multivariate_hypergeometric"));
        });
  c.def("permuted", [](Generator& g, py::handle x, std::optional<int64_t> axis) {
    return g.permuted(as_array(x, "permuted", std::nullopt, g.context()), axis);
  });
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

  py::class_<Generator> generator(m, "_Generator");
  generator
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
  register_distributions(generator);
  m.def("_set_max_sample_launch", &random::set_max_sample_launch, py::arg("elements"));
}

}  // namespace vka
