// Which dtypes a device can hold: the bridge between the dtype table and the device's Caps.
#pragma once

#include <string>

#include "device/caps.h"
#include "device/context.h"
#include "ir/dtype.h"

namespace vka {

bool supports(const Caps& caps, DeviceFeature feature);

// Throws DTypeError "[op] float64 needs shaderFloat64, which device 'X' lacks" unless every
// device of `context` supports `dtype`.
void require_dtype(const Context& context, DType dtype, const std::string& op);

}  // namespace vka
