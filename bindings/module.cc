// The _vkarray extension module: registration only; each binding file adds its part.
#include <pybind11/pybind11.h>

#include "bindings/errors_py.h"
#include "bindings/registry.h"

PYBIND11_MODULE(_vkarray, m) {
  m.doc() = "vkarray's compiled core; import it through the vkarray package.";
  vka::register_error_translator();
  vka::register_error_check(m);
  vka::register_context(m);
  vka::register_buffer(m);
  vka::register_ndarray(m);
  vka::register_ndarray_operators(m);
  vka::register_ops(m);
  vka::register_creation(m);
  vka::register_indexing(m);
  vka::register_views(m);
  vka::register_layout(m);
  vka::register_selection(m);
  vka::register_reductions(m);
  vka::register_sorting(m);
  vka::register_cumulative(m);
  vka::register_matmul(m);
  vka::register_random(m);
  vka::register_linalg(m);
  vka::register_fft(m);
  vka::register_host(m);
  vka::register_kernels(m);
  vka::register_replicas(m);
  vka::register_trace(m);
}
