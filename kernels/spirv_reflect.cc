// A small SPIR-V reader: one pass over the instructions, then the few facts user kernels need.
#include "kernels/spirv_reflect.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include <spirv-tools/libspirv.hpp>

#include "base/errors.h"

namespace vka {
namespace {

// Opcodes, decorations and storage classes of the SPIR-V 1.x specification.
enum : uint32_t {
  kOpEntryPoint = 15, kOpExecutionMode = 16, kOpTypeBool = 20, kOpTypeInt = 21,
  kOpTypeFloat = 22, kOpTypeVector = 23, kOpTypeMatrix = 24, kOpTypeArray = 28,
  kOpTypeRuntimeArray = 29, kOpTypeStruct = 30, kOpTypePointer = 32, kOpConstant = 43,
  kOpSpecConstantTrue = 48, kOpSpecConstantFalse = 49, kOpSpecConstant = 50,
  kOpSpecConstantComposite = 51, kOpConstantComposite = 44, kOpVariable = 59,
  kOpDecorate = 71, kOpMemberDecorate = 72, kOpExecutionModeId = 331,
};
enum : uint32_t {
  kDecSpecId = 1, kDecBlock = 2, kDecBufferBlock = 3, kDecArrayStride = 6,
  kDecMatrixStride = 7, kDecBuiltIn = 11, kDecNonWritable = 24, kDecBinding = 33,
  kDecDescriptorSet = 34, kDecOffset = 35,
};
enum : uint32_t {
  kUniformConstant = 0, kUniform = 2, kPushConstant = 9, kStorageBuffer = 12,
  kModeLocalSize = 17, kModeLocalSizeId = 38, kBuiltInWorkgroupSize = 25, kGLCompute = 5,
};

struct Module {
  std::unordered_map<uint32_t, std::vector<uint32_t>> types;  // id → the whole instruction
  std::unordered_map<uint32_t, std::vector<uint32_t>> constants;
  std::unordered_map<uint32_t, std::vector<std::vector<uint32_t>>> decorations;  // id → [dec...]
  std::unordered_map<uint64_t, std::vector<std::vector<uint32_t>>> member_decorations;
  std::vector<std::vector<uint32_t>> variables;  // OpVariable instructions
  std::vector<std::vector<uint32_t>> modes;      // OpExecutionMode(Id) instructions
  bool has_compute_main = false;

  const std::vector<uint32_t>* decoration(uint32_t id, uint32_t dec) const {
    auto it = decorations.find(id);
    if (it == decorations.end()) return nullptr;
    for (const auto& d : it->second) {
      if (d[0] == dec) return &d;
    }
    return nullptr;
  }
  const std::vector<uint32_t>* member_decoration(uint32_t type, uint32_t member,
                                                 uint32_t dec) const {
    auto it = member_decorations.find(uint64_t{type} << 32 | member);
    if (it == member_decorations.end()) return nullptr;
    for (const auto& d : it->second) {
      if (d[0] == dec) return &d;
    }
    return nullptr;
  }
  uint64_t constant_value(uint32_t id) const {
    auto it = constants.find(id);
    if (it == constants.end() || it->second.size() < 4) return 0;
    uint64_t v = it->second[3];
    if (it->second.size() > 4) v |= uint64_t{it->second[4]} << 32;
    return v;
  }
};

Module parse(const std::vector<uint32_t>& words) {
  Module m;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) break;  // the validator rejects such modules
    std::vector<uint32_t> ins(words.begin() + i, words.begin() + i + count);
    i += count;
    switch (op) {
      case kOpEntryPoint: {
        // OpEntryPoint model id "name"...: the name's bytes start at word 3.
        const char* name = reinterpret_cast<const char*>(&ins[3]);
        if (ins[1] == kGLCompute && std::string(name) == "main") m.has_compute_main = true;
        break;
      }
      case kOpExecutionMode:
      case kOpExecutionModeId: m.modes.push_back(ins); break;
      case kOpTypeBool: case kOpTypeInt: case kOpTypeFloat: case kOpTypeVector:
      case kOpTypeMatrix: case kOpTypeArray: case kOpTypeRuntimeArray: case kOpTypeStruct:
      case kOpTypePointer: m.types[ins[1]] = ins; break;
      case kOpConstant: case kOpSpecConstantTrue: case kOpSpecConstantFalse:
      case kOpSpecConstant: case kOpSpecConstantComposite: case kOpConstantComposite:
        m.constants[ins[2]] = ins;
        break;
      case kOpVariable: m.variables.push_back(ins); break;
      case kOpDecorate: m.decorations[ins[1]].emplace_back(ins.begin() + 2, ins.end()); break;
      case kOpMemberDecorate:
        m.member_decorations[uint64_t{ins[1]} << 32 | ins[2]].emplace_back(ins.begin() + 3,
                                                                            ins.end());
        break;
      default: break;
    }
  }
  return m;
}

