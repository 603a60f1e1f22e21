// Sorting, searching and counting (array/sort.h): sort, argsort, partition, argpartition,
// the unique core, bincount, histogram, isin, in1d, and the ndarray methods sort (in place),
// argsort, partition (in place) and argpartition.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "array/sort.h"
#include "base/errors.h"
#include "bindings/index_py.h"
#include "bindings/registry.h"

namespace vka {
namespace {

std::optional<int64_t> axis_of(py::handle axis) {
  if (axis.is_none()) return std::nullopt;
  return axis.cast<int64_t>();
}

// numpy's kind= and order=; every kind runs the one stable sort.
void check_kind(py::handle kind, py::handle order, py::handle stable, std::string_view op) {
  if (!kind.is_none()) {
    const std::string k = py::str(kind);
    if (k.empty() || (k[0] != 'q' && k[0] != 'm' && k[0] != 'h' && k[0] != 's')) {
      throw ShapeError("[" + std::string(op) + "] sort kind must be one of 'quick', 'heap', or "
                       "'stable' (got '" + k + "')");
    }
    if (!stable.is_none()) {
      throw ShapeError("[" + std::string(op) + "] `kind` and `stable` parameters can't be "
                       "provided at the same time");
    }
  }
  if (!order.is_none()) {
    throw ShapeError("[" + std::string(op) + "] order= needs structured arrays, which vkarray "
                     "does not have");
  }
}

std::vector<int64_t> kth_of(py::handle kth) {
  py::module_ np = py::module_::import("numpy");
  py::object k = np.attr("asarray")(kth);
  if (!np.attr("issubdtype")(k.attr("dtype"), np.attr("integer")).cast<bool>()) {
    throw DTypeError("[partition] kth must be an integer or a sequence of integers");
  }
  return k.attr("ravel")().attr("tolist")().cast<std::vector<int64_t>>();
}

py::object or_none(const std::optional<Array>& a) {
  return a ? py::cast(*a) : py::none();
}

// Writes `value` (computed first) over every element of `a`: numpy's in-place methods.
void assign_all(const Array& a, Array value) {
  value.eval();
  a.set({ellipsis}, std::move(value));
}

}  // namespace

void register_sorting(py::module_& m) {
  m.def(
      "_sort",
      [](py::object a, py::object axis, py::object kind, py::object order, py::object stable) {
        check_kind(kind, order, stable, "sort");
        return sort(as_array(a, "sort"), axis_of(axis));
      },
      py::arg("a"), py::arg("axis") = -1, py::arg("kind") = py::none(),
      py::arg("order") = py::none(), py::kw_only(), py::arg("stable") = py::none(),
      "numpy.sort: a sorted copy along axis (None: flattened). Always stable (a radix sort); "
      "NaN sorts last.");
  m.def(
      "_argsort",
      [](py::object a, py::object axis, py::object kind, py::object order, py::object stable) {
        check_kind(kind, order, stable, "argsort");
        return argsort(as_array(a, "argsort"), axis_of(axis));
      },
      py::arg("a"), py::arg("axis") = -1, py::arg("kind") = py::none(),
      py::arg("order") = py::none(), py::kw_only(), py::arg("stable") = py::none(),
      "numpy.argsort: int64 indices that sort a along axis, in numpy's kind='stable' order.");
  m.def(
      "partition",
      [](py::object a, py::object kth, py::object axis, py::object kind, py::object order) {
        check_kind(py::none(), order, py::none(), "partition");
        (void)kind;
        return partition(as_array(a, "partition"), kth_of(kth), axis_of(axis));
      },
      py::arg("a"), py::arg("kth"), py::arg("axis") = -1, py::arg("kind") = "introselect",
      py::arg("order") = py::none(),
      "numpy.partition: element kth in its sorted place, smaller ones before it, larger after "
      "(computed as a full stable sort).");
  m.def(
      "argpartition",
      [](py::object a, py::object kth, py::object axis, py::object kind, py::object order) {
        check_kind(py::none(), order, py::none(), "argpartition");
        (void)kind;
        return argpartition(as_array(a, "argpartition"), kth_of(kth), axis_of(axis));
      },
      py::arg("a"), py::arg("kth"), py::arg("axis") = -1, py::arg("kind") = "introselect",
      py::arg("order") = py::none());
  m.def(
      "_unique",
      [](py::object ar, bool return_index, bool return_inverse, bool return_counts) {
        UniqueResult r = unique(as_array(ar, "unique"), return_index, return_inverse,
                                return_counts);
        return py::make_tuple(r.values, or_none(r.indices), or_none(r.inverse),
                              or_none(r.counts));
      },
      py::arg("ar"), py::arg("return_index"), py::arg("return_inverse"),
      py::arg("return_counts"));
  m.def(
      "bincount",
      [](py::object x, py::object weights, int64_t minlength) {
        Array a = as_array(x, "bincount");
        std::optional<Array> w;
        if (!weights.is_none()) w = as_array(weights, "bincount", std::nullopt, a.context());
        return bincount(a, w, minlength);
      },
      py::arg("x"), py::arg("weights") = py::none(), py::arg("minlength") = 0,
      "numpy.bincount: int64 counts of each value of a 1-d array of non-negative integers, or "
      "float64 sums of weights per value (added in input order, deterministic).");
  m.def(
      "histogram",
      [](py::object a, py::object bins, py::object range, py::object density,
         py::object weights) {
        Array x = as_array(a, "histogram");
        std::optional<Array> w;
        if (!weights.is_none()) w = as_array(weights, "histogram", std::nullopt, x.context());
        const bool dens = !density.is_none() && density.cast<bool>();
        std::pair<Array, Array> r;
        if (py::isinstance<py::str>(bins)) {
          throw ShapeError("[histogram] bin estimators such as '" + bins.cast<std::string>() +
                           "' are not supported yet: give a number of bins or the edges");
        }
        if (is_python_integer(bins)) {
          std::optional<std::pair<double, double>> rg;
          if (!range.is_none()) rg = range.cast<std::pair<double, double>>();
          r = histogram(x, bins.cast<int64_t>(), rg, dens, w);
        } else {
          r = histogram(x, as_array(bins, "histogram", std::nullopt, x.context()), dens, w);
        }
        return py::make_tuple(r.first, r.second);
      },
      py::arg("a"), py::arg("bins") = 10, py::arg("range") = py::none(),
      py::arg("density") = py::none(), py::arg("weights") = py::none(),
      "numpy.histogram: (hist, bin_edges) for equal bins over range (the data's min and max "
      "by default) or explicit edges; the last bin is closed, values outside are ignored.");
  m.def(
      "isin",
      [](py::object element, py::object test, bool assume_unique, bool invert) {
        (void)assume_unique;
        Array e = as_array(element, "isin");
        return isin(e, as_array(test, "isin", std::nullopt, e.context()), invert);
      },
      py::arg("element"), py::arg("test_elements"), py::arg("assume_unique") = false,
      py::arg("invert") = false,
      "numpy.isin: whether each element occurs in test_elements (a sort and a binary search).");
  m.def(
      "in1d",
      [](py::object ar1, py::object ar2, bool assume_unique, bool invert) {
        (void)assume_unique;
        Array a = as_array(ar1, "in1d");
        return in1d(a, as_array(ar2, "in1d", std::nullopt, a.context()), invert);
      },
      py::arg("ar1"), py::arg("ar2"), py::arg("assume_unique") = false,
      py::arg("invert") = false);

  auto cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  cls.def(
      "sort",
      [](const Array& a, int64_t axis, py::object kind, py::object order) {
        check_kind(kind, order, py::none(), "sort");
        assign_all(a, sort(a, axis));
      },
      py::arg("axis") = -1, py::arg("kind") = py::none(), py::arg("order") = py::none(),
      "Sorts in place along axis (stable).");
  cls.def(
      "argsort",
      [](const Array& a, py::object axis, py::object kind, py::object order) {
        check_kind(kind, order, py::none(), "argsort");
        return argsort(a, axis_of(axis));
      },
      py::arg("axis") = -1, py::arg("kind") = py::none(), py::arg("order") = py::none());
  cls.def(
      "partition",
      [](const Array& a, py::object kth, int64_t axis, py::object kind, py::object order) {
        check_kind(py::none(), order, py::none(), "partition");
        (void)kind;
        assign_all(a, partition(a, kth_of(kth), axis));
      },
      py::arg("kth"), py::arg("axis") = -1, py::arg("kind") = "introselect",
      py::arg("order") = py::none(), "Partitions in place along axis (numpy's contract).");
  cls.def(
      "argpartition",
      [](const Array& a, py::object kth, py::object axis, py::object kind, py::object order) {
        check_kind(py::none(), order, py::none(), "argpartition");
        (void)kind;
        return argpartition(a, kth_of(kth), axis_of(axis));
      },
      py::arg("kth"), py::arg("axis") = -1, py::arg("kind") = "introselect",
      py::arg("order") = py::none());
}

}  // namespace vka
