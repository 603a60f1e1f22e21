// DispatchProfiler: while one is active, every dispatch a Stream records is bracketed by GPU
// timestamps and kept with its kernel name, stream and bytes bound (vkarray's profile()).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <vulkan/vulkan.h>

#include "device/handle.h"

namespace vka {

class Stream;

struct DispatchRecord {
  std::string name;              // the pipeline's name ("external" for library-recorded work)
  const Stream* stream = nullptr;
  uint64_t bytes = 0;            // the sum of the bound buffer ranges
  double gpu_ns = 0;             // NaN where the queue cannot write timestamps
};

class DispatchProfiler {
 public:
  DispatchProfiler() = default;
  ~DispatchProfiler();  // stops it; the streams it saw must still exist
  DispatchProfiler(const DispatchProfiler&) = delete;
  DispatchProfiler& operator=(const DispatchProfiler&) = delete;

  // The active profiler or null: the one check a dispatch makes when profiling is off.
  static DispatchProfiler* active();
  // Makes this the active profiler (ValueError when another one is active).
  void start();
  void stop();

  // Stream's hooks around a dispatch recorded into `cb`.
  void before(Stream& stream, VkCommandBuffer cb);
  void after(Stream& stream, VkCommandBuffer cb, const std::string& name, uint64_t bytes);

  // The records so far, in recording order; submits and waits for the streams' work first.
  std::vector<DispatchRecord> records();

 private:
  struct Pools {
    VkDevice device = VK_NULL_HANDLE;
    double period_ns = 0;
    std::vector<Handle<VkQueryPool>> pools;
    uint32_t used = 0;  // queries used in pools.back()
  };
  struct Pending {
    DispatchRecord record;
    VkQueryPool pool = VK_NULL_HANDLE;
    uint32_t slot = 0;  // begin; end is slot + 1
    bool timed = false;
    bool resolved = false;
  };

  std::mutex mutex_;
  std::unordered_map<const Stream*, Pools> pools_;
  std::unordered_map<const Stream*, size_t> open_;  // a begun dispatch per stream: its index
  std::vector<Pending> pending_;
};

}  // namespace vka
