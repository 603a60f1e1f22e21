// VKA_DEBUG: one variable with levels. 1: the schedule (one line per kernel, with split
// reasons); 2: + compile and kernel timings; 3: + generated GLSL; 4: + SPIR-V disassembly.
#pragma once

#include "array/schedule.h"

namespace vka {

int debug_level();  // read once from VKA_DEBUG (0 when unset or not a number)
void debug_schedule(const Schedule& schedule);  // prints at level >= 1, to stderr

}  // namespace vka
