// Instance creation (with optional validation), device choice, logical devices and replicas.
#include "device/context.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>

#include "base/errors.h"
#include "device/memory.h"
#include "device/memory_budget.h"
#include "device/staging.h"
#include "device/stream.h"
#include "device/vk_check.h"

namespace vka {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
    record_validation_error(data->pMessage ? data->pMessage : "(no message)");
  }
  return VK_FALSE;  // never abort the call: the error is thrown at the next VK_CHECK
}

bool layer_available(const char* name) {
  uint32_t n = 0;
  VK_CHECK(vkEnumerateInstanceLayerProperties(&n, nullptr));
  std::vector<VkLayerProperties> layers(n);
  VK_CHECK(vkEnumerateInstanceLayerProperties(&n, layers.data()));
  for (const auto& l : layers) {
    if (std::strcmp(l.layerName, name) == 0) return true;
  }
  return false;
}

std::string type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "cpu";
    default:
      return "other";
  }
}

int type_rank(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 3;
    default:
      return 4;
  }
}

std::string device_name(VkPhysicalDevice pd) {
  VkPhysicalDeviceProperties p;
  vkGetPhysicalDeviceProperties(pd, &p);
  return p.deviceName;
}

// VKA_DEVICE: an index, or a case-sensitive substring of the device name.
int choose_device(const std::vector<VkPhysicalDevice>& pds) {
  if (pds.empty())
    throw DeviceError("[context] no Vulkan device found (is a Vulkan driver installed?)");
  if (const char* sel = std::getenv("VKA_DEVICE"); sel && *sel) {
    std::string s(sel);
    if (std::all_of(s.begin(), s.end(), ::isdigit)) {
      int i = std::stoi(s);
      if (i >= static_cast<int>(pds.size())) {
        throw IndexError("[context] VKA_DEVICE=" + s + " but only " + std::to_string(pds.size()) +
                         " Vulkan device(s) exist");
      }
      return i;
    }
    std::string names;
    for (size_t i = 0; i < pds.size(); ++i) {
      std::string n = device_name(pds[i]);
      if (n.find(s) != std::string::npos) return static_cast<int>(i);
      names += (i ? ", '" : "'") + n + "'";
    }
    throw DeviceError("[context] VKA_DEVICE='" + s + "' matches none of the devices: " + names);
  }
  int best = 0;
  for (size_t i = 1; i < pds.size(); ++i) {
    VkPhysicalDeviceProperties a, b;
    vkGetPhysicalDeviceProperties(pds[i], &a);
    vkGetPhysicalDeviceProperties(pds[best], &b);
    if (type_rank(a.deviceType) < type_rank(b.deviceType)) best = static_cast<int>(i);
  }
  return best;
}

// VKA_TRANSFER_QUEUE: "auto" (also when unset or empty), "off" or "shared".
TransferQueue transfer_queue_from_env() {
  const char* v = std::getenv("VKA_TRANSFER_QUEUE");
  if (v == nullptr || *v == '\0' || std::strcmp(v, "auto") == 0) return TransferQueue::kAuto;
  if (std::strcmp(v, "off") == 0) return TransferQueue::kOff;
  if (std::strcmp(v, "shared") == 0) return TransferQueue::kShared;
  throw ShapeError(std::string("[context] VKA_TRANSFER_QUEUE must be 'auto', 'off' or 'shared', "
                               "got '") +
                   v + "'");
}

// VKA_MEMORY_BUDGET: a size ("512M", "1.5GiB", bytes); unset or empty: none.
std::optional<uint64_t> memory_budget_from_env() {
  const char* v = std::getenv("VKA_MEMORY_BUDGET");
  if (v == nullptr || *v == '\0') return std::nullopt;
  return parse_byte_size(v, "VKA_MEMORY_BUDGET");
}

// VKA_MAX_STORAGE_BUFFER_RANGE: a size ("64K", bytes); unset or empty: the device's.
std::optional<uint64_t> max_storage_buffer_range_from_env() {
  const char* v = std::getenv("VKA_MAX_STORAGE_BUFFER_RANGE");
  if (v == nullptr || *v == '\0') return std::nullopt;
  return parse_byte_size(v, "VKA_MAX_STORAGE_BUFFER_RANGE");
}

std::mutex default_mutex;
std::shared_ptr<Context>& default_slot() {
  static std::shared_ptr<Context> slot;
  return slot;
}

}  // namespace

