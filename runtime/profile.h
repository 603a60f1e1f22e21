// Profile: records every kernel dispatched while it runs (generated, library and user kernels)
// with its name, replica, GPU time and bytes bound. Off, it costs one atomic load a dispatch.
//
// GPU time: timestamps at the bottom of the pipe before and after each dispatch, so a
// record's time runs from the end of all earlier work on its queue to its own end; on a queue
// that overlaps independent dispatches, the records of the queue partition its busy time.
// Bytes: the sum of the buffer ranges the dispatch binds (each read or written binding once);
// an estimate of memory traffic that counts bound windows, not the elements actually touched.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "device/context.h"
#include "device/profile.h"

namespace vka {

struct ProfileRecord {
  std::string name;
  int replica = -1;  // -1: a stream outside the profiled context
  double gpu_ns = 0;  // NaN where the queue cannot write timestamps
  uint64_t bytes = 0;
};

class Profile {
 public:
  explicit Profile(std::shared_ptr<Context> context = Context::default_context());
  // Starts recording (ShapeError when another profile is active).
  void start();
  void stop();
  bool active() const { return active_; }
  // The records so far (waits for the recorded work). Replicas are those of the context.
  std::vector<ProfileRecord> records();

 private:
  std::shared_ptr<Context> ctx_;
  std::unique_ptr<DispatchProfiler> profiler_;
  bool active_ = false;
};

}  // namespace vka
