// The count of effects a recorded function must not have (vkarray.jit, array/trace.h): device
// commands recorded, host reads and writes of device memory, writes into storage arrays.
#pragma once

#include <cstdint>

namespace vka {

// A function recorded while this count stood still built only lazy nodes: replaying its graph
// over other inputs is what calling it again would build. Process-wide, so work on another
// thread meanwhile only makes a recording fall back to calling the function (never wrong).
uint64_t effect_count();
void note_effect();

}  // namespace vka
