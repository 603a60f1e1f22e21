// The factorizations of array/linalg/linalg.h, as private functions under vkarray.linalg's
// numpy-facing wrappers (vkarray/linalg.py); LinAlgError becomes numpy.linalg.LinAlgError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "array/linalg/linalg.h"
#include "bindings/convert.h"
#include "bindings/index_py.h"
#include "bindings/registry.h"

namespace vka {

void register_linalg(py::module_& m) {
  // Registered after the general map (errors_py.cc), so it is tried first.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const LinAlgError& e) {
      py::object cls = py::module_::import("numpy.linalg").attr("LinAlgError");
      PyErr_SetObject(cls.ptr(), py::str(e.what()).ptr());
    }
  });
  m.def(
      "_linalg_lu_factor",
      [](py::object a) { return lu_factor(as_array(a, "lu_factor")); }, py::arg("a"),
      "LU with partial pivoting of (..., n, n): [lu, pivots (int32)].");
  m.def(
      "_linalg_solve",
      [](py::object a, py::object b) { return solve(as_array(a, "solve"), as_array(b, "solve")); },
      py::arg("a"), py::arg("b"), "x with a x = b for a (..., n, n), b (..., n, k).");
  m.def(
      "_linalg_lu_solve",
      [](py::object lu, py::object piv, py::object b) {
        return lu_solve(as_array(lu, "lu_solve"), as_array(piv, "lu_solve"),
                        as_array(b, "lu_solve"));
      },
      py::arg("lu"), py::arg("pivots"), py::arg("b"), "x with lu x = b (see array/linalg/linalg.h).");
  m.def(
      "_linalg_inv", [](py::object a) { return inv(as_array(a, "inv")); }, py::arg("a"),
      "Inverse of (..., n, n).");
  m.def(
      "_linalg_cholesky", [](py::object a) { return cholesky(as_array(a, "cholesky")); },
      py::arg("a"), "Lower Cholesky factor of (..., n, n).");
  m.def(
      "_linalg_qr",
      [](py::object a, const std::string& mode) { return qr(as_array(a, "qr"), mode); },
      py::arg("a"), py::arg("mode"), "Householder QR: [q, r] or [r] for mode 'r'.");
  m.def(
      "_linalg_svd",
      [](py::object a, bool full_matrices, bool compute_uv) {
        return svd(as_array(a, "svd"), full_matrices, compute_uv);
      },
      py::arg("a"), py::arg("full_matrices"), py::arg("compute_uv"),
      "Jacobi SVD: [u, s, vh] or [s].");
  m.def(
      "_linalg_eigh",
      [](py::object a, bool compute_v) { return eigh(as_array(a, "eigh"), compute_v); },
      py::arg("a"), py::arg("compute_v"), "Jacobi eigh of symmetric (..., n, n): [w, v] or [w].");
}

}  // namespace vka
