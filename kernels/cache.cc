// The kernel cache: in-memory map per device, generated kernels built or read from SPIR-V files
// (the VkPipelineCache blobs and file writes: cache_disk.cc; user kernels: cache_user.cc).
#include "kernels/cache.h"

#include <unistd.h>
#include <algorithm>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <future>
#include <optional>
#include <vector>

#include "base/debug.h"
#include "base/errors.h"
#include "device/context.h"
#include "device/handle.h"
#include "device/vk_check.h"
#include "ir/ops.h"
#include "kernels/cache_file.h"
#include "kernels/cache_state.h"
#include "kernels/compile.h"
#include "kernels/emit.h"

namespace vka {
namespace {

// A generated or library kernel's pipeline: its operand bindings, and its argument block as
// push constants or as the binding after them (ir/kernel_spec.h: ArgBlock).
std::shared_ptr<const Pipeline> make_pipeline(Device& device, const std::vector<uint32_t>& spirv,
                                              const KernelSpec& spec, VkPipelineCache cache) {
  const uint32_t push = spec.args == ArgBlock::kPush ? push_layout(spec).size : 0;
  return std::make_shared<const Pipeline>(device, spirv, spec.num_bindings(), push, spec.name(),
                                          cache, nullptr, spec.args == ArgBlock::kUniform);
}

std::string hex(uint64_t v, int digits) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

// Everything about the device that can change generated code or its SPIR-V.
std::string device_key(const Device& device) {
  const Caps& c = device.caps();
  auto bit = [](const char* name, bool v) { return std::string(" ") + name + (v ? "=1" : "=0"); };
  return "vkarray kernel cache v" + std::to_string(kCacheFormatVersion) + "\nops " +
         hex(ops_table_fingerprint(), 16) + "\ndevice " + c.device_name + "\nvendor 0x" +
         hex(c.vendor_id, 4) + " device 0x" + hex(c.device_id, 4) + " api " +
         std::to_string(VK_API_VERSION_MAJOR(c.api_version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(c.api_version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(c.api_version)) + " driver " + c.driver_name +
         "\ncaps subgroup=" + std::to_string(c.subgroup_size) + bit("cpu", c.is_cpu) +
         bit("f64", c.shader_float64) + bit("i64", c.shader_int64) + bit("i16", c.shader_int16) +
         bit("i8", c.shader_int8) + bit("f16", c.shader_float16) +
         bit("sb8", c.storage_buffer_8bit) + bit("sb16", c.storage_buffer_16bit) +
         bit("bda", c.buffer_device_address) + bit("f32atomic", c.shader_float32_atomic_add) +
         bit("ballot", c.subgroup_ballot) + bit("arith", c.subgroup_arithmetic) +
         " shared=" + std::to_string(c.max_compute_shared_memory_size) + "\n";
}

// to_string() leaves out the kind, the source layouts and the slot dtypes; the key needs all.
std::string spec_key(const KernelSpec& spec) {
  std::string s = "spec kind=" + std::to_string(static_cast<int>(spec.kind)) + " sources=";
  for (Layout l : spec.sources) s += std::string(name(l)) + ",";
  s += " slots=";
  for (DType t : spec.slots) s += std::string(short_name(t)) + ",";
  return s + "\n" + spec.to_string();
}

// Destroying a dead device's pipelines would call into a freed VkDevice: keep them forever.
template <typename T>
void leak(std::unique_ptr<T> state) {
  static auto* graveyard = new std::vector<std::unique_ptr<T>>();
  graveyard->push_back(std::move(state));
}

}  // namespace

KernelCache::KernelCache(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) {
    disable_disk("cannot create " + dir_ + ": " + ec.message());
  } else if (::access(dir_.c_str(), W_OK | X_OK) != 0) {
    disable_disk(dir_ + " is not writable: " + std::strerror(errno));
  }
}

// Lives in each Device (an attachment) that a KernelCache holds pipelines for. It is destroyed
// in ~Device while the VkDevice still exists, and tells each such cache to save and drop that
// device's state: no pipeline outlives its device, and no later Device at the same address
// finds stale state.
struct KernelCache::DeviceToken {
  Device* device = nullptr;
  std::vector<KernelCache*> caches;
  ~DeviceToken() {
    for (KernelCache* c : caches) c->drop_device(device);
  }
};

KernelCache::~KernelCache() {
  for (auto& [device, state] : devices_) {
    // The device outlives this cache: it must no longer call back into it.
    auto& token = device->attachment<DeviceToken>();
    token.caches.erase(std::remove(token.caches.begin(), token.caches.end(), this),
                       token.caches.end());
    try {
      save_pipeline_cache(*state);
    } catch (const std::exception& e) {
      if (debug_level() >= 1) std::fprintf(stderr, "[cache] saving failed: %s\n", e.what());
    }
  }
}

KernelCache& KernelCache::instance() {
  static KernelCache* cache = new KernelCache(default_dir());
  return *cache;
}

std::string KernelCache::default_dir() {
  if (const char* v = std::getenv("VKA_CACHE_DIR")) return v;
  if (const char* v = std::getenv("XDG_CACHE_HOME"); v && *v) return std::string(v) + "/vkarray";
  if (const char* v = std::getenv("HOME"); v && *v) return std::string(v) + "/.cache/vkarray";
  return "";
}

std::string KernelCache::dir() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dir_;
}

KernelCache::Stats KernelCache::stats() const {
  return Stats{memory_hits_.load(), disk_hits_.load(),     compiles_.load(),
               disk_writes_.load(), corrupt_files_.load(), pipeline_cache_loads_.load()};
}

EmitOptions emit_options(const Caps& caps) {
  EmitOptions options;
  options.denorm_preserve_16 = caps.denorm_preserve_float16;
  options.denorm_preserve_32 = caps.denorm_preserve_float32;
  options.denorm_preserve_64 = caps.denorm_preserve_float64;
  options.float64 = caps.shader_float64;
  options.subgroup_size = caps.subgroup_size;
  options.subgroup_ballot = caps.subgroup_ballot;
  options.subgroup_arithmetic = caps.subgroup_arithmetic;
  options.max_shared_bytes = caps.max_compute_shared_memory_size;
  return options;
}

std::shared_ptr<const Pipeline> KernelCache::get(Device& device, const KernelSpec& spec) {
  const EmitOptions options = emit_options(device.caps());
  return get(device, spec, [&spec, options] { return emit(spec, options); });
}

std::shared_ptr<const Pipeline> KernelCache::get(Device& device, const KernelSpec& spec,
                                                 const std::function<std::string()>& glsl) {
  // Only a miss needs a promise (a heap allocation): a hit, the common case, makes none.
  std::optional<std::promise<std::shared_ptr<const Pipeline>>> promise;
  DeviceState* state = nullptr;
  uint64_t id = 0;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    state = &state_for(device);
    auto it = state->pipelines.find(spec);
    if (it != state->pipelines.end()) {
      auto future = it->second.future;
      lock.unlock();
      std::shared_ptr<const Pipeline> p = future.get();  // waits for a build in flight
      ++memory_hits_;
      return p;
    }
    id = ++next_entry_id_;
    promise.emplace();
    state->pipelines.emplace(spec, DeviceState::Entry{id, promise->get_future().share()});
  }
  try {
    std::shared_ptr<const Pipeline> p = build(*state, device, spec, glsl);
    promise->set_value(p);
    return p;
  } catch (...) {
    {
      // Not cached: the next get() tries again. clear_memory() may have replaced the entry.
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = state->pipelines.find(spec);
      if (it != state->pipelines.end() && it->second.id == id) state->pipelines.erase(it);
    }
    promise->set_exception(std::current_exception());  // for the get()s waiting on this build
    throw;
  }
}

