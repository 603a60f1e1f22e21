// VkFFT behind the project's types: plans made with the replica's device and queue, their
// commands recorded into the replica's stream (which places the barriers), every VkFFT result
// checked. VkFFT itself is behind array/fft/vkfft_glue.h.
#include "array/fft/plan.h"


#include <algorithm>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "array/fft/vkfft_glue.h"
#include "base/errors.h"
#include "device/handle.h"
#include "device/stream.h"
#include "device/vk_check.h"

namespace vka {
namespace {

// A few of vkFFT.h's VkFFTResult codes, by name.
std::string vkfft_error(int r) {
  std::string name;
  switch (r) {
    case 1: name = "malloc failed"; break;
    case 3001: name = "unsupported radix"; break;
    case 3002: name = "unsupported FFT length"; break;
    case 3003: name = "unsupported R2C length"; break;
    case 4001: name = "failed to allocate"; break;
    case 4014: name = "shader parse failed"; break;
    case 4015: name = "shader link failed"; break;
    case 4017: name = "failed to create shader module"; break;
    case 4025: name = "failed to allocate memory"; break;
    case 4046: name = "failed to create pipeline"; break;
    default: name = "see VkFFTResult in vkFFT.h"; break;
  }
  return "VkFFT error " + std::to_string(r) + " (" + name + ")";
}

class FftPlan {
 public:
  FftPlan(Replica& rep, VkCommandPool pool, VkFence fence, const FftPlanKey& key,
          uint64_t in_bytes, uint64_t out_bytes)
      : key_(key),
        queue_index_(rep.queue_index),
        stream_(rep.stream.get()),
        physical_(rep.device->physical()),
        device_(rep.device->get()),
        queue_(rep.device->queue(rep.queue_index)),
        pool_(pool),
        fence_(fence) {
    // VkFFT's `buffer` is the complex side; its `inputBuffer` the other side (real for kReal):
    // forward reads inputBuffer into buffer, inverse (inverseReturnToInputBuffer) the reverse.
    const bool inv = key.inverse;
    buffer_bytes_ = inv ? in_bytes : out_bytes;
    input_bytes_ = inv ? out_bytes : in_bytes;
    VkaFftParams p{};
    p.physical_device = &physical_;
    p.device = &device_;
    p.queue = &queue_;
    p.command_pool = &pool_;
    p.fence = &fence_;
    // No buffers yet: VkFFT 1.2.26 would write descriptors of its Bluestein tables before it
    // makes them. The first record() names them, and VkFFT writes every descriptor then.
    p.buffer = nullptr;
    p.buffer_bytes = &buffer_bytes_;
    p.input = nullptr;
    p.input_bytes = &input_bytes_;
    p.n = static_cast<uint64_t>(key.n);
    p.batch = static_cast<uint64_t>(key.batch);
    p.columns = static_cast<uint64_t>(key.columns);
    p.real = key.kind == FftKind::kReal ? 1 : 0;
    p.double_precision = key.double_precision ? 1 : 0;
    p.inverse = inv ? 1 : 0;
    p.normalize = key.normalize ? 1 : 0;
    const int r = vka_fft_plan_create(&p, &plan_);
    if (r != 0) {
      throw DeviceError("[fft] VkFFT could not plan the " + key.describe() + " transform on " +
                        rep.label() + ": " + vkfft_error(r));
    }
  }
  // Only once no command buffer holds the plan's commands (FftPlanCache::collect), or with the
  // device (Device::~Device waits for it to be idle before its attachments go).
  ~FftPlan() { vka_fft_plan_destroy(plan_); }
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;

  bool matches(const FftPlanKey& key, int queue_index) const {
    return key_ == key && queue_index_ == queue_index;
  }

  void record(VkBuffer in, VkBuffer out) {
    Stream& s = *stream_;
    const VkBuffer buf = key_.inverse ? in : out;
    const VkBuffer inp = key_.inverse ? out : in;
    // VkFFT binds its own descriptor sets, rewritten when the launch names other buffers (it
    // compares the pointers we pass, so a new pair goes in the other slot). A set may not
    // change while submitted work uses it: wait for the plan's last use first. A set whose
    // work has completed is rewritten even for the same handles, since a handle may have been
    // destroyed and made again since.
    const bool pending = last_use_ > s.completed_value();
    if (!(pending && slots_[slot_][0] == buf && slots_[slot_][1] == inp)) {
      if (pending) s.wait(last_use_);
      slot_ ^= 1;
      slots_[slot_][0] = buf;
      slots_[slot_][1] = inp;
    }
    std::vector<VkBuffer> reads = {in}, writes = {out};
    if (key_.inverse) writes.push_back(in);
    if (VkBuffer temp = vka_fft_plan_temp_buffer(plan_)) writes.push_back(temp);
    VkCommandBuffer cb = s.record_external(reads, writes);
    const int r = vka_fft_plan_append(plan_, cb, &slots_[slot_][0], &slots_[slot_][1]);
    if (r != 0) {
      throw DeviceError("[fft] VkFFT could not record the " + key_.describe() +
                        " transform: " + vkfft_error(r));
    }
    last_use_ = s.pending_value();
  }

