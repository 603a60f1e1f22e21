// The registration functions module.cc calls, one per binding file.
#pragma once

#include <pybind11/pybind11.h>

namespace vka {

void register_context(pybind11::module_& m);  // context_py.cc
void register_buffer(pybind11::module_& m);   // buffer_py.cc

}  // namespace vka
