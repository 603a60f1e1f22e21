// Pipeline: a compute pipeline from SPIR-V; binding i is storage buffer argument i, and all
// metadata travels in one push-constant block.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "device/handle.h"

namespace vka {

class Device;

// Specialization constants of a pipeline (user kernels): map entries into `data`.
struct SpecConstants {
  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint8_t> data;
};

class Pipeline {
 public:
  // Bindings 0..num_bindings-1 are storage buffers, except the last when `uniform_last` (a
  // generated kernel's argument block, ir/kernel_spec.h: ArgBlock::kUniform). `cache` may be
  // VK_NULL_HANDLE. Throws DeviceError when the push-constant block or the binding count exceeds
  // the device's limits (naming both numbers). `spec` may be null (none).
  Pipeline(Device& device, const std::vector<uint32_t>& spirv, uint32_t num_bindings,
           uint32_t push_constant_bytes, std::string name, VkPipelineCache cache = VK_NULL_HANDLE,
           const SpecConstants* spec = nullptr, bool uniform_last = false);

  Device& device() const { return *device_; }
  const std::string& name() const { return name_; }
  uint32_t num_bindings() const { return num_bindings_; }
  uint32_t push_constant_bytes() const { return push_constant_bytes_; }
  bool uniform_last() const { return uniform_last_; }
  VkPipeline get() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }

 private:
  Device* device_;
  std::string name_;
  uint32_t num_bindings_;
  uint32_t push_constant_bytes_;
  bool uniform_last_;
  Handle<VkDescriptorSetLayout> set_layout_;
  Handle<VkPipelineLayout> layout_;
  Handle<VkPipeline> pipeline_;
};

}  // namespace vka
