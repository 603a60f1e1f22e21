// KernelCache's per-device state, shared by cache.cc, cache_disk.cc and cache_user.cc.
#pragma once

#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "device/handle.h"
#include "kernels/cache.h"
#include "kernels/cache_file.h"

namespace vka {

struct KernelCache::DeviceState {
  VkDevice vk_device = VK_NULL_HANDLE;  // tells a reused Device* from the one seen before
  std::string key_prefix;               // device_key()
  PipelineCacheIdentity identity;
  std::string pipeline_file;  // pipelines-<vendor>-<device>-<driver hash>.bin

  std::mutex save_mutex;    // serializes saves of vk_cache
  bool file_valid = false;  // the file holds what vk_cache held at saved_size
  std::size_t saved_size = 0;
  Handle<VkPipelineCache> vk_cache;

  // An entry is in the map from the first get() on; `future` is ready once built. Declared
  // last so pipelines are destroyed before the VkPipelineCache.
  struct Entry {
    uint64_t id;
    std::shared_future<std::shared_ptr<const Pipeline>> future;
  };
  std::unordered_map<KernelSpec, Entry, SpecHash> pipelines;
  std::unordered_map<std::string, std::shared_ptr<const Pipeline>> user_pipelines;  // get_user
};

}  // namespace vka
