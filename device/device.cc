// Device: one logical device on a physical device; its caps, enabled features and queues.
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/errors.h"
#include "device/context.h"
#include "device/memory.h"
#include "device/memory_budget.h"
#include "device/physical_device.h"
#include "device/staging.h"
#include "device/stream.h"
#include "device/vk_check.h"

namespace vka {

Device::Device(std::shared_ptr<Instance> instance, VkPhysicalDevice physical, int physical_index,
               int num_queues, HostAccess host_access,
               const std::vector<std::string>& disable_features, TransferQueue transfer_queue,
               std::optional<uint64_t> memory_budget,
               std::optional<uint64_t> max_storage_buffer_range)
    : instance_(std::move(instance)),
      physical_(physical),
      physical_index_(physical_index),
      host_access_(host_access) {
  // Properties and limits.
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
  VkPhysicalDeviceFloatControlsProperties fc{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
  p11.pNext = &fc;
  fc.pNext = &driver;
  VkPhysicalDeviceMaintenance4Properties m4{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
  VkPhysicalDeviceExternalMemoryHostPropertiesEXT host_import{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props.pNext = &p11;
  const bool maintenance4 = has_extension(physical, VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
  if (maintenance4) driver.pNext = &m4;
  const bool has_host_import = has_extension(physical, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  if (has_host_import) {
    host_import.pNext = props.pNext;
    props.pNext = &host_import;
  }
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
  if (has_extension(physical, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
    sm.pNext = props.pNext;
    props.pNext = &sm;
  }
  // Push descriptors are required (checked with the features below).
  VkPhysicalDevicePushDescriptorPropertiesKHR push_desc{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
  push_desc.pNext = props.pNext;
  props.pNext = &push_desc;
  vkGetPhysicalDeviceProperties2(physical, &props);
  caps_.max_push_descriptors = push_desc.maxPushDescriptors;
  caps_.external_memory_host = has_host_import;
  caps_.min_imported_host_pointer_alignment =
      has_host_import ? host_import.minImportedHostPointerAlignment : 0;
  std::memcpy(caps_.device_uuid, p11.deviceUUID, VK_UUID_SIZE);
  const VkPhysicalDeviceLimits& lim = props.properties.limits;
  caps_.device_name = props.properties.deviceName;
  caps_.driver_name = std::string(driver.driverName) + " " + driver.driverInfo;
  caps_.vendor_id = props.properties.vendorID;
  caps_.device_id = props.properties.deviceID;
  caps_.api_version = props.properties.apiVersion;
  caps_.is_cpu = props.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  if (caps_.api_version < VK_API_VERSION_1_2) {
    throw DeviceError("[context] device '" + caps_.device_name + "' supports Vulkan " +
                      std::to_string(VK_API_VERSION_MAJOR(caps_.api_version)) + "." +
                      std::to_string(VK_API_VERSION_MINOR(caps_.api_version)) +
                      "; vkarray needs Vulkan 1.2");
  }
  caps_.max_storage_buffer_range = std::min<uint64_t>(
      lim.maxStorageBufferRange, max_storage_buffer_range.value_or(UINT64_MAX));
  caps_.min_storage_buffer_offset_alignment = lim.minStorageBufferOffsetAlignment;
  caps_.max_push_constants_size = lim.maxPushConstantsSize;
  caps_.max_uniform_buffer_range = lim.maxUniformBufferRange;
  caps_.max_per_stage_storage_buffers = lim.maxPerStageDescriptorStorageBuffers;
  for (int i = 0; i < 3; ++i) {
    caps_.max_compute_work_group_count[i] = lim.maxComputeWorkGroupCount[i];
    caps_.max_compute_work_group_size[i] = lim.maxComputeWorkGroupSize[i];
  }
  caps_.max_compute_work_group_invocations = lim.maxComputeWorkGroupInvocations;
  caps_.max_compute_shared_memory_size = lim.maxComputeSharedMemorySize;
  caps_.subgroup_size = p11.subgroupSize;
  caps_.subgroup_ballot = (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                          (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT);
  caps_.subgroup_arithmetic =
      (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
      (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT) &&
      (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
  caps_.sm_count = sm.shaderSMCount;
  caps_.max_memory_allocation_size = p11.maxMemoryAllocationSize;
  caps_.max_buffer_size = maintenance4 ? m4.maxBufferSize : UINT32_MAX;
  caps_.non_coherent_atom_size = lim.nonCoherentAtomSize;
  caps_.denorm_preserve_float16 = fc.shaderDenormPreserveFloat16;
  caps_.denorm_preserve_float32 = fc.shaderDenormPreserveFloat32;
  caps_.denorm_preserve_float64 = fc.shaderDenormPreserveFloat64;

  // Memory: the largest device-local heap, and whether the host can map all of it.
  vkGetPhysicalDeviceMemoryProperties(physical, &memory_);
  int largest_heap = -1;
  for (uint32_t h = 0; h < memory_.memoryHeapCount; ++h) {
    if ((memory_.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
        (largest_heap < 0 || memory_.memoryHeaps[h].size > caps_.device_local_bytes)) {
      largest_heap = static_cast<int>(h);
      caps_.device_local_bytes = memory_.memoryHeaps[h].size;
    }
  }
  const VkMemoryPropertyFlags bar = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t t = 0; t < memory_.memoryTypeCount; ++t) {
    if ((memory_.memoryTypes[t].propertyFlags & bar) == bar &&
        static_cast<int>(memory_.memoryTypes[t].heapIndex) == largest_heap) {
      caps_.host_visible_device_memory = true;
    }
  }

  // Queue family: compute queues, and whether they can write timestamps.
  queue_family_ = choose_queue_family(physical, num_queues, caps_.device_name);
  families_ = {queue_family_};
  double transfer_timestamp_period_ns = 0;
  {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, nullptr);
    std::vector<VkQueueFamilyProperties> fams(n);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, fams.data());
    if (fams[queue_family_].timestampValidBits > 0) {
      caps_.timestamp_period_ns = lim.timestampPeriod;
    }
    if (transfer_queue == TransferQueue::kAuto) transfer_family_ = dedicated_transfer_family(fams);
    if (transfer_family_) {
      families_.push_back(*transfer_family_);
      // Transfer families may write no timestamps (timestampValidBits 0).
      if (fams[*transfer_family_].timestampValidBits > 0) {
        transfer_timestamp_period_ns = lim.timestampPeriod;
      }
    } else if (transfer_queue == TransferQueue::kShared) {
      transfer_timestamp_period_ns = caps_.timestamp_period_ns;
    }
  }

  // Features: enable every optional one the device offers.
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  f11.pNext = &f12;
  const bool has_atomic_float = has_extension(physical, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (has_atomic_float) f12.pNext = &atomic_float;
  VkPhysicalDeviceFeatures2 avail{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  avail.pNext = &f11;
  VkPhysicalDeviceCooperativeMatrixFeaturesNV coop{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
  const bool has_coop = has_extension(physical, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
  if (has_coop) {
    coop.pNext = avail.pNext;
    avail.pNext = &coop;
  }
  vkGetPhysicalDeviceFeatures2(physical, &avail);
  if (!f12.timelineSemaphore) {
    throw DeviceError("[context] device '" + caps_.device_name +
                      "' lacks timelineSemaphore, which vkarray needs");
  }
  if (!has_extension(physical, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
    throw DeviceError("[context] device '" + caps_.device_name + "' lacks " +
                      VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME + ", which vkarray needs");
  }
  caps_.storage_buffer_16bit = f11.storageBuffer16BitAccess;
  caps_.buffer_device_address = f12.bufferDeviceAddress;
  caps_.shader_float32_atomic_add = has_atomic_float && atomic_float.shaderBufferFloat32AtomicAdd;

  // Features the context asked to leave off: cleared in what is enabled and in the caps.
  for (const std::string& f : disable_features) {
    if (f == "float64") {
      avail.features.shaderFloat64 = VK_FALSE;
    } else if (f == "int64") {
      avail.features.shaderInt64 = VK_FALSE;
    } else if (f == "int16") {
      avail.features.shaderInt16 = VK_FALSE;
    } else if (f == "int8") {
      f12.shaderInt8 = VK_FALSE;
      f12.storageBuffer8BitAccess = VK_FALSE;
    } else if (f == "float16") {
      f12.shaderFloat16 = VK_FALSE;
    } else if (f == "subgroup_ballot") {
      caps_.subgroup_ballot = false;
    } else if (f == "subgroup_arithmetic") {
      caps_.subgroup_arithmetic = false;
    } else {
      throw DeviceError("[context] unknown feature '" + f +
                        "' in disable_features (float64, int64, int16, int8, float16, "
                        "subgroup_ballot, subgroup_arithmetic)");
    }
  }
  caps_.shader_float64 = avail.features.shaderFloat64;
  caps_.shader_int64 = avail.features.shaderInt64;
  caps_.shader_int16 = avail.features.shaderInt16;
  caps_.shader_int8 = f12.shaderInt8;
  caps_.shader_float16 = f12.shaderFloat16;
  caps_.storage_buffer_8bit = f12.storageBuffer8BitAccess;
  caps_.cooperative_matrix_f16 = has_coop && coop.cooperativeMatrix && caps_.shader_float16 &&
                                 f11.storageBuffer16BitAccess &&
                                 has_f16_cooperative_matrix(instance_->get(), physical);

  VkPhysicalDeviceFeatures2 enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features e11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT eaf{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  enable.pNext = &e11;
  e11.pNext = &e12;
  enable.features.shaderFloat64 = avail.features.shaderFloat64;
  enable.features.shaderInt64 = avail.features.shaderInt64;
  enable.features.shaderInt16 = avail.features.shaderInt16;
  e11.storageBuffer16BitAccess = f11.storageBuffer16BitAccess;
  e12.storageBuffer8BitAccess = f12.storageBuffer8BitAccess;
  e12.shaderInt8 = f12.shaderInt8;
  e12.shaderFloat16 = f12.shaderFloat16;
  e12.timelineSemaphore = VK_TRUE;
  e12.bufferDeviceAddress = f12.bufferDeviceAddress;
  e12.hostQueryReset = f12.hostQueryReset;
  e12.scalarBlockLayout = f12.scalarBlockLayout;
  std::vector<const char*> extensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  if (has_atomic_float) {
    e12.pNext = &eaf;
    eaf.shaderBufferFloat32AtomicAdd = atomic_float.shaderBufferFloat32AtomicAdd;
    eaf.shaderBufferFloat32Atomics = atomic_float.shaderBufferFloat32Atomics;
    extensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  }
  if (has_host_import) extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  // The driver's budget and usage per heap, where it reports them (lavapipe does not).
  const bool has_memory_budget = has_extension(physical, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
  if (has_memory_budget) extensions.push_back(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
  VkPhysicalDeviceCooperativeMatrixFeaturesNV ecoop{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
  if (caps_.cooperative_matrix_f16) {
    ecoop.cooperativeMatrix = VK_TRUE;
    ecoop.pNext = enable.pNext;
    enable.pNext = &ecoop;
    extensions.push_back(VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
  }

  std::vector<float> priorities(num_queues, 1.0f);
  VkDeviceQueueCreateInfo qcis[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO},
                                     {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
  qcis[0].queueFamilyIndex = queue_family_;
  qcis[0].queueCount = static_cast<uint32_t>(num_queues);
  qcis[0].pQueuePriorities = priorities.data();
  if (transfer_family_) {  // one queue of the dedicated transfer family
    qcis[1].queueFamilyIndex = *transfer_family_;
    qcis[1].queueCount = 1;
    qcis[1].pQueuePriorities = priorities.data();
  }
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &enable;
  dci.queueCreateInfoCount = transfer_family_ ? 2 : 1;
  dci.pQueueCreateInfos = qcis;
  dci.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  dci.ppEnabledExtensionNames = extensions.data();
  VkDevice dev = VK_NULL_HANDLE;
  VK_CHECK(vkCreateDevice(physical, &dci, nullptr, &dev));
  device_ = Handle<VkDevice>(dev);
  for (int q = 0; q < num_queues; ++q) {
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(dev, queue_family_, static_cast<uint32_t>(q), &queue);
    queues_.push_back(queue);
  }
  push_descriptor_ = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
      vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR"));
  VKA_ASSERT(push_descriptor_ != nullptr);
  // The physical device's identity, shared by its logical devices in every context.
  std::string key = std::to_string(physical_index) + ":" + caps_.device_name + ":";
  for (uint8_t b : caps_.device_uuid) {
    key += "0123456789abcdef"[b >> 4];
    key += "0123456789abcdef"[b & 15];
  }
  budget_ =
      std::make_unique<MemoryBudget>(physical, memory_, has_memory_budget, key, memory_budget);
  staging_ = std::make_unique<StagingPool>(*this);
  pool_ = std::make_unique<AllocationPool>(*this);
  if (transfer_family_) {
    // Its timestamps need a host-side query reset (Stream::timestamp).
    if (!f12.hostQueryReset) transfer_timestamp_period_ns = 0;
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(dev, *transfer_family_, 0, &queue);
    transfer_stream_ =
        std::make_unique<Stream>(*this, queue, *transfer_family_, transfer_timestamp_period_ns);
  } else if (transfer_queue == TransferQueue::kShared) {
    // Legal on one VkQueue: every submission comes from the thread that owns the context.
    transfer_stream_ =
        std::make_unique<Stream>(*this, queues_[0], queue_family_, transfer_timestamp_period_ns);
  }
}

std::string Device::transfer_queue_description() const {
  if (transfer_family_) return "dedicated family " + std::to_string(*transfer_family_);
  return transfer_stream_ ? "shared" : "none";
}

void Device::close_transfer_stream() { transfer_stream_.reset(); }

void Device::share_across_families(VkBufferCreateInfo& info) const {
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (families_.size() > 1) {
    info.sharingMode = VK_SHARING_MODE_CONCURRENT;
    info.queueFamilyIndexCount = static_cast<uint32_t>(families_.size());
    info.pQueueFamilyIndices = families_.data();
  }
}

void Device::add_memory_reclaimer(std::function<void()> fn) {
  reclaimers_.push_back(std::move(fn));
}

void Device::release_cached_memory() {
  if (reclaiming_) return;  // a reclaimer that allocates does not start another round
  reclaiming_ = true;
  try {
    for (auto& fn : reclaimers_) fn();
    staging_->trim();
    pool_->release();
  } catch (...) {
    reclaiming_ = false;
    throw;
  }
  reclaiming_ = false;
}

void Device::reclaim_memory(int level) {
  if (level >= 1) release_cached_memory();
  budget_->release_shared_pools();
}

Device::~Device() {
  reclaimers_.clear();       // they refer to attachments and the context
  transfer_stream_.reset();  // its deferred allocations go back to the pool
  if (device_) vkDeviceWaitIdle(device_);
  attachments_.clear();
  staging_.reset();
  pool_.reset();
}

}  // namespace vka
