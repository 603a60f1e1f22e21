// The kernel cache's side for user kernels (vk.Kernel): GLSL compiled once per source, kept in
// memory and, like generated kernels' SPIR-V, on disk, and their pipelines per device.
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernels/cache.h"
#include "kernels/cache_file.h"
#include "kernels/cache_state.h"
#include "kernels/compile.h"

namespace vka {

std::vector<uint32_t> KernelCache::compile_user(const std::string& source,
                                                const std::string& name) {
  const std::string key = "vkarray user kernel v" + std::to_string(kCacheFormatVersion) +
                          "\nglsl " + digest128(source).hex() + "\n";
  const std::string file = digest128(key).hex() + ".spv";
  // In memory too, for processes without a disk cache. Never freed, as instance() is not.
  static std::mutex memo_mutex;
  static auto* memo = new std::unordered_map<std::string, std::vector<uint32_t>>();
  {
    std::lock_guard<std::mutex> lock(memo_mutex);
    if (auto it = memo->find(key); it != memo->end()) {
      ++memory_hits_;
      return it->second;
    }
  }
  std::optional<std::vector<uint32_t>> spirv;
  if (const std::string d = dir(); !d.empty()) {
    if (std::optional<std::string> bytes = read_whole_file(d + "/" + file)) {
      std::string why;
      spirv = decode_spirv_file(*bytes, key, &why);
      ++(spirv ? disk_hits_ : corrupt_files_);
    }
  }
  if (!spirv) {
    spirv = compile_glsl(source, name);
    ++compiles_;
    write(file, encode_spirv_file(key, *spirv));
  }
  std::lock_guard<std::mutex> lock(memo_mutex);
  return memo->emplace(key, std::move(*spirv)).first->second;
}

std::shared_ptr<const Pipeline> KernelCache::get_user(Device& device, const std::string& key,
                                                      const std::vector<uint32_t>& spirv,
                                                      uint32_t num_bindings,
                                                      uint32_t push_constant_bytes,
                                                      const SpecConstants& spec,
                                                      const std::string& name) {
  DeviceState* state = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    state = &state_for(device);
    auto it = state->user_pipelines.find(key);
    if (it != state->user_pipelines.end()) {
      ++memory_hits_;
      return it->second;
    }
  }
  // Built unlocked (saving the VkPipelineCache takes the lock); a concurrent miss may build
  // the same pipeline twice, and the first one stored wins.
  auto p = std::make_shared<const Pipeline>(device, spirv, num_bindings, push_constant_bytes,
                                            name, state->vk_cache, &spec);
  save_pipeline_cache(*state);
  std::lock_guard<std::mutex> lock(mutex_);
  return state->user_pipelines.emplace(key, std::move(p)).first->second;
}

}  // namespace vka
