// Matrix products (array/matmul.h): ndarray's @, @= and the reflected form, the core function
// under vkarray.matmul (vkarray/_products.py adds out= and dtype=), and the GEMM tiling.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "array/array.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/index_py.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"
#include "ir/promotion.h"

namespace vka {
namespace {

py::object not_implemented() { return py::reinterpret_borrow<py::object>(Py_NotImplemented); }

// `other` as a matmul operand; nullopt when Python should try the other side. Scalars become
// 0-d arrays, which matmul refuses with numpy's ValueError.
std::optional<Array> operand(py::handle self, py::handle other) {
  std::optional<std::vector<PyOperand>> ops =
      to_operands({self, other}, Accept::kOperator, "matmul");
  if (!ops) return std::nullopt;
  const PyOperand& o = (*ops)[1];
  if (o.array) return *o.array;
  return as_array(other, "matmul", std::nullopt, self.cast<const Array&>().context());
}

std::string dtype_text(DType t) { return "dtype('" + std::string(name(t)) + "')"; }

}  // namespace

void register_matmul(py::module_& m) {
  m.def(
      "_matmul",
      [](py::object a, py::object b) {
        return matmul(as_array(a, "matmul"), as_array(b, "matmul"));
      },
      py::arg("x1"), py::arg("x2"), "numpy.matmul without out= and dtype= (see vkarray.matmul).");
  m.def(
      "_tensordot",
      [](py::object a, py::object b, std::vector<int64_t> axes_a, std::vector<int64_t> axes_b) {
        return tensordot(as_array(a, "tensordot"), as_array(b, "tensordot"), axes_a, axes_b);
      },
      py::arg("a"), py::arg("b"), py::arg("axes_a"), py::arg("axes_b"));
  m.def(
      "_tensordot_n",
      [](py::object a, py::object b, int64_t n) {
        return tensordot(as_array(a, "tensordot"), as_array(b, "tensordot"), n);
      },
      py::arg("a"), py::arg("b"), py::arg("n"));
  m.def(
      "_dot",
      [](py::object a, py::object b) { return dot(as_array(a, "dot"), as_array(b, "dot")); },
      py::arg("a"), py::arg("b"), "numpy.dot without out= (see vkarray.dot).");
  m.def(
      "_outer",
      [](py::object a, py::object b) { return outer(as_array(a, "outer"), as_array(b, "outer")); },
      py::arg("a"), py::arg("b"), "numpy.outer without out= (see vkarray.outer).");
  m.def(
      "kron",
      [](py::object a, py::object b) { return kron(as_array(a, "kron"), as_array(b, "kron")); },
      py::arg("a"), py::arg("b"), "numpy.kron: the Kronecker product of a and b.");
  auto cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  cls.def("__matmul__", [](py::object self, py::object other) -> py::object {
    std::optional<Array> b = operand(self, other);
    if (!b) return not_implemented();
    return py::cast(matmul(self.cast<const Array&>(), *b));
  });
  cls.def("__rmatmul__", [](py::object self, py::object other) -> py::object {
    std::optional<Array> a = operand(self, other);
    if (!a) return not_implemented();
    return py::cast(matmul(*a, self.cast<const Array&>()));
  });
  // a @= b: numpy 2's in-place matmul; the product must keep a's shape and cast to its dtype
  // under same_kind; otherwise an error and `a` is unchanged.
  cls.def("__imatmul__", [](py::object self, py::object other) -> py::object {
    std::optional<Array> b = operand(self, other);
    if (!b) return not_implemented();
    Array& a = self.cast<Array&>();
    Array r = matmul(a, *b);
    if (r.shape() != a.shape()) {
      throw ShapeError("matmul: in-place product has shape " + to_string(r.shape()) +
                       ", which differs from the operand's shape " + to_string(a.shape()));
    }
    if (r.dtype() != a.dtype() && !can_cast(r.dtype(), a.dtype(), Casting::kSameKind)) {
      throw DTypeError("Cannot cast ufunc 'matmul' output from " + dtype_text(r.dtype()) +
                       " to " + dtype_text(a.dtype()) + " with casting rule 'same_kind'");
    }
    a.assign(r.release());
    return self;
  });
  m.def(
      "gemm_config",
      [](py::object dtype) {
        const DType t = dtype.is_none() ? DType::kFloat32 : to_dtype(dtype, "gemm_config");
        return to_string(gemm_config(Context::default_context(), t));
      },
      py::arg("dtype") = py::none(),
      "The GEMM tiling matmul uses for `dtype` on the default context, as "
      "'bm x bn x bk x tm x tn'.");
  m.def(
      "set_gemm_config",
      [](py::object config) {
        if (config.is_none()) {
          set_gemm_config(std::nullopt);
        } else {
          set_gemm_config(parse_gemm_config(py::cast<std::string>(config)));
        }
      },
      py::arg("config"),
      "Overrides the GEMM tiling ('128x128x8x8x8': bm x bn x bk x tm x tn), or with None "
      "returns to $VKA_GEMM_CONFIG or the device default.");
  m.def(
      "set_gemm_split",
      [](std::optional<int> splits) { set_gemm_split(splits); },
      py::arg("splits"),
      "Overrides the split-K count of GEMMs (K in that many ranges, their partial products "
      "summed in order by a second kernel; 1: never split), or with None returns to "
      "$VKA_GEMM_SPLIT or the device heuristic.");
}

}  // namespace vka
