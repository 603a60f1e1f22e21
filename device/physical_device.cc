// Queries of a physical device that choosing and creating a Device needs: its extensions,
// its cooperative matrices, and the queue families for compute and for copies.
#include "device/physical_device.h"

#include <algorithm>
#include <cstring>

#include "base/errors.h"
#include "device/vk_check.h"

namespace vka {

bool has_f16_cooperative_matrix(VkInstance instance, VkPhysicalDevice pd) {
  auto list = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV"));
  if (!list) return false;
  uint32_t n = 0;
  VK_CHECK(list(pd, &n, nullptr));
  std::vector<VkCooperativeMatrixPropertiesNV> props(
      n, VkCooperativeMatrixPropertiesNV{VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV});
  VK_CHECK(list(pd, &n, props.data()));
  for (const VkCooperativeMatrixPropertiesNV& p : props) {
    if (p.MSize == 16 && p.NSize == 16 && p.KSize == 16 && p.scope == VK_SCOPE_SUBGROUP_NV &&
        p.AType == VK_COMPONENT_TYPE_FLOAT16_NV && p.BType == VK_COMPONENT_TYPE_FLOAT16_NV &&
        p.CType == VK_COMPONENT_TYPE_FLOAT32_NV && p.DType == VK_COMPONENT_TYPE_FLOAT32_NV) {
      return true;
    }
  }
  return false;
}

bool has_extension(VkPhysicalDevice pd, const char* name) {
  uint32_t n = 0;
  VK_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr));
  std::vector<VkExtensionProperties> exts(n);
  VK_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data()));
  for (const auto& e : exts) {
    if (std::strcmp(e.extensionName, name) == 0) return true;
  }
  return false;
}

uint32_t choose_queue_family(VkPhysicalDevice pd, int num_queues, const std::string& name) {
  uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> fams(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams.data());
  int best = -1;
  uint32_t most = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!(fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    most = std::max(most, fams[i].queueCount);
    if (fams[i].queueCount < static_cast<uint32_t>(num_queues)) continue;
    bool compute_only = !(fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT);
    if (best < 0 || (compute_only && (fams[best].queueFlags & VK_QUEUE_GRAPHICS_BIT))) {
      best = static_cast<int>(i);
    }
  }
  if (best < 0) {
    throw DeviceError(
        "[context] device '" + name + "' offers at most " + std::to_string(most) +
        " compute queue(s) in one family, but queues_per_device=" + std::to_string(num_queues));
  }
  return static_cast<uint32_t>(best);
}

std::optional<uint32_t> dedicated_transfer_family(const std::vector<VkQueueFamilyProperties>& f) {
  for (uint32_t i = 0; i < f.size(); ++i) {
    const VkQueueFlags flags = f[i].queueFlags;
    if ((flags & VK_QUEUE_TRANSFER_BIT) &&
        !(flags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)) && f[i].queueCount > 0) {
      return i;
    }
  }
  return std::nullopt;
}

}  // namespace vka
