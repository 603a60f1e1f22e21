// Element types as runtime values: one table (dtypes.def) gives every per-dtype fact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace vka {

enum class DType : uint8_t {
#define VKA_DTYPE(e, name, ch, size, kind, glsl, feature) e,
#include "ir/dtypes.def"
#undef VKA_DTYPE
};

inline constexpr int kNumDTypes = 0
#define VKA_DTYPE(e, name, ch, size, kind, glsl, feature) +1
#include "ir/dtypes.def"
#undef VKA_DTYPE
    ;

// Optional device capabilities a dtype's generated GLSL needs (beyond Vulkan 1.2 core).
enum class DeviceFeature : uint8_t {
  kNone,     // always available
  kInt8,     // shaderInt8 + storageBuffer8BitAccess
  kInt16,    // shaderInt16 + storageBuffer16BitAccess
  kInt64,    // shaderInt64
  kFloat16,  // shaderFloat16 + storageBuffer16BitAccess
  kFloat64,  // shaderFloat64
};

struct DTypeInfo {
  DType dtype;
  std::string_view name;  // numpy's name: "float32"
  char numpy_char;        // numpy's dtype.char: 'f'
  std::size_t itemsize;   // bytes per element
  char kind;              // numpy's dtype.kind: 'b' 'i' 'u' 'f' 'c'
  std::string_view glsl;  // storage type in GLSL
  DeviceFeature feature;  // what the device must offer
};

const DTypeInfo& info(DType t);
inline std::size_t itemsize(DType t) { return info(t).itemsize; }
inline std::string_view name(DType t) { return info(t).name; }
std::string_view name(DeviceFeature f);

inline bool is_bool(DType t) { return info(t).kind == 'b'; }
inline bool is_integer(DType t) { return info(t).kind == 'i' || info(t).kind == 'u'; }
inline bool is_signed_integer(DType t) { return info(t).kind == 'i'; }
inline bool is_unsigned_integer(DType t) { return info(t).kind == 'u'; }
inline bool is_floating(DType t) { return info(t).kind == 'f'; }
inline bool is_complex(DType t) { return info(t).kind == 'c'; }

// Parses a numpy name ("float32"), a numpy char ("f") or a common alias ("float", "int",
// "complex", "double", "half", "bool_"); throws DTypeError naming the text when unknown.
DType parse_dtype(std::string_view text);

// C++ type → DType, for typed accessors at the API edges.
template <typename T>
struct dtype_of;
#define VKA_DTYPE_OF(T, e)                   \
  template <>                                \
  struct dtype_of<T> {                       \
    static constexpr DType value = DType::e; \
  };
VKA_DTYPE_OF(bool, kBool)
VKA_DTYPE_OF(int8_t, kInt8)
VKA_DTYPE_OF(uint8_t, kUInt8)
VKA_DTYPE_OF(int16_t, kInt16)
VKA_DTYPE_OF(uint16_t, kUInt16)
VKA_DTYPE_OF(int32_t, kInt32)
VKA_DTYPE_OF(uint32_t, kUInt32)
VKA_DTYPE_OF(int64_t, kInt64)
VKA_DTYPE_OF(uint64_t, kUInt64)
VKA_DTYPE_OF(float, kFloat32)
VKA_DTYPE_OF(double, kFloat64)
#undef VKA_DTYPE_OF
template <typename T>
inline constexpr DType dtype_of_v = dtype_of<T>::value;

}  // namespace vka
