// GLSL → SPIR-V with shaderc. Failures carry the kernel name, the numbered source and the log.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vka {

// Compiles a GLSL 450 compute shader for Vulkan 1.2 (SPIR-V 1.5) with optimization on.
// Throws CompileError: "[compile] kernel <name> failed:\n<log>\n<numbered source>".
std::vector<uint32_t> compile_glsl(const std::string& source, const std::string& name);

// "   1| #version 450\n   2| ..." — for error messages and VKA_DEBUG=3.
std::string numbered_source(const std::string& source);

// The SPIR-V as text (spirv-dis), for VKA_DEBUG=4.
std::string disassemble(const std::vector<uint32_t>& spirv);

// shaderc compilations performed by this process (the cache tests count them).
uint64_t compile_count();

}  // namespace vka