// The bytes a value of `type` spans as member `member` of struct `parent` (for matrix strides).
uint64_t type_size(const Module& m, uint32_t type, uint32_t parent, uint32_t member) {
  auto it = m.types.find(type);
  if (it == m.types.end()) return 0;
  const std::vector<uint32_t>& t = it->second;
  switch (t[0] & 0xffff) {
    case kOpTypeBool: return 4;
    case kOpTypeInt: case kOpTypeFloat: return t[2] / 8;
    case kOpTypeVector: return t[3] * type_size(m, t[2], 0, 0);
    case kOpTypeMatrix: {
      const auto* stride = m.member_decoration(parent, member, kDecMatrixStride);
      return t[3] * (stride ? (*stride)[1] : type_size(m, t[2], 0, 0));
    }
    case kOpTypeArray: {
      const auto* stride = m.decoration(type, kDecArrayStride);
      const uint64_t n = m.constant_value(t[3]);
      return n * (stride ? (*stride)[1] : type_size(m, t[2], 0, 0));
    }
    case kOpTypeStruct: {
      uint64_t end = 0;
      for (uint32_t k = 0; k + 2 < t.size(); ++k) {
        const auto* off = m.member_decoration(type, k, kDecOffset);
        end = std::max<uint64_t>(end, (off ? (*off)[1] : 0) + type_size(m, t[k + 2], type, k));
      }
      return end;
    }
    default: return 0;
  }
}

SpecConstantInfo spec_info(const Module& m, const std::vector<uint32_t>& c,
                           const std::string& name) {
  SpecConstantInfo info;
  const uint32_t op = c[0] & 0xffff;
  if (op == kOpSpecConstantTrue || op == kOpSpecConstantFalse) {
    info.kind = SpecConstantInfo::kBool;
    info.default_bits = op == kOpSpecConstantTrue;
    return info;
  }
  const std::vector<uint32_t>& t = m.types.at(c[1]);
  const uint32_t top = t[0] & 0xffff;
  if (top == kOpTypeFloat) {
    info.kind = SpecConstantInfo::kFloat;
  } else if (top == kOpTypeInt) {
    info.kind = t[3] ? SpecConstantInfo::kInt : SpecConstantInfo::kUInt;
  } else {
    throw ShapeError("[Kernel " + name + "] unsupported specialization constant type");
  }
  info.bytes = t[2] / 8;
  if (info.bytes != 4 && info.bytes != 8) {
    throw ShapeError("[Kernel " + name + "] specialization constants of " +
                     std::to_string(t[2]) + " bits are not supported (32 or 64)");
  }
  info.default_bits = m.constant_value(c[2]);
  return info;
}

}  // namespace

