// Handle<T>: the one RAII owner of every Vulkan handle (move-only, destroyed exactly once).
#pragma once

#include <utility>

#include <vulkan/vulkan.h>

namespace vka {

// How each handle type is destroyed, and which parent destroys it.
template <typename T>
struct HandleTraits;

#define VKA_DEVICE_CHILD(T, destroy_fn)                                 \
  template <>                                                           \
  struct HandleTraits<T> {                                              \
    using Parent = VkDevice;                                            \
    static void destroy(VkDevice d, T h) { destroy_fn(d, h, nullptr); } \
  };
VKA_DEVICE_CHILD(VkBuffer, vkDestroyBuffer)
VKA_DEVICE_CHILD(VkDeviceMemory, vkFreeMemory)
VKA_DEVICE_CHILD(VkCommandPool, vkDestroyCommandPool)
VKA_DEVICE_CHILD(VkFence, vkDestroyFence)
VKA_DEVICE_CHILD(VkSemaphore, vkDestroySemaphore)
VKA_DEVICE_CHILD(VkQueryPool, vkDestroyQueryPool)
VKA_DEVICE_CHILD(VkShaderModule, vkDestroyShaderModule)
VKA_DEVICE_CHILD(VkPipeline, vkDestroyPipeline)
VKA_DEVICE_CHILD(VkPipelineLayout, vkDestroyPipelineLayout)
VKA_DEVICE_CHILD(VkPipelineCache, vkDestroyPipelineCache)
VKA_DEVICE_CHILD(VkDescriptorSetLayout, vkDestroyDescriptorSetLayout)
VKA_DEVICE_CHILD(VkDescriptorPool, vkDestroyDescriptorPool)
#undef VKA_DEVICE_CHILD

// The debug messenger's destroy function is an extension entry point, looked up at destruction.
template <>
struct HandleTraits<VkDebugUtilsMessengerEXT> {
  using Parent = VkInstance;
  static void destroy(VkInstance i, VkDebugUtilsMessengerEXT h) {
    auto fn = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(i, "vkDestroyDebugUtilsMessengerEXT"));
    if (fn) fn(i, h, nullptr);
  }
};

template <>
struct HandleTraits<VkInstance> {
  using Parent = std::nullptr_t;
  static void destroy(std::nullptr_t, VkInstance h) { vkDestroyInstance(h, nullptr); }
};

template <>
struct HandleTraits<VkDevice> {
  using Parent = std::nullptr_t;
  static void destroy(std::nullptr_t, VkDevice h) { vkDestroyDevice(h, nullptr); }
};

template <typename T>
class Handle {
 public:
  using Parent = typename HandleTraits<T>::Parent;

  Handle() = default;
  Handle(Parent parent, T handle) : parent_(parent), handle_(handle) {}
  explicit Handle(T handle) : handle_(handle) {}
  ~Handle() { reset(); }

  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept
      : parent_(other.parent_), handle_(std::exchange(other.handle_, VK_NULL_HANDLE)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      parent_ = other.parent_;
      handle_ = std::exchange(other.handle_, VK_NULL_HANDLE);
    }
    return *this;
  }

  T get() const { return handle_; }
  operator T() const { return handle_; }  // NOLINT: handles pass straight to vk* calls.
  explicit operator bool() const { return handle_ != VK_NULL_HANDLE; }

  void reset() {
    if (handle_ != VK_NULL_HANDLE) HandleTraits<T>::destroy(parent_, handle_);
    handle_ = VK_NULL_HANDLE;
  }

 private:
  Parent parent_{};
  T handle_ = VK_NULL_HANDLE;
};

}  // namespace vka
