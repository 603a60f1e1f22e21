// The dispatch profiler: query pools per stream, two timestamps per dispatch.
#include "device/profile.h"

#include <atomic>
#include <cmath>
#include <limits>

#include "base/errors.h"
#include "device/context.h"
#include "device/stream.h"
#include "device/vk_check.h"

namespace vka {
namespace {

constexpr uint32_t kPoolQueries = 512;  // even: a dispatch's two queries share one pool

std::atomic<DispatchProfiler*> active_profiler{nullptr};

}  // namespace

DispatchProfiler::~DispatchProfiler() {
  stop();
  // Recorded work may still write into the query pools: let it complete first.
  for (auto& [s, pools] : pools_) {
    try {
      const_cast<Stream*>(s)->finish();
    } catch (...) {  // destructors must not throw; a lost device has nothing left to wait for
    }
  }
}

DispatchProfiler* DispatchProfiler::active() {
  return active_profiler.load(std::memory_order_acquire);
}

void DispatchProfiler::start() {
  DispatchProfiler* expected = nullptr;
  if (!active_profiler.compare_exchange_strong(expected, this) && expected != this) {
    throw ShapeError("[profile] another profile is already active (profiles do not nest)");
  }
}

void DispatchProfiler::stop() {
  DispatchProfiler* expected = this;
  active_profiler.compare_exchange_strong(expected, nullptr);
}

void DispatchProfiler::before(Stream& stream, VkCommandBuffer cb) {
  std::lock_guard<std::mutex> lock(mutex_);
  Pending p;
  p.record.stream = &stream;
  const Device& device = stream.device();
  Pools& pools = pools_[&stream];
  pools.period_ns = device.caps().timestamp_period_ns;
  if (pools.period_ns > 0) {
    if (pools.pools.empty() || pools.used + 2 > kPoolQueries) {
      VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
      qci.queryCount = kPoolQueries;
      VkQueryPool qp = VK_NULL_HANDLE;
      VK_CHECK(vkCreateQueryPool(device.get(), &qci, nullptr, &qp));
      pools.device = device.get();
      pools.pools.emplace_back(device.get(), qp);
      pools.used = 0;
    }
    p.pool = pools.pools.back();
    p.slot = pools.used;
    pools.used += 2;
    p.timed = true;
    vkCmdResetQueryPool(cb, p.pool, p.slot, 2);
    // Bottom of pipe: when everything recorded before has finished. With the end stamp taken
    // the same way, the records of one queue partition its busy time.
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, p.pool, p.slot);
  }
  open_[&stream] = pending_.size();
  pending_.push_back(std::move(p));
}

void DispatchProfiler::after(Stream& stream, VkCommandBuffer cb, const std::string& name,
                             uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = open_.find(&stream);
  if (it == open_.end()) return;  // begun before this profiler started
  Pending& p = pending_[it->second];
  open_.erase(it);
  p.record.name = name;
  p.record.bytes = bytes;
  if (p.timed) {
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, p.pool, p.slot + 1);
  }
}

std::vector<DispatchRecord> DispatchProfiler::records() {
  // The recorded work must be submitted and complete before its timestamps can be read (a
  // submission calls back into before/after, so the lock is not held meanwhile).
  std::vector<Stream*> streams;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [s, pools] : pools_) streams.push_back(const_cast<Stream*>(s));
  }
  for (Stream* s : streams) s->finish();
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<DispatchRecord> out;
  for (size_t i = 0; i < pending_.size(); ++i) {
    Pending& p = pending_[i];
    bool open = false;
    for (const auto& [s, index] : open_) open = open || index == i;
    if (open) continue;
    if (!p.resolved) {
      if (p.timed) {
        const Pools& pools = pools_.at(p.record.stream);
        uint64_t t[2];
        VK_CHECK(vkGetQueryPoolResults(pools.device, p.pool, p.slot, 2, sizeof(t), t,
                                       sizeof(uint64_t),
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        p.record.gpu_ns = static_cast<double>(t[1] - t[0]) * pools.period_ns;
      } else {
        p.record.gpu_ns = std::numeric_limits<double>::quiet_NaN();
      }
      p.resolved = true;
    }
    out.push_back(p.record);
  }
  return out;
}

}  // namespace vka
