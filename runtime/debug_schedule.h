// The schedule printer of VKA_DEBUG (levels in base/debug.h).
#pragma once

#include "base/debug.h"
#include "schedule/schedule.h"

namespace vka {

void debug_schedule(const Schedule& schedule);  // prints at level >= 1, to stderr

}  // namespace vka
