// dtype × device feature checks.
#include "runtime/device_support.h"

#include "base/errors.h"

namespace vka {

bool supports(const Caps& c, DeviceFeature f) {
  switch (f) {
    case DeviceFeature::kNone:
      return true;
    case DeviceFeature::kInt8:
      return c.shader_int8 && c.storage_buffer_8bit;
    case DeviceFeature::kInt16:
      return c.shader_int16 && c.storage_buffer_16bit;
    case DeviceFeature::kInt64:
      return c.shader_int64;
    case DeviceFeature::kFloat16:
      return c.shader_float16 && c.storage_buffer_16bit;
    case DeviceFeature::kFloat64:
      return c.shader_float64;
  }
  return false;
}

void require_dtype(const Context& context, DType dtype, const std::string& op) {
  const DeviceFeature f = info(dtype).feature;
  for (int d = 0; d < context.num_devices(); ++d) {
    const Caps& caps = context.device(d).caps();
    if (!supports(caps, f)) {
      throw DTypeError("[" + op + "] " + std::string(name(dtype)) + " needs " +
                       std::string(name(f)) + ", which device '" + caps.device_name + "' lacks");
    }
  }
}

}  // namespace vka
