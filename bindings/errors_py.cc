// The one exception map: every vka::Error subclass becomes exactly one Python builtin (and
// AxisError numpy's AxisError).
#include "bindings/errors_py.h"

#include "base/errors.h"

namespace vka {

void register_error_translator() {
  // Subclasses are caught before their base, so each maps to its own builtin; the message
  // (which already names the op and the values) passes through unchanged.
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ShapeError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const DTypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const AxisError& e) {
      // numpy's own class (numpy.exceptions.AxisError, numpy.AxisError before 1.25), so code
      // catching it, ValueError or IndexError works as with numpy.
      pybind11::module_ np = pybind11::module_::import("numpy");
      pybind11::object cls = pybind11::hasattr(np, "exceptions") &&
                                     pybind11::hasattr(np.attr("exceptions"), "AxisError")
                                 ? np.attr("exceptions").attr("AxisError")
                                 : np.attr("AxisError");
      PyErr_SetObject(cls.ptr(), pybind11::str(e.what()).ptr());
    } catch (const IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const OverflowError& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const OutOfMemory& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const DeviceError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const CompileError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const InternalError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const Error& e) {  // a future subclass not yet listed above
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

void register_error_check(pybind11::module_& m) {
  // Raises the named vkarray error from C++, so tests can check the translator end to end for
  // errors the lavapipe device never produces (a driver that runs out of memory, say).
  m.def(
      "_raise_error",
      [](const std::string& kind, const std::string& message) {
        if (kind == "ShapeError") throw ShapeError(message);
        if (kind == "DTypeError") throw DTypeError(message);
        if (kind == "IndexError") throw IndexError(message);
        if (kind == "AxisError") throw AxisError(message);
        if (kind == "OverflowError") throw OverflowError(message);
        if (kind == "OutOfMemory") throw OutOfMemory(message);
        if (kind == "DeviceError") throw DeviceError(message);
        if (kind == "CompileError") throw CompileError(message);
        if (kind == "InternalError") throw InternalError(message);
        throw ShapeError("[_raise_error] unknown kind '" + kind + "'");
      },
      pybind11::arg("kind"), pybind11::arg("message"));
}

}  // namespace vka
