// Command recording, hazard barriers, the submission policy, argument uploads and timestamps
// (submission and waits: stream_submit.cc; cross-stream waits and deferred releases:
// stream_sync.cc).
#include "device/stream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "base/effects.h"
#include "base/errors.h"
#include "device/context.h"
#include "device/pipeline.h"
#include "device/profile.h"
#include "device/vk_check.h"

namespace vka {
namespace {

constexpr uint32_t kMaxTimestamps = 1024;

}  // namespace

Stream::Stream(Device& device, int queue_index)
    : Stream(device, device.queue(queue_index), device.queue_family(),
             device.caps().timestamp_period_ns) {}

Stream::Stream(Device& device, VkQueue queue, uint32_t family, double timestamp_period_ns)
    : device_(&device), queue_(queue) {
  VkDevice dev = device.get();
  {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device.physical(), &n, nullptr);
    std::vector<VkQueueFamilyProperties> fams(n);
    vkGetPhysicalDeviceQueueFamilyProperties(device.physical(), &n, fams.data());
    VKA_ASSERT(family < n);
    transfer_only_ = !(fams[family].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT));
  }
  if (transfer_only_) {
    // A transfer-only family supports no shader stage: barriers, waits and access masks name
    // the transfer stage alone.
    stages_ = VK_PIPELINE_STAGE_TRANSFER_BIT;
    write_access_ = VK_ACCESS_TRANSFER_WRITE_BIT;
    access_ = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  }
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = family;
  VkCommandPool pool = VK_NULL_HANDLE;
  VK_CHECK(vkCreateCommandPool(dev, &pci, nullptr, &pool));
  pool_ = Handle<VkCommandPool>(dev, pool);

  VkSemaphoreTypeCreateInfo tci{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  tci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  tci.initialValue = 0;
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  sci.pNext = &tci;
  VkSemaphore sem = VK_NULL_HANDLE;
  VK_CHECK(vkCreateSemaphore(dev, &sci, nullptr, &sem));
  timeline_ = Handle<VkSemaphore>(dev, sem);

  if (timestamp_period_ns > 0) {
    timestamp_period_ns_ = timestamp_period_ns;
    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = kMaxTimestamps;
    VkQueryPool qp = VK_NULL_HANDLE;
    VK_CHECK(vkCreateQueryPool(dev, &qci, nullptr, &qp));
    queries_ = Handle<VkQueryPool>(dev, qp);
    num_queries_ = kMaxTimestamps;
  }
}

Stream::~Stream() {
  try {
    finish();
  } catch (...) {  // destructors must not throw; a lost device has nothing left to wait for
  }
  vkQueueWaitIdle(queue_);
  garbage_.clear();
  for (auto& f : in_flight_) free_.push_back(f.cb);
  if (current_) free_.push_back(current_);
  if (!free_.empty()) {
    vkFreeCommandBuffers(device_->get(), pool_, static_cast<uint32_t>(free_.size()), free_.data());
  }
}

VkCommandBuffer Stream::recording() {
  if (current_) return current_;
  recycle();
  if (free_.empty()) {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateCommandBuffers(device_->get(), &ai, &cb));
    free_.push_back(cb);
  }
  current_ = free_.back();
  free_.pop_back();
  VK_CHECK(vkResetCommandBuffer(current_, 0));
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(current_, &bi));
  return current_;
}

void Stream::hazard_barrier(const VkBuffer* reads, size_t n_reads, const VkBuffer* writes,
                            size_t n_writes) {
  close_external();
  if (!foreign_.empty()) {
    wait_foreign(reads, n_reads, false);
    wait_foreign(writes, n_writes, true);
  }
  bool hazard = false;
  for (size_t i = 0; i < n_reads && !hazard; ++i) hazard = written_.count(reads[i]) > 0;
  for (size_t i = 0; i < n_writes && !hazard; ++i) {
    hazard = written_.count(writes[i]) > 0 || read_.count(writes[i]) > 0;
  }
  VkCommandBuffer cb = recording();
  if (hazard) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = write_access_;
    mb.dstAccessMask = access_;
    vkCmdPipelineBarrier(cb, stages_, stages_, 0, 1, &mb, 0, nullptr, 0, nullptr);
    written_.clear();
    read_.clear();
    ++stats_.barriers;
  }
  const uint64_t value = last_submitted_ + 1;  // the submission being recorded
  for (size_t i = 0; i < n_reads; ++i) {
    read_.insert(reads[i]);
    last_use_[reads[i]] = value;
  }
  for (size_t i = 0; i < n_writes; ++i) {
    written_.insert(writes[i]);
    last_use_[writes[i]] = value;
  }
}

