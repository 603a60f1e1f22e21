// The schedule printer of VKA_DEBUG (levels in device/debug.h).
#pragma once

#include "array/schedule.h"
#include "device/debug.h"

namespace vka {

void debug_schedule(const Schedule& schedule);  // prints at level >= 1, to stderr

}  // namespace vka
