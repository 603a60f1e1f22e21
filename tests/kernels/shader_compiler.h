// Test helper: GLSL → SPIR-V with shaderc directly (Vulkan 1.2), failures with numbered GLSL.
#pragma once

#include <shaderc/shaderc.hpp>

#include <string>

#include "kernels/glsl/writer.h"

namespace vka {

// Returns "" on success, else the compiler log followed by the numbered source.
inline std::string compile_error(const std::string& glsl, const std::string& name) {
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
  shaderc::SpvCompilationResult r =
      compiler.CompileGlslToSpv(glsl, shaderc_compute_shader, name.c_str(), options);
  if (r.GetCompilationStatus() == shaderc_compilation_status_success && r.cend() - r.cbegin() > 0) {
    return "";
  }
  return name + ":\n" + r.GetErrorMessage() + "\n" + number_lines(glsl);
}

}  // namespace vka
