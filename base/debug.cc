// The VKA_DEBUG level, shared by every layer.
#include "base/debug.h"

#include <cstdlib>

namespace vka {

int debug_level() {
  static const int level = [] {
    const char* v = std::getenv("VKA_DEBUG");
    return v ? std::atoi(v) : 0;
  }();
  return level;
}

}  // namespace vka
