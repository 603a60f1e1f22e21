// Stream: the in-order command stream of one replica (one queue): records copies and dispatches
// with the barriers their hazards need, submits asynchronously, waits on a timeline semaphore.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <vulkan/vulkan.h>

#include "device/handle.h"
#include "device/memory.h"

namespace vka {

class Device;
class DispatchProfiler;
class Pipeline;

// A storage-buffer argument: a window [offset, offset + range) of a buffer. Windows let kernels
// address buffers larger than maxStorageBufferRange.
struct Binding {
  VkBuffer buffer = VK_NULL_HANDLE;
  uint64_t offset = 0;
  uint64_t range = VK_WHOLE_SIZE;
  // An argument block from upload_arguments(): written by the host before submission, never by
  // the device, so it takes part in no hazard tracking.
  bool arguments = false;
  // An operand the kernel reaches through its buffer device address: no descriptor, but its
  // hazards are tracked like a bound buffer's.
  bool addressed = false;
};

// Counters, for tests and the profiler: what this stream has recorded since it was created.
struct StreamStats {
  uint64_t dispatches = 0;
  uint64_t copies = 0;
  uint64_t barriers = 0;
  uint64_t submits = 0;
  uint64_t queue_waits = 0;  // waits on other queues' timelines (wait_on)
};

class Stream {
 public:
  // A stream on compute queue `queue_index` of the device's compute family.
  Stream(Device& device, int queue_index);
  // A stream on any queue of the device: `family` is the queue's family, and
  // `timestamp_period_ns` 0 when that family writes no timestamps.
  Stream(Device& device, VkQueue queue, uint32_t family, double timestamp_period_ns);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  Device& device() const { return *device_; }
  VkQueue queue() const { return queue_; }

  // Recording. Each command gets a barrier first when it reads what an earlier command wrote,
  // or writes what an earlier command read or wrote, and not otherwise (independent commands
  // overlap).
  void copy(VkBuffer src, uint64_t src_offset, VkBuffer dst, uint64_t dst_offset, uint64_t size);
  // One copy command of several regions (a strided or padded transfer): counted as one copy.
  void copy_regions(VkBuffer src, VkBuffer dst, const std::vector<VkBufferCopy>& regions);
  void fill(VkBuffer dst, uint64_t offset, uint64_t size, uint32_t value);
  // `writes[i]` says whether binding i is written by the kernel (all others are only read).
  // Bindings that are not `addressed` are the pipeline's descriptors, in order.
  void dispatch(const Pipeline& pipeline, const std::vector<Binding>& bindings,
                const std::vector<bool>& writes, const void* push_constants, uint32_t group_count_x,
                uint32_t group_count_y = 1, uint32_t group_count_z = 1);

  // Copies `bytes` bytes of a kernel's argument block into host-visible memory that this
  // stream sub-allocates from a ring of chunks (a chunk is reused once the work recorded while
  // it was filled has completed) and returns its binding, for the next dispatch.
  Binding upload_arguments(const void* data, uint64_t bytes);

  // Work that a library records itself (VkFFT): returns the command buffer being recorded,
  // after the barrier that reading `reads` and writing `writes` needs; the caller records into
  // it before any other call on this stream. Counted as one dispatch.
  VkCommandBuffer record_external(const std::vector<VkBuffer>& reads,
                                  const std::vector<VkBuffer>& writes);
  // The timeline value that the work recorded so far will signal once submitted.
  uint64_t pending_value() const { return current_ ? last_submitted_ + 1 : last_submitted_; }

  // GPU timestamps: `timestamp()` records one after all earlier work and returns its slot;
  // after the work completes, `elapsed_ns(a, b)` is the time between two slots. Slots restart
  // at 0 after `reset_timestamps()`. Both throw DeviceError on a queue family that writes no
  // timestamps (transfer families may not: timestampValidBits 0).
  uint32_t timestamp();
  double elapsed_ns(uint32_t begin, uint32_t end);
  void reset_timestamps() { next_query_ = 0; }
  bool has_timestamps() const { return static_cast<bool>(queries_); }

