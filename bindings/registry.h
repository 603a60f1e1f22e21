// The registration functions module.cc calls, one per binding file.
#pragma once

#include <pybind11/pybind11.h>

namespace vka {

void register_context(pybind11::module_& m);            // context_py.cc
void register_buffer(pybind11::module_& m);             // buffer_py.cc
void register_ndarray(pybind11::module_& m);            // array_py.cc
void register_ndarray_operators(pybind11::module_& m);  // operators_py.cc (after ndarray)
void register_ops(pybind11::module_& m);                // ops_py.cc
void register_creation(pybind11::module_& m);           // creation_py.cc
void register_indexing(pybind11::module_& m);           // index_py.cc (after ndarray)
void register_views(pybind11::module_& m);              // views_py.cc (after ndarray)
void register_layout(pybind11::module_& m);             // layout_py.cc (after ndarray)
void register_selection(pybind11::module_& m);          // select_py.cc
void register_reductions(pybind11::module_& m);         // reduce_py.cc (after ndarray)
void register_sorting(pybind11::module_& m);            // sort_py.cc (after ndarray)
void register_cumulative(pybind11::module_& m);         // cumulative_py.cc
void register_matmul(pybind11::module_& m);             // matmul_py.cc (after ndarray)
void register_random(pybind11::module_& m);             // random_py.cc (after ndarray)
void register_linalg(pybind11::module_& m);             // linalg_py.cc
void register_fft(pybind11::module_& m);                // fft_py.cc
void register_host(pybind11::module_& m);               // host_py.cc (after ndarray)
void register_kernels(pybind11::module_& m);            // kernel_py.cc (after ndarray)
void register_replicas(pybind11::module_& m);           // replicas_py.cc (after ndarray)
void register_trace(pybind11::module_& m);              // trace_py.cc (after ndarray)

}  // namespace vka
