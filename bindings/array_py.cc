// Python binding of vka::Array as vkarray.ndarray: attributes, host transfers, conversion to
// Python values, printing. Operators are in operators_py.cc.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "array/replicas.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"
#include "runtime/realize.h"

namespace vka {
namespace {

py::array download(const Array& a, int replica) {
  py::array out(to_numpy_dtype(a.dtype()),
                std::vector<py::ssize_t>(a.shape().begin(), a.shape().end()));
  a.read(out.mutable_data(), a.nbytes(), replica);
  return out;
}

// What host conversions read: the `with vkarray.replica(i)` scope's replica, else replica 0.
py::array download(const Array& a) { return download(a, current_replica().value_or(0)); }

// read(index): replica `index`, or with None every replica stacked on a new leading axis.
py::array read(const Array& a, py::handle index) {
  if (std::optional<int> r = to_replica_index(index, "read")) return download(a, *r);
  const int n = a.context()->num_replicas();
  std::vector<py::ssize_t> stacked = {n};
  stacked.insert(stacked.end(), a.shape().begin(), a.shape().end());
  py::array out(to_numpy_dtype(a.dtype()), stacked);
  auto* bytes = static_cast<uint8_t*>(out.mutable_data());
  for (int r = 0; r < n; ++r) a.read(bytes + r * a.nbytes(), a.nbytes(), r);
  return out;
}

void write(Array& a, py::handle data, py::handle index) {
  // Everything is converted and checked first: a write that raises changes no replica.
  std::optional<int> replica = to_replica_index(index, "write");
  if (replica) a.context()->replica(*replica);  // IndexError naming the range
  HostData host = host_data_for_write(data, a.shape(), a.dtype(), "write");
  a.write(host.ptr, host.nbytes, replica);
}

// numpy's conversions of a size-1 array to a Python number (float(), int(), complex()).
py::object to_python_number(const Array& a, const char* method) {
  if (a.size() != 1) throw py::type_error("only size-1 arrays can be converted to Python scalars");
  return download(a).attr(method)();
}

bool to_bool(const Array& a) {
  if (a.size() == 0) {
    throw py::value_error(
        "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an "
        "array is not empty.");
  }
  if (a.size() > 1) {
    throw py::value_error(
        "The truth value of an array with more than one element is ambiguous. Use a.any() or "
        "a.all()");
  }
  return download(a).attr("__bool__")().cast<bool>();
}

int64_t length(const Array& a) {
  if (a.ndim() == 0) throw py::type_error("len() of unsized object");
  return a.shape()[0];
}

// Iteration over the first axis: a 1-d array yields numpy scalars from one download; a
// higher-rank array yields ndarray views of its rows (one evaluation, no copies).
py::iterator iterate(Array& a) {
  if (a.ndim() == 0) throw py::type_error("iteration over a 0-d array");
  if (a.ndim() == 1) return py::iter(download(a));
  py::list rows;
  for (int64_t i = 0; i < a.shape()[0]; ++i) rows.append(a[{i}]);
  return py::iter(rows);
}

py::array to_numpy(const Array& a, py::handle dtype, py::handle copy) {
  if (!copy.is_none() && !copy.cast<bool>()) {
    throw py::value_error(
        "[__array__] a vkarray.ndarray lives on the device: converting it to numpy always "
        "copies, so copy=False cannot be honored");
  }
  py::array out = download(a);
  if (dtype.is_none()) return out;
  return out.attr("astype")(dtype);
}

}  // namespace

void register_ndarray(py::module_& m) {
  py::class_<Array>(m, "ndarray", R"doc(
A lazy N-dimensional array on a vkarray context (vkarray.asarray, vkarray.zeros, ... make
them). Operators and functions build a graph; values are computed, fused into as few kernels
as possible, when needed: reading (get, numpy.asarray, float, bool, print), x.eval(),
vkarray.eval(a, b, ...). Python names bound to one ndarray see in-place updates (a += 1),
as with numpy. Basic indexing (a[1:, ::2, None]) and the view functions (reshape, .T,
transpose, broadcast_to, ...) return views that share the buffer: assignment through one
(a[1:-1] = ..., v += 1) is seen by all, while expressions made earlier keep their values.
)doc")
      .def_property_readonly("ndim", &Array::ndim)
      .def_property_readonly("size", &Array::size)
      .def_property_readonly("itemsize", &Array::itemsize)
      .def_property_readonly("nbytes", &Array::nbytes)
      .def_property_readonly("context", &Array::context)
      .def_property_readonly("is_lazy", &Array::is_lazy,
                             "True while the value is an unevaluated expression.")
      .def("read", &read, py::arg("index") = py::none(), R"doc(
Download replica `index` as a numpy array; with index None every replica, stacked on a new
leading axis: shape (num_replicas, *shape).
)doc")
      .def("write", &write, py::arg("data"), py::arg("index") = py::none(), R"doc(
Replace the contents with host data, on every replica (index None) or on replica `index`
only. data is bytes of exactly nbytes, or an array-like of this shape (or 1-d of this size)
whose values convert without change (the same checks as vkarray.Buffer.write).
)doc")
      .def("__array__", &to_numpy, py::arg("dtype") = py::none(), py::arg("copy") = py::none(),
           "numpy.asarray(x): download replica 0, or the `with vkarray.replica(i)` scope's "
           "(always a copy).")
      .def(
          "eval",
          [](py::object self, py::handle index) {
            self.cast<Array&>().eval(to_replica_index(index, "eval"));
            return self;
          },
          py::arg("index") = py::none(),
          "Compute the value now and keep it; returns self. On every replica, or on replica "
          "`index` only (inside `with vkarray.replica(i)`, index None means i).")
      .def(
          "item", [](const Array& a, py::args args) { return download(a).attr("item")(*args); },
          "numpy's item(): one element as a Python scalar.")
      .def(
          "tolist", [](const Array& a) { return download(a).attr("tolist")(); },
          "The values as nested Python lists (numpy's tolist()).")
      .def("__float__", [](const Array& a) { return to_python_number(a, "__float__"); })
      .def("__int__", [](const Array& a) { return to_python_number(a, "__int__"); })
      .def("__complex__", [](const Array& a) { return to_python_number(a, "__complex__"); })
      .def("__index__", [](const Array& a) { return download(a).attr("__index__")(); })
      .def("__bool__", &to_bool)
      .def("__len__", &length)
      .def("__iter__", &iterate,
           "Over the first axis: numpy scalars for a 1-d array (one download), ndarray views "
           "of the rows otherwise.")
      .def("__format__",
           [](const Array& a, py::handle spec) { return download(a).attr("__format__")(spec); });
  // ndarray.astype's conversion; the method, with numpy's order=, casting= and copy=, is
  // _ndarray_order.py's.
  m.def(
      "_astype",
      [](const Array& a, py::handle dtype) { return a.astype(to_dtype(dtype, "astype")); },
      py::arg("a"), py::arg("dtype"));
}

}  // namespace vka