void Stream::copy(VkBuffer src, uint64_t src_offset, VkBuffer dst, uint64_t dst_offset,
                  uint64_t size) {
  if (size == 0) return;
  note_effect();
  hazard_barrier(&src, 1, &dst, 1);
  VkBufferCopy region{src_offset, dst_offset, size};
  vkCmdCopyBuffer(current_, src, dst, 1, &region);
  ++stats_.copies;
}

void Stream::copy_regions(VkBuffer src, VkBuffer dst, const std::vector<VkBufferCopy>& regions) {
  if (regions.empty()) return;
  note_effect();
  hazard_barrier(&src, 1, &dst, 1);
  vkCmdCopyBuffer(current_, src, dst, static_cast<uint32_t>(regions.size()), regions.data());
  ++stats_.copies;
}

void Stream::fill(VkBuffer dst, uint64_t offset, uint64_t size, uint32_t value) {
  if (size == 0) return;
  note_effect();
  hazard_barrier(nullptr, 0, &dst, 1);
  vkCmdFillBuffer(current_, dst, offset, size, value);
  ++stats_.copies;
}

void Stream::dispatch(const Pipeline& pipeline, const std::vector<Binding>& bindings,
                      const std::vector<bool>& writes, const void* push_constants, uint32_t gx,
                      uint32_t gy, uint32_t gz) {
  VKA_ASSERT(!transfer_only_ && writes.size() == bindings.size());
  note_effect();
  VKA_ASSERT(&pipeline.device() == device_);
  const Caps& caps = device_->caps();
  if (gx > caps.max_compute_work_group_count[0] || gy > caps.max_compute_work_group_count[1] ||
      gz > caps.max_compute_work_group_count[2]) {
    throw DeviceError("[" + pipeline.name() + "] dispatch of (" + std::to_string(gx) + ", " +
                      std::to_string(gy) + ", " + std::to_string(gz) +
                      ") workgroups exceeds the device limit (" +
                      std::to_string(caps.max_compute_work_group_count[0]) + ", " +
                      std::to_string(caps.max_compute_work_group_count[1]) + ", " +
                      std::to_string(caps.max_compute_work_group_count[2]) + ")");
  }
  std::vector<VkBuffer> reads, written;
  std::vector<VkDescriptorBufferInfo> infos;
  infos.reserve(bindings.size());
  for (size_t i = 0; i < bindings.size(); ++i) {
    if (!bindings[i].arguments) (writes[i] ? written : reads).push_back(bindings[i].buffer);
    if (!bindings[i].addressed) {
      infos.push_back({bindings[i].buffer, bindings[i].offset, bindings[i].range});
    }
  }
  VKA_ASSERT(infos.size() == pipeline.num_bindings());
  std::vector<VkWriteDescriptorSet> sets(infos.size());
  for (size_t i = 0; i < infos.size(); ++i) {
    sets[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    sets[i].dstBinding = static_cast<uint32_t>(i);
    sets[i].descriptorCount = 1;
    sets[i].descriptorType = pipeline.uniform_last() && i + 1 == infos.size()
                                 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                 : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    sets[i].pBufferInfo = &infos[i];
  }
  hazard_barrier(reads.data(), reads.size(), written.data(), written.size());
  DispatchProfiler* profiler = DispatchProfiler::active();  // null unless profiling
  if (profiler) profiler->before(*this, current_);
  vkCmdBindPipeline(current_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.get());
  if (!sets.empty()) {
    device_->push_descriptor_fn()(current_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0,
                                  static_cast<uint32_t>(sets.size()), sets.data());
  }
  if (pipeline.push_constant_bytes() > 0) {
    VKA_ASSERT(push_constants != nullptr);
    vkCmdPushConstants(current_, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       pipeline.push_constant_bytes(), push_constants);
  }
  vkCmdDispatch(current_, gx, gy, gz);
  ++stats_.dispatches;
  if (profiler) {
    uint64_t bytes = 0;
    for (const Binding& b : bindings) bytes += b.range == VK_WHOLE_SIZE ? 0 : b.range;
    profiler->after(*this, current_, pipeline.name(), bytes);
  }
  submit_if_due();
}

// Work reaches the device only when submitted, so a host loop that records many small
// dispatches before its first read would leave the device idle until then and pay for the
// whole loop twice (recording, then execution). Submitting after every dispatch pays a
// vkQueueSubmit each (several microseconds on NVIDIA). The policy between: submit once the
// device has run dry and kSubmitWhenIdle dispatches wait, or whenever kSubmitAlways do, so the
// device works while the host records and submissions stay few. Not while waits on other
// queues are pending: every command recorded after wait_on() belongs to the batch that waits.
void Stream::submit_if_due() {
  // VKA_SUBMIT_EVERY: a fixed batch instead (0: only explicit submissions), for measuring.
  static const int every = [] {
    const char* v = std::getenv("VKA_SUBMIT_EVERY");
    return v && *v ? std::atoi(v) : -1;
  }();
  constexpr uint32_t kSubmitWhenIdle = 8, kSubmitAlways = 256;
  ++unsubmitted_;
  if (!waits_.empty() || every == 0) return;
  if (every > 0) {
    if (unsubmitted_ >= static_cast<uint32_t>(every)) submit();
    return;
  }
  if (unsubmitted_ >= kSubmitAlways ||
      (unsubmitted_ >= kSubmitWhenIdle && completed_value() == last_submitted_)) {
    submit();
  }
}

Binding Stream::upload_arguments(const void* data, uint64_t bytes) {
  // At least every device's minUniformBufferOffsetAlignment and
  // minStorageBufferOffsetAlignment (Vulkan caps both at 256).
  constexpr uint64_t kAlign = 256;
  constexpr uint64_t kChunk = uint64_t{1} << 18;
  uint64_t at = (args_used_ + kAlign - 1) / kAlign * kAlign;
  if (!args_ || at + bytes > args_.size) {
    if (args_) args_full_.emplace_back(pending_value(), std::move(args_));
    args_ = Allocation();
    if (!args_full_.empty() && args_full_.front().second.size >= bytes &&
        args_full_.front().first <= completed_value()) {
      args_ = std::move(args_full_.front().second);
      args_full_.pop_front();
    } else {
      args_ = allocate(*device_, std::max(kChunk, bytes), MemoryUse::kStaging);
    }
    VKA_ASSERT(args_.mapped != nullptr);
    at = 0;
  }
  std::memcpy(static_cast<uint8_t*>(args_.mapped) + at, data, bytes);
  args_used_ = at + bytes;
  Binding b{args_.buffer.get(), at, bytes};
  b.arguments = true;
  return b;
}

VkCommandBuffer Stream::record_external(const std::vector<VkBuffer>& reads,
                                        const std::vector<VkBuffer>& writes) {
  VKA_ASSERT(!transfer_only_);
  hazard_barrier(reads.data(), reads.size(), writes.data(), writes.size());
  ++stats_.dispatches;
  if (DispatchProfiler* profiler = DispatchProfiler::active()) {
    profiler->before(*this, current_);
    external_profiler_ = profiler;  // closed by the next command (close_external)
  }
  return current_;
}

uint32_t Stream::timestamp() {
  if (!queries_) {
    throw DeviceError("[timestamp] device '" + device_->caps().device_name +
                      "' cannot write timestamps on this queue's family (timestampValidBits 0)");
  }
  if (next_query_ >= num_queries_) {
    throw DeviceError("[timestamp] more than " + std::to_string(num_queries_) +
                      " timestamps without reset_timestamps()");
  }
  close_external();
  if (next_query_ == 0 && transfer_only_) {
    // vkCmdResetQueryPool is for graphics and compute queues: reset from the host (Vulkan
    // 1.2's hostQueryReset, which the device enables where it gives this family timestamps),
    // once the stream's earlier work, which may still write the slots, has completed.
    finish();
    vkResetQueryPool(device_->get(), queries_, 0, num_queries_);
  }
  VkCommandBuffer cb = recording();
  if (next_query_ == 0 && !transfer_only_) vkCmdResetQueryPool(cb, queries_, 0, num_queries_);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries_, next_query_);
  return next_query_++;
}

double Stream::elapsed_ns(uint32_t begin, uint32_t end) {
  if (!queries_) {
    throw DeviceError("[elapsed_ns] device '" + device_->caps().device_name +
                      "' cannot write timestamps on this queue's family (timestampValidBits 0)");
  }
  if (begin >= next_query_ || end >= next_query_) {
    throw IndexError("[elapsed_ns] timestamp slots " + std::to_string(begin) + " and " +
                     std::to_string(end) + " must both be below " + std::to_string(next_query_) +
                     ", the slots written since reset_timestamps()");
  }
  uint64_t t[2];
  for (int i = 0; i < 2; ++i) {
    VK_CHECK(vkGetQueryPoolResults(device_->get(), queries_, i == 0 ? begin : end, 1,
                                   sizeof(uint64_t), &t[i], sizeof(uint64_t),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  }
  return static_cast<double>(t[1] - t[0]) * timestamp_period_ns_;
}

void Stream::close_external() {
  if (!external_profiler_) return;
  DispatchProfiler* profiler = external_profiler_;  // it may have stopped since: still closed
  external_profiler_ = nullptr;
  profiler->after(*this, current_, "external", 0);
}

}  // namespace vka
