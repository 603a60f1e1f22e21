// The shaderc wrapper.
#include "kernels/compile.h"

#include <atomic>
#include <cstdio>
#include <sstream>

#include <shaderc/shaderc.hpp>
#include <spirv-tools/libspirv.hpp>

#include "base/errors.h"

namespace vka {
namespace {

std::atomic<uint64_t> compilations{0};

}  // namespace

std::string numbered_source(const std::string& source) {
  std::istringstream in(source);
  std::string line, out;
  int n = 0;
  char prefix[16];
  while (std::getline(in, line)) {
    std::snprintf(prefix, sizeof(prefix), "%4d| ", ++n);
    out += prefix + line + "\n";
  }
  return out;
}

std::vector<uint32_t> compile_glsl(const std::string& source, const std::string& name) {
  // A shaderc::Compiler is not safe to share between threads, and one per thread that lives as
  // long as the thread keeps glslang's built-in symbol tables: the last Compiler to go tears
  // them down, and the next compile would build them again (~60 ms on lavapipe's host).
  thread_local shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
  options.SetTargetSpirv(shaderc_spirv_version_1_5);
  options.SetOptimizationLevel(shaderc_optimization_level_performance);
  ++compilations;
  shaderc::SpvCompilationResult result =
      compiler.CompileGlslToSpv(source, shaderc_compute_shader, name.c_str(), options);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    throw CompileError("[compile] kernel " + name + " failed:\n" + result.GetErrorMessage() + "\n" +
                       numbered_source(source));
  }
  return {result.cbegin(), result.cend()};
}

std::string disassemble(const std::vector<uint32_t>& spirv) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string text;
  if (!tools.Disassemble(
          spirv, &text,
          SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT)) {
    return "(the SPIR-V does not disassemble)\n";
  }
  return text;
}

uint64_t compile_count() { return compilations.load(); }

}  // namespace vka
