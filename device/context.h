// Context: the Vulkan instance, the chosen devices, and the replica slots (device × queue).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <vector>

#include <vulkan/vulkan.h>

#include "device/caps.h"
#include "device/handle.h"

namespace vka {

class AllocationPool;
class MemoryBudget;
class Stream;
class StagingPool;

// How host data reaches device memory.
enum class HostAccess {
  kAuto,     // map DEVICE_LOCAL|HOST_VISIBLE memory where the device offers it, else stage
  kStaging,  // always copy through the pooled staging area (exercises that path anywhere)
};

// Which queue records the copies of pinned-host transfers (array/transfer.h). A dedicated
// transfer family reaches the GPU's copy engines (DMA), which run beside compute kernels.
enum class TransferQueue {
  kAuto,    // the device's TRANSFER-only queue family where it has one, else kOff
  kOff,     // copies stay on the replica's own stream
  kShared,  // a second stream on the replica's queue 0: one queue, but every cross-stream
            // synchronization of a dedicated queue (how one-queue devices test that path)
};

struct ContextOptions {
  // Physical-device indices (as listed by list_physical_devices()); an index may repeat, which
  // makes several logical devices on one physical device. Empty: VKA_DEVICE, else the best one.
  std::vector<int> devices;
  int queues_per_device = 1;
  std::optional<bool> validate;  // unset: VKA_VALIDATE
  HostAccess host_access = HostAccess::kAuto;
  // Optional features to leave off even where the device has them ("float64", "int64",
  // "int16", "int8", "float16", "subgroup_ballot", "subgroup_arithmetic"): runs the code paths
  // of a smaller device on a larger one.
  std::vector<std::string> disable_features;
  // Unset: VKA_TRANSFER_QUEUE ("auto", "off" or "shared"), else kAuto.
  std::optional<TransferQueue> transfer_queue;
  // The most bytes of each memory heap that each device of the context may allocate, below
  // what the device itself allows (for tests of running out of memory). Unset:
  // VKA_MEMORY_BUDGET ("512M", "1.5GiB", bytes), else no limit of vkarray's own.
  std::optional<uint64_t> memory_budget;
  // The most bytes one descriptor of the context's kernels binds, below the device's
  // maxStorageBufferRange (caps().max_storage_buffer_range reports the smaller): runs the paths
  // of operands past a binding on small arrays (for tests). Unset: VKA_MAX_STORAGE_BUFFER_RANGE
  // ("64K", bytes), else the device's.
  std::optional<uint64_t> max_storage_buffer_range;
};

struct PhysicalDeviceInfo {
  int index = 0;
  std::string name;
  std::string type;  // "discrete", "integrated", "virtual", "cpu", "other"
};

// The Vulkan instance; shared by every context. Validation is an instance property.
class Instance {
 public:
  explicit Instance(bool validate);
  VkInstance get() const { return instance_; }
  bool validating() const { return static_cast<bool>(messenger_) || validating_; }
  std::vector<VkPhysicalDevice> physical_devices() const;

 private:
  Handle<VkInstance> instance_;
  Handle<VkDebugUtilsMessengerEXT> messenger_;
  bool validating_ = false;
};

// One logical device with its compute queues.
class Device {
 public:
  Device(std::shared_ptr<Instance> instance, VkPhysicalDevice physical, int physical_index,
         int num_queues, HostAccess host_access,
         const std::vector<std::string>& disable_features = {},
         TransferQueue transfer_queue = TransferQueue::kOff,
         std::optional<uint64_t> memory_budget = std::nullopt,
         std::optional<uint64_t> max_storage_buffer_range = std::nullopt);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkDevice get() const { return device_; }
  VkPhysicalDevice physical() const { return physical_; }
  int physical_index() const { return physical_index_; }
  const Caps& caps() const { return caps_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_; }
  HostAccess host_access() const { return host_access_; }
  uint32_t queue_family() const { return queue_family_; }
  int num_queues() const { return static_cast<int>(queues_.size()); }
  VkQueue queue(int i) const { return queues_[i]; }
  // The queue families a buffer of this device may be used on: the compute family, and the
  // dedicated transfer family where one is open. Buffers are created CONCURRENT over them when
  // there are two: an EXCLUSIVE buffer would need a queue-family ownership transfer (a release
  // barrier on one queue, an acquire barrier on the other) at every hand-over between compute
  // and copy, or its contents would be undefined; for buffers CONCURRENT costs nothing.
  const std::vector<uint32_t>& queue_families() const { return families_; }
  // Sets `info`'s sharing mode for the families above: CONCURRENT over both where there are
  // two, EXCLUSIVE otherwise. `info` keeps a pointer into this device.
  void share_across_families(VkBufferCreateInfo& info) const;
  // The stream that records pinned-host copies (kShared or a dedicated family), or null.
  Stream* transfer_stream() const { return transfer_stream_.get(); }
  // "dedicated family N", "shared" or "none".
  std::string transfer_queue_description() const;
  // Finishes and destroys the transfer stream (the context's teardown, before pools go).
  void close_transfer_stream();
  StagingPool& staging() { return *staging_; }
  AllocationPool& pool() { return *pool_; }
  // What vkarray uses of each memory heap, and what it may use (device/memory_budget.h).
  MemoryBudget& memory_budget() { return *budget_; }
  const MemoryBudget& memory_budget() const { return *budget_; }