KernelCache::DeviceState& KernelCache::state_for(Device& device) {
  auto it = devices_.find(&device);
  if (it != devices_.end()) {
    if (it->second->vk_device == device.get()) return *it->second;
    // The Device at this address was destroyed without forget_device().
    leak(std::move(it->second));
    devices_.erase(it);
  }
  auto state = std::make_unique<DeviceState>();
  state->vk_device = device.get();
  state->key_prefix = device_key(device);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(device.physical(), &props);
  state->identity.vendor_id = props.vendorID;
  state->identity.device_id = props.deviceID;
  std::memcpy(state->identity.uuid, props.pipelineCacheUUID, VK_UUID_SIZE);
  const std::string driver =
      device.caps().driver_name + " " + std::to_string(props.driverVersion) + " " +
      std::string(reinterpret_cast<const char*>(props.pipelineCacheUUID), VK_UUID_SIZE);
  state->pipeline_file = "pipelines-" + hex(props.vendorID, 4) + "-" + hex(props.deviceID, 4) +
                         "-" + hex(fnv1a64(driver), 16) + ".bin";
  load_pipeline_cache(*state);
  DeviceToken& token = device.attachment<DeviceToken>();
  token.device = &device;
  if (std::find(token.caches.begin(), token.caches.end(), this) == token.caches.end()) {
    token.caches.push_back(this);
  }
  return *devices_.emplace(&device, std::move(state)).first->second;
}

