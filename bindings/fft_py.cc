// numpy.fft's core (array/fft/fft.h). The numpy-facing module, with fft2 and friends, the
// frequency helpers and out=, is vkarray/fft.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "array/fft/fft.h"
#include "bindings/convert.h"
#include "bindings/index_py.h"
#include "bindings/registry.h"

namespace vka {
namespace {

int64_t index_of(py::handle v) {
  return py::cast<int64_t>(py::module_::import("operator").attr("index")(v));
}

std::optional<int64_t> optional_index(py::handle v) {
  if (v.is_none()) return std::nullopt;
  return index_of(v);
}

std::optional<std::vector<int64_t>> optional_indices(py::handle v) {
  if (v.is_none()) return std::nullopt;
  std::vector<int64_t> out;
  if (py::isinstance<py::int_>(v) || py::hasattr(v, "__index__")) {
    out.push_back(index_of(v));  // numpy takes a lone integer for s or axes
    return out;
  }
  for (py::handle item : v) out.push_back(index_of(item));
  return out;
}

std::string norm_of(py::handle norm) {
  if (norm.is_none()) return "backward";
  return py::str(norm);
}

using OneD = Array (*)(const Array&, std::optional<int64_t>, int64_t, const std::string&);
using ND = Array (*)(const Array&, const FftShape&, const FftAxes&, const std::string&);

void def_1d(py::module_& m, const char* name, OneD fn) {
  m.def(
      name,
      [fn, name](py::object a, py::object n, py::object axis, py::object norm) {
        return fn(as_array(a, name), optional_index(n), index_of(axis), norm_of(norm));
      },
      py::arg("a"), py::arg("n") = py::none(), py::arg("axis") = -1,
      py::arg("norm") = py::none());
}

void def_nd(py::module_& m, const char* name, ND fn) {
  m.def(
      name,
      [fn, name](py::object a, py::object s, py::object axes, py::object norm) {
        return fn(as_array(a, name), optional_indices(s), optional_indices(axes),
                  norm_of(norm));
      },
      py::arg("a"), py::arg("s") = py::none(), py::arg("axes") = py::none(),
      py::arg("norm") = py::none());
}

}  // namespace

void register_fft(py::module_& m) {
  def_1d(m, "_fft", &fft);
  def_1d(m, "_ifft", &ifft);
  def_1d(m, "_rfft", &rfft);
  def_1d(m, "_irfft", &irfft);
  def_1d(m, "_hfft", &hfft);
  def_1d(m, "_ihfft", &ihfft);
  def_nd(m, "_fftn", &fftn);
  def_nd(m, "_ifftn", &ifftn);
  def_nd(m, "_rfftn", &rfftn);
  def_nd(m, "_irfftn", &irfftn);
  m.def(
      "_fftfreq", [](int64_t n, double d) { return fftfreq(n, d); }, py::arg("n"),
      py::arg("d"));
  m.def(
      "_rfftfreq", [](int64_t n, double d) { return rfftfreq(n, d); }, py::arg("n"),
      py::arg("d"));
}

}  // namespace vka
