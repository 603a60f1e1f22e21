// VK_CHECK: every Vulkan call's VkResult becomes an exception naming the call and the result.
#pragma once

#include <vulkan/vulkan.h>

namespace vka {

const char* vk_result_name(VkResult r);

// Throws OutOfMemory for the out-of-memory results and DeviceError otherwise. Also throws any
// validation-layer error reported since the last check (VKA_VALIDATE=1), so that misuse surfaces
// at the call that caused it.
void vk_check(VkResult r, const char* call, const char* file, int line);

// Throws the first validation message recorded since the last call, if any.
void throw_pending_validation_errors();

// Called by the debug messenger; thread-safe.
void record_validation_error(const char* message);

// Drops recorded messages that are exactly `message`: Mesa's drivers report each error result
// they return through the messenger (lavapipe's vkAllocateMemory says
// "VK_ERROR_OUT_OF_DEVICE_MEMORY"), which is no misuse when the caller handles the result.
void discard_validation_message(const char* message);

}  // namespace vka

#define VK_CHECK(call) ::vka::vk_check((call), #call, __FILE__, __LINE__)
