// UserKernel: a compute shader the user wrote (GLSL or SPIR-V), applied to arrays.
//
// The shader binds storage buffers at set 0, bindings 0..n-1 (argument i is binding i) and
// may declare one push-constant block and specialization constants. A call forces its
// arguments' values, binds each as a contiguous buffer, and dispatches on every replica (or
// one). Arguments the kernel writes are changed in place, as numpy's out= arrays: by default
// those whose buffer block is not `readonly` in the shader.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "device/pipeline.h"
#include "kernels/spirv_reflect.h"

namespace vka {

class Stream;

// A specialization constant's value as given; converted to the type the shader declares.
struct SpecValue {
  bool is_float = false;
  double f = 0;
  int64_t i = 0;
  static SpecValue of_int(int64_t v) { return {false, 0, v}; }
  static SpecValue of_float(double v) { return {true, v, 0}; }
};

struct UserKernelOptions {
  // The local size (invocations per workgroup); unset: the shader's. Dimensions the shader
  // takes from specialization constants (local_size_x_id = k) are set through constant k;
  // literal ones must match.
  std::optional<std::array<uint32_t, 3>> local_size;
  // The dispatch grid (workgroups in x, y, z) of calls that name none: Kompute's
  // `workgroup`. Unset: ceil(size / local size x), 1, 1 (UserCall::groups).
  std::optional<std::array<uint32_t, 3>> groups;
  std::map<uint32_t, SpecValue> spec_consts;  // by constant_id
  std::vector<uint8_t> push_consts;           // default push-constant bytes
  std::string name = "user_kernel";
};

// One call's arguments (see UserKernel::operator()).
struct UserCall {
  // The dispatch grid; unset: the kernel's (UserKernelOptions::groups), else
  // ceil(size / local size x), 1, 1 with size that of the first written argument.
  std::optional<std::array<uint32_t, 3>> groups;
  std::optional<std::vector<uint8_t>> push_consts;  // unset: the kernel's defaults
  std::optional<std::vector<bool>> writes;  // unset: the bindings not declared readonly
  std::optional<int> index;                 // one replica; unset: every replica
};

class UserKernel {
 public:
  // From GLSL source (compiled through the kernel cache; CompileError with the numbered
  // source) or SPIR-V words. ShapeError for bad SPIR-V, spec constants or workgroups.
  static UserKernel from_glsl(const std::string& source, UserKernelOptions options);
  static UserKernel from_spirv(std::vector<uint32_t> spirv, UserKernelOptions options);

  const std::string& name() const { return name_; }
  int num_bindings() const { return static_cast<int>(info_.declared.size()); }
  const std::vector<bool>& readonly() const { return info_.readonly; }
  std::array<uint32_t, 3> local_size() const { return local_size_; }
  // The default dispatch grid (UserKernelOptions::groups); nullopt: from the arguments' size.
  const std::optional<std::array<uint32_t, 3>>& groups() const { return groups_; }
  // The shader's push-constant block in bytes (0: none).
  uint32_t push_constant_bytes() const { return info_.push_constant_bytes; }
  const std::vector<uint32_t>& spirv() const { return *spirv_; }

  // Applies the kernel to `args` (one per binding). Written arguments must be writeable
  // arrays; they take the values the kernel leaves in their buffers. Returns their indices.
  std::vector<int> operator()(std::vector<Array>& args, const UserCall& call = {}) const;

  // The lower-level steps a Sequence uses: the arguments' buffers for replica `replica`,
  // then one dispatch recorded on `stream` (argument checks as operator()).
  struct Prepared;
  std::shared_ptr<Prepared> prepare(std::vector<Array>& args, const UserCall& call) const;
  void record(const Prepared& prepared, int replica, Stream& stream) const;
  void finish(const Prepared& prepared, std::optional<int> index) const;

 private:
  UserKernel(std::shared_ptr<const std::vector<uint32_t>> spirv, UserKernelOptions options);
  std::vector<uint8_t> push_bytes(const std::optional<std::vector<uint8_t>>& given) const;

  std::string name_;
  std::shared_ptr<const std::vector<uint32_t>> spirv_;
  ShaderInfo info_;
  std::array<uint32_t, 3> local_size_{1, 1, 1};
  std::optional<std::array<uint32_t, 3>> groups_;
  SpecConstants spec_;
  std::vector<uint8_t> default_push_;
  std::string cache_key_;
};

}  // namespace vka
