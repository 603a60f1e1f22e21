// Caps: the limits and features of one device that code generation and scheduling depend on.
#pragma once

#include <cstdint>
#include <string>

namespace vka {

struct Caps {
  std::string device_name;
  std::string driver_name;  // "NVIDIA 580.159.04", "llvmpipe Mesa 22.3.6"
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t api_version = 0;
  bool is_cpu = false;  // lavapipe and other software rasterizers

  // Limits.
  uint64_t max_storage_buffer_range = 0;
  uint64_t min_storage_buffer_offset_alignment = 0;
  uint32_t max_push_constants_size = 0;
  uint32_t max_uniform_buffer_range = 0;
  uint32_t max_per_stage_storage_buffers = 0;
  uint32_t max_push_descriptors = 0;  // VK_KHR_push_descriptor: descriptors one dispatch binds
  uint32_t max_compute_work_group_count[3] = {0, 0, 0};
  uint32_t max_compute_work_group_size[3] = {0, 0, 0};
  uint32_t max_compute_work_group_invocations = 0;
  uint32_t max_compute_shared_memory_size = 0;
  uint32_t subgroup_size = 0;
  // GL_KHR_shader_subgroup_ballot in compute shaders (the radix sort's 8-bit ranking).
  bool subgroup_ballot = false;
  // GL_KHR_shader_subgroup_arithmetic in compute shaders (the LU panel's pivot search).
  bool subgroup_arithmetic = false;
  // Streaming multiprocessors (VK_NV_shader_sm_builtins' shaderSMCount); 0: not reported.
  uint32_t sm_count = 0;
  uint64_t max_memory_allocation_size = 0;
  uint64_t max_buffer_size = 0;
  uint64_t device_local_bytes = 0;  // size of the largest DEVICE_LOCAL heap
  uint64_t non_coherent_atom_size = 0;
  double timestamp_period_ns = 0;  // 0: no compute-queue timestamps

  // Features (each one is enabled on the logical device when the physical device offers it).
  bool shader_float64 = false;
  bool shader_int64 = false;
  bool shader_int16 = false;
  bool shader_int8 = false;
  bool shader_float16 = false;
  bool storage_buffer_8bit = false;
  bool storage_buffer_16bit = false;
  bool buffer_device_address = false;
  bool shader_float32_atomic_add = false;
  // Shaders may ask to keep subnormal values of these widths instead of flushing them to zero
  // (VK_KHR_shader_float_controls; NVIDIA flushes float32 subnormals unless asked).
  bool denorm_preserve_float16 = false;
  bool denorm_preserve_float32 = false;
  bool denorm_preserve_float64 = false;
  // 16 x 16 x 16 float16 x float16 + float32 subgroup cooperative matrices
  // (VK_NV_cooperative_matrix, enabled when offered): the float16 GEMM kernel uses them.
  bool cooperative_matrix_f16 = false;
  // DEVICE_LOCAL|HOST_VISIBLE|HOST_COHERENT memory over the whole device-local heap
  // (resizable BAR, or unified memory as on lavapipe).
  bool host_visible_device_memory = false;
  // VK_EXT_external_memory_host (enabled when offered): host memory imported as device memory,
  // so that two devices copy through one pinned host buffer (device/cross_device.h).
  bool external_memory_host = false;
  uint64_t min_imported_host_pointer_alignment = 0;  // 0 without the extension
  // VkPhysicalDeviceIDProperties::deviceUUID: equal for logical devices of one physical device.
  uint8_t device_uuid[16] = {};

  // One line: name, driver, API version.
  std::string summary() const;
};

}  // namespace vka
