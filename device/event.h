// Event: the completion of work submitted on one or more streams (a transfer, say), which the
// host can poll or wait for and other streams can wait for on the device.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "device/context.h"

namespace vka {

class Stream;

class Event {
 public:
  // An event that is already complete.
  Event() = default;
  explicit Event(std::shared_ptr<Context> context) : context_(std::move(context)) {}

  // Completes when `stream` reaches timeline value `value` (work up to it must be submitted).
  void add(Stream& stream, uint64_t value);
  // The current end of `stream`'s work: submits what it has recorded.
  void record(Stream& stream);
  // Keeps `object` alive until the event is seen complete (by wait() or is_done()).
  void keep_alive(std::shared_ptr<void> object) { keep_.push_back(std::move(object)); }

  bool is_done();
  void wait();
  // Makes `stream`'s next submission wait on the device for this event's work where it runs
  // on the same device (a semaphore wait; no host round trip), and waits on the host for
  // work on other devices, whose semaphores `stream` cannot wait on.
  void enqueue_wait(Stream& stream);

 private:
  struct Point {
    Stream* stream;
    uint64_t value;
  };
  std::shared_ptr<Context> context_;  // keeps the streams alive
  std::vector<Point> points_;
  std::vector<std::shared_ptr<void>> keep_;
};

}  // namespace vka
