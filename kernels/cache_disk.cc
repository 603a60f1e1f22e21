// The kernel cache's disk side: each device's VkPipelineCache blob, loaded once and saved as
// it grows, and atomic file writes (the disk cache turns off, never fails a kernel).
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/debug.h"
#include "base/errors.h"
#include "device/vk_check.h"
#include "kernels/cache.h"
#include "kernels/cache_file.h"
#include "kernels/cache_state.h"

namespace vka {

void KernelCache::load_pipeline_cache(DeviceState& state) {
  std::vector<uint8_t> data;
  if (!dir_.empty()) {
    const std::string path = dir_ + "/" + state.pipeline_file;
    if (std::optional<std::string> bytes = read_whole_file(path)) {
      std::string why;
      if (auto decoded = decode_pipeline_cache_file(*bytes, state.identity, &why)) {
        data = std::move(*decoded);
      } else {
        ++corrupt_files_;
        if (debug_level() >= 1) {
          std::fprintf(stderr, "[cache] ignoring %s: %s\n", path.c_str(), why.c_str());
        }
      }
    }
  }
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  VkPipelineCache cache = VK_NULL_HANDLE;
  try {
    VK_CHECK(vkCreatePipelineCache(state.vk_device, &info, nullptr, &cache));
    if (!data.empty()) {
      ++pipeline_cache_loads_;
      state.file_valid = true;
      state.saved_size = data.size();
    }
  } catch (const DeviceError&) {
    if (data.empty()) throw;
    // Our checks passed but the driver refused the data: start empty, rewrite the file later.
    ++corrupt_files_;
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    VK_CHECK(vkCreatePipelineCache(state.vk_device, &info, nullptr, &cache));
  }
  state.vk_cache = Handle<VkPipelineCache>(state.vk_device, cache);
}

void KernelCache::save_pipeline_cache(DeviceState& state) {
  if (dir().empty()) return;
  std::lock_guard<std::mutex> lock(state.save_mutex);
  std::size_t size = 0;
  VK_CHECK(vkGetPipelineCacheData(state.vk_device, state.vk_cache, &size, nullptr));
  if (state.file_valid && size == state.saved_size) return;  // the cache only grows
  std::vector<uint8_t> data;
  VkResult r = VK_INCOMPLETE;
  // Pipelines created by other threads meanwhile can grow it between the two calls.
  for (int attempt = 0; attempt < 4 && r == VK_INCOMPLETE; ++attempt) {
    data.resize(size + 4096 * attempt);
    size = data.size();
    VK_CHECK(r = vkGetPipelineCacheData(state.vk_device, state.vk_cache, &size, data.data()));
  }
  if (r != VK_SUCCESS) return;  // still growing: a later save catches up
  data.resize(size);
  write(state.pipeline_file, encode_pipeline_cache_file(data));
  state.file_valid = true;
  state.saved_size = size;
}

void KernelCache::write(const std::string& name, const std::string& bytes) {
  const std::string d = dir();
  if (d.empty()) return;
  std::string error = write_file_atomically(d, name, bytes);
  if (error.empty()) {
    ++disk_writes_;
  } else {
    disable_disk(error);
  }
}

void KernelCache::disable_disk(const std::string& why) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (dir_.empty()) return;
  if (debug_level() >= 1) {
    std::fprintf(stderr, "[cache] disk cache off (kernels are compiled per process): %s\n",
                 why.c_str());
  }
  dir_.clear();
}

void KernelCache::flush() {
  std::vector<DeviceState*> states;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [device, state] : devices_) states.push_back(state.get());
  }
  for (DeviceState* s : states) save_pipeline_cache(*s);
}

}  // namespace vka
