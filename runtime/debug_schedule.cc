// The VKA_DEBUG printer.
#include "runtime/debug_schedule.h"

#include <cstdio>
#include <cstdlib>

namespace vka {

void debug_schedule(const Schedule& schedule) {
  if (debug_level() < 1 || schedule.kernels.empty()) return;
  std::fprintf(stderr, "[vkarray] %s", schedule.to_string().c_str());
}

}  // namespace vka
