// Queries of a physical device that choosing and creating a Device needs (device.cc).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vka {

// Whether the device lists 16 x 16 x 16 float16 x float16 + float32 cooperative matrices of
// subgroup scope (the shape kernels/gen/gemm.h's float16 kernel uses).
bool has_f16_cooperative_matrix(VkInstance instance, VkPhysicalDevice pd);

bool has_extension(VkPhysicalDevice pd, const char* name);

// The family with compute and at least `num_queues` queues, a compute-only family first (it
// does not share hardware with graphics work); DeviceError naming device `name` when none has
// that many.
uint32_t choose_queue_family(VkPhysicalDevice pd, int num_queues, const std::string& name);

// A family with TRANSFER but neither COMPUTE nor GRAPHICS: the copy engines (NVIDIA's DMA
// engines sit behind such a family; graphics and compute families reach the same engines
// only through the queue's in-order stream, which serializes copies with kernels).
std::optional<uint32_t> dedicated_transfer_family(const std::vector<VkQueueFamilyProperties>& f);

}  // namespace vka