  // Whether the plan may be destroyed now: its last use has completed, and the command buffers
  // that recorded it are reset (which this does). Destroying a plan whose commands a completed
  // but not yet reset command buffer still holds corrupts the heap of Mesa 22.3's lavapipe (its
  // queue thread crashed in LLVM at a later dispatch), so the reset comes first.
  bool release() {
    if (last_use_ > stream_->completed_value()) return false;
    stream_->reset_completed();
    return true;
  }

 private:
  FftPlanKey key_;
  int queue_index_;
  Stream* stream_;
  // VkFFT keeps pointers to these for the plan's lifetime.
  VkPhysicalDevice physical_;
  VkDevice device_;
  VkQueue queue_;
  VkCommandPool pool_;
  VkFence fence_;
  uint64_t buffer_bytes_ = 0, input_bytes_ = 0;
  VkBuffer slots_[2][2] = {};
  int slot_ = 0;
  uint64_t last_use_ = 0;
  VkaFftPlan* plan_ = nullptr;
};

// Per device: VkFFT's upload command pool and fence, and the plans, most recently used first.
// Plans past kFftPlanCacheSize are retired: destroyed as soon as their last use has completed
// (checked at each lookup), never while work that uses them may still run.
struct FftPlanCache {
  Handle<VkCommandPool> pool;
  Handle<VkFence> fence;
  std::list<std::unique_ptr<FftPlan>> plans;
  std::vector<std::unique_ptr<FftPlan>> retired;

  void collect() {
    retired.erase(std::remove_if(retired.begin(), retired.end(),
                                 [](const std::unique_ptr<FftPlan>& p) { return p->release(); }),
                  retired.end());
  }
  // Every plan (VkFFT's tables and work buffers are device memory it allocates itself), when
  // an allocation runs short: retired, and destroyed once idle (the context has waited for
  // its work before this runs).
  void retire_all() {
    for (auto& p : plans) retired.push_back(std::move(p));
    plans.clear();
    collect();
  }
};

}  // namespace

std::string FftPlanKey::describe() const {
  std::string s = kind == FftKind::kComplex ? "c2c" : (inverse ? "c2r" : "r2c");
  s += inverse ? " inverse" : " forward";
  s += " n=" + std::to_string(n) + " batch=" + std::to_string(batch);
  if (columns > 0) s += " columns=" + std::to_string(columns);
  s += double_precision ? " double" : " single";
  if (normalize) s += " normalized";
  return s;
}

void record_fft(Replica& replica, const FftPlanKey& key, VkBuffer in, uint64_t in_bytes,
                VkBuffer out, uint64_t out_bytes) {
  Device& dev = *replica.device;
  FftPlanCache& cache = dev.attachment<FftPlanCache>();
  if (!cache.pool) {
    dev.add_memory_reclaimer([&cache] { cache.retire_all(); });
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = dev.queue_family();
    VkCommandPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateCommandPool(dev.get(), &pci, nullptr, &pool));
    cache.pool = Handle<VkCommandPool>(dev.get(), pool);
  }
  if (!cache.fence) {
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(dev.get(), &fci, nullptr, &fence));
    cache.fence = Handle<VkFence>(dev.get(), fence);
  }
  auto it = cache.plans.begin();
  while (it != cache.plans.end() && !(*it)->matches(key, replica.queue_index)) ++it;
  if (it == cache.plans.end()) {
    cache.plans.push_front(std::make_unique<FftPlan>(replica, cache.pool.get(),
                                                     cache.fence.get(), key, in_bytes, out_bytes));
    while (static_cast<int>(cache.plans.size()) > kFftPlanCacheSize) {
      cache.retired.push_back(std::move(cache.plans.back()));
      cache.plans.pop_back();
    }
    cache.collect();
  } else if (it != cache.plans.begin()) {
    cache.plans.splice(cache.plans.begin(), cache.plans, it);
  }
  cache.plans.front()->record(in, out);
}

int cached_fft_plans(Device& device) {
  return static_cast<int>(device.attachment<FftPlanCache>().plans.size());
}

int retired_fft_plans(Device& device) {
  FftPlanCache& cache = device.attachment<FftPlanCache>();
  cache.collect();
  return static_cast<int>(cache.retired.size());
}

}  // namespace vka
