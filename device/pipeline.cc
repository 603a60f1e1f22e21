// Compute pipelines with push descriptors (no descriptor pools to manage per dispatch).
#include "device/pipeline.h"

#include "base/errors.h"
#include "device/context.h"
#include "device/vk_check.h"

namespace vka {

Pipeline::Pipeline(Device& device, const std::vector<uint32_t>& spirv, uint32_t num_bindings,
                   uint32_t push_constant_bytes, std::string name, VkPipelineCache cache,
                   const SpecConstants* spec, bool uniform_last)
    : device_(&device),
      name_(std::move(name)),
      num_bindings_(num_bindings),
      push_constant_bytes_(push_constant_bytes),
      uniform_last_(uniform_last) {
  VKA_ASSERT(!uniform_last || num_bindings > 0);
  const Caps& caps = device.caps();
  if (push_constant_bytes > caps.max_push_constants_size) {
    throw DeviceError("[" + name_ + "] push constants of " + std::to_string(push_constant_bytes) +
                      " bytes exceed the device limit of " +
                      std::to_string(caps.max_push_constants_size));
  }
  const uint32_t storage = num_bindings - (uniform_last ? 1 : 0);
  if (storage > caps.max_per_stage_storage_buffers) {
    throw DeviceError("[" + name_ + "] " + std::to_string(storage) +
                      " storage buffers exceed the device limit of " +
                      std::to_string(caps.max_per_stage_storage_buffers) + " per stage");
  }
  VkDevice dev = device.get();

  std::vector<VkDescriptorSetLayoutBinding> bindings(num_bindings);
  for (uint32_t i = 0; i < num_bindings; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = uniform_last && i + 1 == num_bindings
                                     ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                     : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo dsl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dsl.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  dsl.bindingCount = num_bindings;
  dsl.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VK_CHECK(vkCreateDescriptorSetLayout(dev, &dsl, nullptr, &set_layout));
  set_layout_ = Handle<VkDescriptorSetLayout>(dev, set_layout);

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &set_layout;
  pl.pushConstantRangeCount = push_constant_bytes > 0 ? 1 : 0;
  pl.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VK_CHECK(vkCreatePipelineLayout(dev, &pl, nullptr, &layout));
  layout_ = Handle<VkPipelineLayout>(dev, layout);

  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  smci.codeSize = spirv.size() * sizeof(uint32_t);
  smci.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  VK_CHECK(vkCreateShaderModule(dev, &smci, nullptr, &module));
  Handle<VkShaderModule> module_handle(dev, module);  // needed only until the pipeline exists

  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpci.stage.module = module;
  cpci.stage.pName = "main";
  VkSpecializationInfo si{};
  if (spec && !spec->entries.empty()) {
    si.mapEntryCount = static_cast<uint32_t>(spec->entries.size());
    si.pMapEntries = spec->entries.data();
    si.dataSize = spec->data.size();
    si.pData = spec->data.data();
    cpci.stage.pSpecializationInfo = &si;
  }
  cpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VK_CHECK(vkCreateComputePipelines(dev, cache, 1, &cpci, nullptr, &pipeline));
  pipeline_ = Handle<VkPipeline>(dev, pipeline);
}

}  // namespace vka