std::string Caps::summary() const {
  std::ostringstream s;
  s << device_name << " (" << driver_name << ", Vulkan " << VK_API_VERSION_MAJOR(api_version) << "."
    << VK_API_VERSION_MINOR(api_version) << "." << VK_API_VERSION_PATCH(api_version) << ")";
  return s.str();
}

Instance::Instance(bool validate) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vkarray";
  app.pEngineName = "vkarray";
  app.apiVersion = VK_API_VERSION_1_2;
  std::vector<const char*> layers, extensions;
  VkValidationFeatureEnableEXT sync_validation =
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = &sync_validation;
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  if (validate) {
    if (!layer_available(kValidationLayer)) {
      throw DeviceError(std::string("[context] VKA_VALIDATE is set but ") + kValidationLayer +
                        " is not installed (Debian: apt-get install vulkan-validationlayers)");
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    ci.pNext = &features;
  }
  ci.pApplicationInfo = &app;
  ci.enabledLayerCount = static_cast<uint32_t>(layers.size());
  ci.ppEnabledLayerNames = layers.data();
  ci.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  ci.ppEnabledExtensionNames = extensions.data();
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = vkCreateInstance(&ci, nullptr, &instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER) {
    throw DeviceError(
        "[context] no Vulkan 1.2 driver found (vkCreateInstance returned "
        "VK_ERROR_INCOMPATIBLE_DRIVER)");
  }
  VK_CHECK(r);
  instance_ = Handle<VkInstance>(instance);
  if (validate) {
    VkDebugUtilsMessengerCreateInfoEXT mi{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mi.pfnUserCallback = on_validation_message;
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    if (!create) throw DeviceError("[context] vkCreateDebugUtilsMessengerEXT is unavailable");
    VkDebugUtilsMessengerEXT m = VK_NULL_HANDLE;
    VK_CHECK(create(instance, &mi, nullptr, &m));
    messenger_ = Handle<VkDebugUtilsMessengerEXT>(instance, m);
    validating_ = true;
  }
}

std::vector<VkPhysicalDevice> Instance::physical_devices() const {
  uint32_t n = 0;
  VK_CHECK(vkEnumeratePhysicalDevices(instance_, &n, nullptr));
  std::vector<VkPhysicalDevice> pds(n);
  VK_CHECK(vkEnumeratePhysicalDevices(instance_, &n, pds.data()));
  return pds;
}

bool validation_layer_available() { return layer_available(kValidationLayer); }

std::vector<PhysicalDeviceInfo> list_physical_devices() {
  Instance instance(false);
  std::vector<PhysicalDeviceInfo> out;
  auto pds = instance.physical_devices();
  for (size_t i = 0; i < pds.size(); ++i) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(pds[i], &p);
    out.push_back({static_cast<int>(i), p.deviceName, type_name(p.deviceType)});
  }
  return out;
}

std::string Replica::label() const {
  return "replica " + std::to_string(index) + " (device " + std::to_string(device_index) + " '" +
         device->caps().device_name + "', queue " + std::to_string(queue_index) + ")";
}

Context::Context(ContextOptions options) {
  bool validate = options.validate.value_or(env_flag("VKA_VALIDATE"));
  if (options.queues_per_device < 1) {
    throw ShapeError("[context] queues_per_device must be at least 1, got " +
                     std::to_string(options.queues_per_device));
  }
  const TransferQueue transfer_queue =
      options.transfer_queue ? *options.transfer_queue : transfer_queue_from_env();
  if (options.memory_budget && *options.memory_budget == 0) {
    throw ShapeError("[context] memory_budget must be positive, got 0");
  }
  const std::optional<uint64_t> memory_budget =
      options.memory_budget ? options.memory_budget : memory_budget_from_env();
  const std::optional<uint64_t> max_range = options.max_storage_buffer_range
                                                ? options.max_storage_buffer_range
                                                : max_storage_buffer_range_from_env();
  // A binding window starts up to minStorageBufferOffsetAlignment (at most 256) bytes before
  // its view and ends on a 32-byte boundary: a smaller range might not hold one.
  if (max_range && *max_range < 1024) {
    throw ShapeError("[context] max_storage_buffer_range must be at least 1024 bytes, got " +
                     std::to_string(*max_range));
  }
  instance_ = std::make_shared<Instance>(validate);
  auto pds = instance_->physical_devices();
  std::vector<int> chosen = options.devices;
  if (chosen.empty()) chosen.push_back(choose_device(pds));
  for (int index : chosen) {
    if (index < 0 || index >= static_cast<int>(pds.size())) {
      throw IndexError("[context] device index " + std::to_string(index) + " is out of range: " +
                       std::to_string(pds.size()) + " Vulkan device(s) exist");
    }
    devices_.push_back(std::make_unique<Device>(
        instance_, pds[index], index, options.queues_per_device, options.host_access,
        options.disable_features, transfer_queue, memory_budget, max_range));
  }
  for (size_t d = 0; d < devices_.size(); ++d) {
    for (int q = 0; q < devices_[d]->num_queues(); ++q) {
      Replica r;
      r.index = static_cast<int>(replicas_.size());
      r.device = devices_[d].get();
      r.device_index = static_cast<int>(d);
      r.queue_index = q;
      r.stream = std::make_unique<Stream>(*r.device, q);
      replicas_.push_back(std::move(r));
    }
  }
  // An allocation that does not fit first waits for this context's work, so that buffers
  // dropped while the GPU still used them come back, and empties the context's pools and idle
  // staging. Registered first, so that upper layers' reclaimers find the devices idle.
  for (auto& d : devices_) {
    d->add_memory_reclaimer([this] {
      synchronize();
      for (auto& dev : devices_) {
        dev->staging().trim();
        dev->pool().release();
      }
    });
  }
}