std::shared_ptr<const Pipeline> KernelCache::build(DeviceState& state, Device& device,
                                                   const KernelSpec& spec,
                                                   const std::function<std::string()>& glsl) {
  const std::string source = glsl();
  const std::string key =
      state.key_prefix + spec_key(spec) + "glsl " + digest128(source).hex() + "\n";
  const std::string file = digest128(key).hex() + ".spv";
  if (!dir().empty()) {
    if (auto p = from_disk(state, device, spec, key, file)) return p;
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<uint32_t> spirv = compile_glsl(source, spec.name());
  const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
  ++compiles_;
  if (debug_level() >= 2) {
    std::fprintf(stderr, "[cache] compile %s: %.1f ms\n", spec.name().c_str(), ms.count());
  }
  if (debug_level() >= 3) std::fprintf(stderr, "%s", numbered_source(source).c_str());
  if (debug_level() >= 4) std::fprintf(stderr, "%s", disassemble(spirv).c_str());
  if (!dir().empty()) write(file, encode_spirv_file(key, spirv));
  auto p = make_pipeline(device, spirv, spec, state.vk_cache);
  save_pipeline_cache(state);
  return p;
}

std::shared_ptr<const Pipeline> KernelCache::from_disk(DeviceState& state, Device& device,
                                                       const KernelSpec& spec,
                                                       const std::string& key,
                                                       const std::string& file) {
  const std::string path = dir() + "/" + file;
  std::optional<std::string> bytes = read_whole_file(path);
  if (!bytes) return nullptr;
  std::string why;
  std::optional<std::vector<uint32_t>> spirv = decode_spirv_file(*bytes, key, &why);
  std::shared_ptr<const Pipeline> p;
  if (spirv) {
    try {
      p = make_pipeline(device, *spirv, spec, state.vk_cache);
    } catch (const DeviceError& e) {
      why = e.what();  // checks passed, the driver still refused it: compile afresh
    }
  }
  if (!p) {
    ++corrupt_files_;
    if (debug_level() >= 1) {
      std::fprintf(stderr, "[cache] ignoring %s: %s\n", path.c_str(), why.c_str());
    }
    return nullptr;
  }
  ++disk_hits_;
  save_pipeline_cache(state);
  return p;
}

void KernelCache::forget_device(Device* device) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (devices_.count(device) == 0) return;
  }
  // This cache no longer holds the device's state, so the device must not call back.
  auto& token = device->attachment<DeviceToken>();
  token.caches.erase(std::remove(token.caches.begin(), token.caches.end(), this),
                     token.caches.end());
  drop_device(device);
}

void KernelCache::drop_device(Device* device) {
  std::unique_ptr<DeviceState> state;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = devices_.find(device);
    if (it == devices_.end()) return;
    state = std::move(it->second);
    devices_.erase(it);
  }
  if (state->vk_device != device->get()) return leak(std::move(state));
  // Called on the way to destroying the device, which must go on even when saving fails.
  try {
    save_pipeline_cache(*state);
  } catch (const std::exception& e) {
    if (debug_level() >= 1) std::fprintf(stderr, "[cache] saving failed: %s\n", e.what());
  }
}

void KernelCache::clear_memory() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [device, state] : devices_) {
    state->pipelines.clear();
    state->user_pipelines.clear();
  }
}

}  // namespace vka
