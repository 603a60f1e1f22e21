// Stream's submission on its timeline semaphore, waits for completed work (polling briefly
// before blocking), and the recycling of finished command buffers.
#include <chrono>
#include <cstdlib>
#include <limits>

#include "base/errors.h"
#include "device/context.h"
#include "device/profile.h"
#include "device/stream.h"
#include "device/vk_check.h"

namespace vka {

uint64_t Stream::submit() {
  close_external();
  // Waits on other queues alone are submitted too (a batch without commands), so that this
  // timeline passes only after them.
  if (!current_ && waits_.empty()) return last_submitted_;
  if (current_) {
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = write_access_;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(current_, stages_, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                         nullptr, 0, nullptr);
    VK_CHECK(vkEndCommandBuffer(current_));
  }
  const uint64_t value = last_submitted_ + 1;
  std::vector<VkSemaphore> wait_sems;
  std::vector<uint64_t> wait_values;
  for (const auto& [sem, v] : waits_) {
    wait_sems.push_back(sem);
    wait_values.push_back(v);
  }
  const std::vector<VkPipelineStageFlags> wait_stages(waits_.size(), stages_);
  VkTimelineSemaphoreSubmitInfo ts{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  ts.signalSemaphoreValueCount = 1;
  ts.pSignalSemaphoreValues = &value;
  ts.waitSemaphoreValueCount = static_cast<uint32_t>(wait_values.size());
  ts.pWaitSemaphoreValues = wait_values.data();
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.pNext = &ts;
  si.waitSemaphoreCount = static_cast<uint32_t>(wait_sems.size());
  si.pWaitSemaphores = wait_sems.data();
  si.pWaitDstStageMask = wait_stages.data();
  si.commandBufferCount = current_ ? 1 : 0;
  si.pCommandBuffers = current_ ? &current_ : nullptr;
  VkSemaphore sem = timeline_;
  si.signalSemaphoreCount = 1;
  si.pSignalSemaphores = &sem;
  VK_CHECK(vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE));
  waits_.clear();
  if (current_) in_flight_.push_back({current_, value});
  current_ = VK_NULL_HANDLE;
  unsubmitted_ = 0;
  last_submitted_ = value;
  ++stats_.submits;
  return value;
}

uint64_t Stream::completed_value() {
  uint64_t v = 0;
  VK_CHECK(vkGetSemaphoreCounterValue(device_->get(), timeline_, &v));
  return v;
}

void Stream::wait(uint64_t value) {
  if (value > last_submitted_) submit();
  VKA_ASSERT(value <= last_submitted_);
  // A blocking wait wakes through an interrupt, which on an H200 host added 0.06-0.2 ms to a
  // 0.45 ms kernel (benchmarks/results/nvidia-h200/poll.md), so a wait polls first, for up to
  // a few milliseconds (CUDA's default synchronization spins too), then blocks. Not on a CPU
  // device (lavapipe), whose worker threads would lose the core the poll spins on.
  static const int poll_us = [] {
    const char* v = std::getenv("VKA_POLL_US");  // a tuning knob; 0 turns polling off
    return v ? std::atoi(v) : 3000;
  }();
  if (!device_->caps().is_cpu && poll_us > 0) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(poll_us);
    while (completed_value() < value && std::chrono::steady_clock::now() < deadline) {
    }
  }
  VkSemaphore sem = timeline_;
  VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wi.semaphoreCount = 1;
  wi.pSemaphores = &sem;
  wi.pValues = &value;
  VK_CHECK(vkWaitSemaphores(device_->get(), &wi, std::numeric_limits<uint64_t>::max()));
  recycle();
}

void Stream::reset_completed() {
  recycle();
  for (VkCommandBuffer cb : free_) VK_CHECK(vkResetCommandBuffer(cb, 0));
}

void Stream::recycle() {
  if (in_flight_.empty() && garbage_.empty()) return;
  const uint64_t done = completed_value();
  while (!in_flight_.empty() && in_flight_.front().value <= done) {
    free_.push_back(in_flight_.front().cb);
    in_flight_.pop_front();
  }
  while (!garbage_.empty() && garbage_.front().first <= done) {
    if (garbage_.front().second.use == MemoryUse::kDevice) {
      device_->pool().give(std::move(garbage_.front().second));
    }
    garbage_.pop_front();
  }
}

}  // namespace vka