  // Memory held only for reuse, given back so that an allocation that did not fit may: level
  // 0 the pooled allocations of every device on this physical device (any context's); level 1
  // also release_cached_memory() (which waits for this device's context to finish its work).
  static constexpr int kReclaimLevels = 2;
  void reclaim_memory(int level);
  // Runs the reclaimers (the context's: wait for its work and empty its pools; upper layers'
  // caches, such as FFT plans), then frees this device's pooled allocations and idle staging.
  void release_cached_memory();
  // `fn` frees memory an upper layer keeps for reuse; it runs at release_cached_memory(), in
  // the order of registration, and never while allocating inside itself. Reclaimers go before
  // the device's attachments are destroyed.
  void add_memory_reclaimer(std::function<void()> fn);
  void clear_memory_reclaimers() { reclaimers_.clear(); }
  PFN_vkCmdPushDescriptorSetKHR push_descriptor_fn() const { return push_descriptor_; }

  // Per-device state of an upper layer (the kernel cache's pipelines, say), created on first
  // use and destroyed with the device, before the VkDevice: nothing can outlive its device or
  // be found again by a later device at the same address.
  template <typename T>
  T& attachment() {
    std::shared_ptr<void>& slot = attachments_[std::type_index(typeid(T))];
    if (!slot) slot = std::make_shared<T>();
    return *static_cast<T*>(slot.get());
  }

 private:
  std::shared_ptr<Instance> instance_;  // outlives the device
  VkPhysicalDevice physical_;
  int physical_index_;
  HostAccess host_access_;
  Caps caps_;
  VkPhysicalDeviceMemoryProperties memory_{};
  uint32_t queue_family_ = 0;
  std::vector<uint32_t> families_;
  std::optional<uint32_t> transfer_family_;  // the dedicated transfer family, when open
  Handle<VkDevice> device_;
  std::vector<VkQueue> queues_;
  std::unique_ptr<Stream> transfer_stream_;
  PFN_vkCmdPushDescriptorSetKHR push_descriptor_ = nullptr;
  std::unique_ptr<MemoryBudget> budget_;  // outlives the pools and every allocation
  std::vector<std::function<void()>> reclaimers_;
  bool reclaiming_ = false;
  std::unique_ptr<StagingPool> staging_;
  std::unique_ptr<AllocationPool> pool_;
  std::unordered_map<std::type_index, std::shared_ptr<void>> attachments_;
};

// A replica slot: one queue of one device. Every buffer has one allocation per replica, and a
// kernel runs on every replica unless the caller names one.
struct Replica {
  int index = 0;
  Device* device = nullptr;
  int device_index = 0;
  int queue_index = 0;
  std::unique_ptr<Stream> stream;
  std::string label() const;  // "replica 1 (device 0 'llvmpipe...', queue 1)"
};

class Context {
 public:
  explicit Context(ContextOptions options = {});
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  static std::shared_ptr<Context> create(ContextOptions options = {});
  // The process default, created on first use from the environment (VKA_DEVICE, VKA_VALIDATE).
  static std::shared_ptr<Context> default_context();
  static void set_default(std::shared_ptr<Context> context);
  // The default context if one was made, without making one (null otherwise).
  static std::shared_ptr<Context> default_if_created();

  int num_replicas() const { return static_cast<int>(replicas_.size()); }
  Replica& replica(int i);              // IndexError naming the range when out of range
  const Replica& replica(int i) const;  // likewise
  int num_devices() const { return static_cast<int>(devices_.size()); }
  Device& device(int i) { return *devices_.at(i); }
  const Device& device(int i) const { return *devices_.at(i); }
  const Instance& instance() const { return *instance_; }
  bool validating() const { return instance_->validating(); }

  // Submits recorded work on every replica (and transfer stream) and waits for all of it.
  void synchronize();
  // Which queue pinned-host transfers use: "dedicated family N", "shared" or "none" (for
  // several devices that differ: "device 0: ..., device 1: ...").
  std::string transfer_queue() const;
  // Waits for all work, then gives every allocation cached for reuse back to the driver: the
  // pools, idle staging chunks, and upper layers' caches (Device::release_cached_memory).
  void release_cached_memory();

  std::string describe() const;  // one line per replica

  // Per-context state of an upper layer (the staging shared by two devices, say), created on
  // first use and destroyed with the context once its streams have finished, before its
  // devices.
  template <typename T>
  T& attachment() {
    std::shared_ptr<void>& slot = attachments_[std::type_index(typeid(T))];
    if (!slot) slot = std::make_shared<T>();
    return *static_cast<T*>(slot.get());
  }

 private:
  std::shared_ptr<Instance> instance_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<Replica> replicas_;
  std::unordered_map<std::type_index, std::shared_ptr<void>> attachments_;
};

// Whether VK_LAYER_KHRONOS_validation is installed (what VKA_VALIDATE=1 needs).
bool validation_layer_available();

// Physical devices visible to Vulkan (creates a temporary instance).
std::vector<PhysicalDeviceInfo> list_physical_devices();

}  // namespace vka
