// VKA_DEBUG, read once: 1 schedule (one line per kernel, split reasons) and cache notices;
// 2 + compile and evaluation-stage timings; 3 + generated GLSL; 4 + SPIR-V disassembly.
#pragma once

namespace vka {

int debug_level();  // 0 when VKA_DEBUG is unset or not a number

}  // namespace vka
