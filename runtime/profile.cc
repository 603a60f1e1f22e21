// Profile: the device profiler's records, with replicas named through the context.
#include "runtime/profile.h"

#include "device/stream.h"

namespace vka {

Profile::Profile(std::shared_ptr<Context> context)
    : ctx_(std::move(context)), profiler_(std::make_unique<DispatchProfiler>()) {}

void Profile::start() {
  profiler_->start();
  active_ = true;
}

void Profile::stop() {
  profiler_->stop();
  active_ = false;
}

std::vector<ProfileRecord> Profile::records() {
  std::vector<ProfileRecord> out;
  for (const DispatchRecord& d : profiler_->records()) {
    ProfileRecord r{d.name, -1, d.gpu_ns, d.bytes};
    for (int i = 0; i < ctx_->num_replicas(); ++i) {
      if (ctx_->replica(i).stream.get() == d.stream) r.replica = i;
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace vka
