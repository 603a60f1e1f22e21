// What a user kernel's SPIR-V declares: its storage-buffer bindings (and which are read-only),
// its push-constant block size, its specialization constants and its workgroup size.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vka {

struct SpecConstantInfo {
  enum Kind { kBool, kInt, kUInt, kFloat };
  Kind kind = kInt;
  uint32_t bytes = 4;       // 4 or 8 (bool: 4, a VkBool32)
  uint64_t default_bits = 0;
};

struct ShaderInfo {
  // Binding i of set 0: whether the shader declares one there, and whether it is read-only
  // (NonWritable on the variable, or on every member of its block).
  std::vector<bool> declared;
  std::vector<bool> readonly;
  uint32_t push_constant_bytes = 0;  // the block's extent (last member's offset + size)
  std::map<uint32_t, SpecConstantInfo> spec_constants;  // by constant_id
  // local_size: literal values, or the constant_id giving each dimension (-1: literal).
  std::array<uint32_t, 3> local_size{1, 1, 1};
  std::array<int64_t, 3> local_size_id{-1, -1, -1};
};

// Parses `spirv` (checked with spirv-tools' validator first). Throws ShapeError naming `name`
// for SPIR-V that is invalid, has no GLCompute entry point "main", or declares resources other
// than storage buffers in set 0 (uniform buffers, images, other sets).
ShaderInfo reflect_spirv(const std::vector<uint32_t>& spirv, const std::string& name);

}  // namespace vka