ShaderInfo reflect_spirv(const std::vector<uint32_t>& spirv, const std::string& name) {
  const std::string op = "[Kernel " + name + "] ";
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string messages;
  tools.SetMessageConsumer([&messages](spv_message_level_t, const char*,
                                       const spv_position_t& pos, const char* msg) {
    messages += "word " + std::to_string(pos.index) + ": " + msg + "\n";
  });
  if (spirv.size() < 5 || spirv[0] != 0x07230203u || !tools.Validate(spirv)) {
    throw ShapeError(op + "invalid SPIR-V" + (messages.empty() ? "" : ":\n" + messages));
  }
  const Module m = parse(spirv);
  if (!m.has_compute_main) {
    throw ShapeError(op + "the SPIR-V has no GLCompute entry point named \"main\"");
  }
  ShaderInfo info;
  for (const auto& [id, c] : m.constants) {
    if (const auto* d = m.decoration(id, kDecSpecId)) {
      if ((c[0] & 0xffff) != kOpSpecConstantComposite) {
        info.spec_constants[(*d)[1]] = spec_info(m, c, name);
      }
    }
  }
  for (const auto& mode : m.modes) {
    if ((mode[0] & 0xffff) == kOpExecutionMode && mode[2] == kModeLocalSize) {
      for (int k = 0; k < 3; ++k) info.local_size[k] = mode[3 + k];
    } else if ((mode[0] & 0xffff) == kOpExecutionModeId && mode[2] == kModeLocalSizeId) {
      for (int k = 0; k < 3; ++k) {
        info.local_size[k] = static_cast<uint32_t>(m.constant_value(mode[3 + k]));
        if (const auto* d = m.decoration(mode[3 + k], kDecSpecId)) info.local_size_id[k] = (*d)[1];
      }
    }
  }
  // gl_WorkGroupSize, when decorated, overrides the execution mode.
  for (const auto& [id, c] : m.constants) {
    const auto* b = m.decoration(id, kDecBuiltIn);
    if (!b || (*b)[1] != kBuiltInWorkgroupSize || c.size() < 6) continue;
    for (int k = 0; k < 3; ++k) {
      info.local_size[k] = static_cast<uint32_t>(m.constant_value(c[3 + k]));
      const auto* d = m.decoration(c[3 + k], kDecSpecId);
      info.local_size_id[k] = d ? static_cast<int64_t>((*d)[1]) : -1;
    }
  }
  for (const auto& v : m.variables) {
    const uint32_t storage = v[3], id = v[2];
    const std::vector<uint32_t>& ptr = m.types.at(v[1]);
    const uint32_t pointee = ptr[3];
    if (storage == kPushConstant) {
      info.push_constant_bytes = static_cast<uint32_t>(type_size(m, pointee, 0, 0));
      continue;
    }
    if (storage != kStorageBuffer && storage != kUniform && storage != kUniformConstant) continue;
    const bool buffer_block = m.decoration(pointee, kDecBufferBlock) != nullptr;
    if (storage == kUniformConstant || (storage == kUniform && !buffer_block)) {
      throw ShapeError(op + "declares a uniform buffer, image or sampler; user kernels bind "
                            "only storage buffers (layout(set = 0, binding = i) buffer ...)");
    }
    const auto* set = m.decoration(id, kDecDescriptorSet);
    const auto* binding = m.decoration(id, kDecBinding);
    if (!binding || (set && (*set)[1] != 0)) {
      throw ShapeError(op + "declares a storage buffer outside set 0 (descriptor set " +
                       std::to_string(set ? (*set)[1] : 0) + "); bind buffers at set 0");
    }
    const uint32_t b = (*binding)[1];
    if (b >= 1024) throw ShapeError(op + "binding " + std::to_string(b) + " is too large");
    if (info.declared.size() <= b) {
      info.declared.resize(b + 1, false);
      info.readonly.resize(b + 1, true);
    }
    if (info.declared[b]) throw ShapeError(op + "two buffers share binding " + std::to_string(b));
    info.declared[b] = true;
    bool readonly = m.decoration(id, kDecNonWritable) != nullptr;
    if (!readonly) {
      const std::vector<uint32_t>& t = m.types.at(pointee);
      readonly = (t[0] & 0xffff) == kOpTypeStruct && t.size() > 2;
      for (uint32_t k = 0; readonly && k + 2 < t.size(); ++k) {
        readonly = m.member_decoration(pointee, k, kDecNonWritable) != nullptr;
      }
    }
    info.readonly[b] = readonly;
  }
  return info;
}

}  // namespace vka
