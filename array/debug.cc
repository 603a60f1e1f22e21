// The VKA_DEBUG printer.
#include "array/debug.h"

#include <cstdio>
#include <cstdlib>

namespace vka {

int debug_level() {
  static const int level = [] {
    const char* v = std::getenv("VKA_DEBUG");
    return v ? std::atoi(v) : 0;
  }();
  return level;
}

void debug_schedule(const Schedule& schedule) {
  if (debug_level() < 1 || schedule.kernels.empty()) return;
  std::fprintf(stderr, "[vkarray] %s", schedule.to_string().c_str());
}

}  // namespace vka
