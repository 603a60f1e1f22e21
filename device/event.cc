// Events over stream timeline values.
#include "device/event.h"

#include <algorithm>

#include "device/stream.h"

namespace vka {

void Event::add(Stream& stream, uint64_t value) {
  for (Point& p : points_) {
    if (p.stream == &stream) {
      p.value = std::max(p.value, value);
      return;
    }
  }
  points_.push_back({&stream, value});
}

void Event::record(Stream& stream) { add(stream, stream.submit()); }

bool Event::is_done() {
  for (const Point& p : points_) {
    if (p.stream->completed_value() < p.value) return false;
  }
  keep_.clear();
  return true;
}

void Event::wait() {
  for (const Point& p : points_) p.stream->wait(p.value);
  keep_.clear();
}

void Event::enqueue_wait(Stream& stream) {
  for (const Point& p : points_) {
    // On the same device, a semaphore wait (on the same stream too: needless, since a queue
    // runs its work in order, but harmless, and one path for every case).
    if (&p.stream->device() == &stream.device()) {
      stream.wait_semaphore(p.stream->timeline(), p.value);
    } else {
      p.stream->wait(p.value);
    }
  }
}

}  // namespace vka
