// The one exception map: every vka::Error subclass becomes exactly one Python builtin.
#include "bindings/errors_py.h"

#include "device/errors.h"

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
    } catch (const IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
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

}  // namespace vka
