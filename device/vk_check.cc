// VkResult names and the conversion of failures and validation messages into exceptions.
#include "device/vk_check.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "base/errors.h"

namespace vka {
namespace {

std::mutex validation_mutex;
// Set while messages wait: every successful VK_CHECK reads this flag instead of the mutex.
std::atomic<bool> validation_pending{false};
std::vector<std::string>& validation_messages() {
  static std::vector<std::string> messages;
  return messages;
}

}  // namespace

const char* vk_result_name(VkResult r) {
  switch (r) {
#define VKA_CASE(x) \
  case x:           \
    return #x;
    VKA_CASE(VK_SUCCESS)
    VKA_CASE(VK_NOT_READY)
    VKA_CASE(VK_TIMEOUT)
    VKA_CASE(VK_EVENT_SET)
    VKA_CASE(VK_EVENT_RESET)
    VKA_CASE(VK_INCOMPLETE)
    VKA_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    VKA_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VKA_CASE(VK_ERROR_INITIALIZATION_FAILED)
    VKA_CASE(VK_ERROR_DEVICE_LOST)
    VKA_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    VKA_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    VKA_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    VKA_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    VKA_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    VKA_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    VKA_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VKA_CASE(VK_ERROR_FRAGMENTED_POOL)
    VKA_CASE(VK_ERROR_UNKNOWN)
    VKA_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    VKA_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    VKA_CASE(VK_ERROR_FRAGMENTATION)
    VKA_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
#undef VKA_CASE
    default:
      return "VK_ERROR_(unnamed)";
  }
}

void record_validation_error(const char* message) {
  std::lock_guard<std::mutex> lock(validation_mutex);
  validation_messages().emplace_back(message);
  validation_pending.store(true, std::memory_order_release);
}

void discard_validation_message(const char* message) {
  if (!validation_pending.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(validation_mutex);
  auto& messages = validation_messages();
  messages.erase(std::remove(messages.begin(), messages.end(), message), messages.end());
  if (messages.empty()) validation_pending.store(false, std::memory_order_relaxed);
}

void throw_pending_validation_errors() {
  if (!validation_pending.load(std::memory_order_acquire)) return;
  std::string first;
  std::size_t count = 0;
  {
    std::lock_guard<std::mutex> lock(validation_mutex);
    auto& messages = validation_messages();
    if (messages.empty()) return;
    first = messages.front();
    count = messages.size();
    messages.clear();
    validation_pending.store(false, std::memory_order_relaxed);
  }
  throw DeviceError("[validation] " + first +
                    (count > 1 ? " (and " + std::to_string(count - 1) + " more)" : ""));
}

void vk_check(VkResult r, const char* call, const char* file, int line) {
  if (r == VK_SUCCESS) {
    throw_pending_validation_errors();
    return;
  }
  if (r > 0) return;  // VK_TIMEOUT, VK_NOT_READY, VK_INCOMPLETE: the caller inspects them.
  std::string msg = std::string(call) + " returned " + vk_result_name(r) + " at " + file + ":" +
                    std::to_string(line);
  if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) {
    throw OutOfMemory("[vulkan] " + msg);
  }
  throw DeviceError("[vulkan] " + msg);
}

}  // namespace vka