  // Submits what was recorded (nothing if nothing was) and returns the timeline value that will
  // signal its completion. Every submission ends with a barrier that makes device writes
  // visible to the host.
  uint64_t submit();
  void wait(uint64_t value);
  // Makes this queue's next submission wait, on the device (the host does not block), until
  // `other` (a stream on another queue of the same device) has completed its work up to
  // timeline value `value`: the wait carries the memory dependency of cross-queue copies.
  void wait_on(const Stream& other, uint64_t value);
  // Records that `buffer` is in use until this stream's work so far completes (work on
  // another queue that this stream waits on reads it): host access and reuse wait for that.
  void mark_used(VkBuffer buffer);
  // The timeline value of this stream's last use of `buffer` (0: none recorded).
  uint64_t last_use(VkBuffer buffer) const;
  // Drops the record of this stream's last use of `buffer`, whose release another stream
  // guards (the memory is reused only after this stream's work on it has completed).
  void forget_use(VkBuffer buffer) { last_use_.erase(buffer); }
  // Makes this stream's next submission wait, on the device, for `other`'s last use of
  // `buffer`, submitting `other` first when that use is still being recorded. No wait when
  // `other` never used it.
  void wait_for_use(Stream& other, VkBuffer buffer);
  // Records that `other` (a stream of this device) reads `buffer` (or writes it, `writes`)
  // until it reaches `value`, which it has submitted. The next command of this stream that
  // writes `buffer`, or reads it when `other` writes it, first submits what was recorded
  // before it and makes the following submission wait for that value: one queue wait, while
  // commands on other buffers never wait. Host access (wait_for) and release_later of
  // `buffer` wait for it too.
  void foreign_use(VkBuffer buffer, Stream& other, uint64_t value, bool writes);
  // Makes the next submission wait for a pending foreign write of `buffer`: for work on a
  // third queue that waits on this stream's timeline before it reads the buffer.
  void settle_foreign_use(VkBuffer buffer) { wait_foreign(&buffer, 1, false); }
  void finish() { wait(submit()); }
  uint64_t completed_value();
  // This stream's timeline semaphore (signalled with each submission's value).
  VkSemaphore timeline() const { return timeline_; }
  // Makes the next submission wait, on the device, until `semaphore` (a timeline semaphore of
  // this stream's device) reaches `value`: how one queue's work waits for another's.
  void wait_semaphore(VkSemaphore semaphore, uint64_t value);

  // Waits until every recorded command that touches `buffer` has completed (submitting first
  // when needed), so the host may access its memory.
  void wait_for(VkBuffer buffer);
  // Keeps `allocation` alive until every command recorded so far has completed.
  void release_later(Allocation allocation);
  // Resets every command buffer whose work has completed, so that none holds commands any more:
  // objects those commands used (a library's pipelines) may then be destroyed.
  void reset_completed();

  const StreamStats& stats() const { return stats_; }

 private:
  VkCommandBuffer recording();  // the command buffer being recorded, begun on first use
  void hazard_barrier(const VkBuffer* reads, size_t n_reads, const VkBuffer* writes,
                      size_t n_writes);
  void recycle();  // returns completed command buffers and allocations
  // Settles the foreign uses that a command about to read (or write, `writing`) these buffers
  // must wait for.
  void wait_foreign(const VkBuffer* buffers, size_t n, bool writing);
  // Ends the profiler's record of work recorded through record_external().
  void close_external();
  // The submission policy, after each dispatch: see stream.cc.
  void submit_if_due();

  Device* device_;
  VkQueue queue_;
  Handle<VkCommandPool> pool_;
  Handle<VkSemaphore> timeline_;
  Handle<VkQueryPool> queries_;
  double timestamp_period_ns_ = 0;
  // A queue of a family without compute or graphics (a dedicated transfer family): copies,
  // fills and timestamps only.
  bool transfer_only_ = false;
  VkPipelineStageFlags stages_ =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkAccessFlags write_access_ = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  VkAccessFlags access_ = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  uint32_t num_queries_ = 0;
  uint32_t next_query_ = 0;

  VkCommandBuffer current_ = VK_NULL_HANDLE;
  uint64_t last_submitted_ = 0;  // value signalled by the latest submission
  uint32_t unsubmitted_ = 0;     // dispatches recorded into current_
  std::vector<std::pair<VkSemaphore, uint64_t>> waits_;  // for the next submission
  struct InFlight {
    VkCommandBuffer cb;
    uint64_t value;
  };
  std::deque<InFlight> in_flight_;
  std::vector<VkCommandBuffer> free_;
  std::deque<std::pair<uint64_t, Allocation>> garbage_;
  // The argument ring: the chunk being filled, and full chunks with the timeline value after
  // which their contents are no longer read.
  Allocation args_;
  uint64_t args_used_ = 0;
  std::deque<std::pair<uint64_t, Allocation>> args_full_;

  // Hazard tracking since the last barrier; kept across submissions, since a barrier's first
  // scope covers earlier submissions on the same queue.
  std::unordered_set<VkBuffer> written_, read_;
  // The timeline value of the last submission (or the one being recorded) touching a buffer.
  std::unordered_map<VkBuffer, uint64_t> last_use_;
  // Buffers that another stream's submitted work touches (foreign_use), until this stream
  // waits for it.
  struct Foreign {
    Stream* stream;
    uint64_t value;
    bool writes;
  };
  std::unordered_map<VkBuffer, Foreign> foreign_;
  StreamStats stats_;
  // The profiler that began a record of record_external() work, until the next command.
  DispatchProfiler* external_profiler_ = nullptr;
};

}  // namespace vka