Context::~Context() {
  for (auto& d : devices_) d->clear_memory_reclaimers();  // nothing is reclaimed from here on
  // Streams finish their work and release deferred allocations before the devices go; the
  // transfer streams last, since replica streams hand them allocations (release_later).
  for (auto& d : devices_) {
    try {
      if (d->transfer_stream()) d->transfer_stream()->finish();
    } catch (...) {  // a lost device cannot be waited for
    }
  }
  for (auto& r : replicas_) {
    try {
      r.stream->finish();
    } catch (...) {  // a lost device cannot be waited for; release what we can
    }
  }
  attachments_.clear();
  replicas_.clear();
  for (auto& d : devices_) {
    d->close_transfer_stream();
    d->staging().release_all();
    d->pool().release();
  }
}

std::shared_ptr<Context> Context::create(ContextOptions options) {
  return std::make_shared<Context>(std::move(options));
}

std::shared_ptr<Context> Context::default_context() {
  std::lock_guard<std::mutex> lock(default_mutex);
  auto& slot = default_slot();
  if (!slot) {
    slot = create();
    // Handlers run in reverse order of registration, so this one runs before the destructors
    // of the Vulkan driver and layers, which were loaded by the create() above.
    static const bool registered = [] {
      std::atexit([] { default_slot().reset(); });
      return true;
    }();
    (void)registered;
  }
  return slot;
}

std::shared_ptr<Context> Context::default_if_created() {
  std::lock_guard<std::mutex> lock(default_mutex);
  return default_slot();
}

void Context::set_default(std::shared_ptr<Context> context) {
  std::lock_guard<std::mutex> lock(default_mutex);
  default_slot() = std::move(context);
}

Replica& Context::replica(int i) {
  return const_cast<Replica&>(static_cast<const Context*>(this)->replica(i));
}

const Replica& Context::replica(int i) const {
  if (i < 0 || i >= num_replicas()) {
    throw IndexError("[replica] index " + std::to_string(i) +
                     " is out of range for a context with " + std::to_string(num_replicas()) +
                     " replica(s)");
  }
  return replicas_[i];
}

void Context::synchronize() {
  for (auto& r : replicas_) r.stream->submit();
  for (auto& d : devices_) {
    if (d->transfer_stream()) d->transfer_stream()->finish();
  }
  for (auto& r : replicas_) r.stream->finish();
}

std::string Context::transfer_queue() const {
  bool same = true;
  for (const auto& d : devices_) {
    same = same && d->transfer_queue_description() == devices_[0]->transfer_queue_description();
  }
  if (same) return devices_[0]->transfer_queue_description();
  std::string s;
  for (size_t i = 0; i < devices_.size(); ++i) {
    s += (i ? ", device " : "device ") + std::to_string(i) + ": " +
         devices_[i]->transfer_queue_description();
  }
  return s;
}

void Context::release_cached_memory() {
  synchronize();
  for (auto& d : devices_) d->release_cached_memory();
}

std::string Context::describe() const {
  std::string s;
  for (const auto& r : replicas_) {
    s += r.label() + ": " + r.device->caps().summary() + "\n";
  }
  return s;
}

}  // namespace vka
