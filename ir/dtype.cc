// The dtype table, expanded once, and dtype parsing.
#include "ir/dtype.h"

#include <array>
#include <string>

#include "base/errors.h"

namespace vka {
namespace {

constexpr std::array<DTypeInfo, kNumDTypes> kTable = {{
#define VKA_DTYPE(e, name, ch, size, kind, glsl, feature) \
  {DType::e, name, ch, size, kind, glsl, DeviceFeature::feature},
#include "ir/dtypes.def"
#undef VKA_DTYPE
}};

struct Alias {
  std::string_view text;
  DType dtype;
};
constexpr Alias kAliases[] = {
    {"bool_", DType::kBool},
    {"b1", DType::kBool},
    {"half", DType::kFloat16},
    {"single", DType::kFloat32},
    {"float", DType::kFloat64},
    {"double", DType::kFloat64},
    {"int", DType::kInt64},
    {"intp", DType::kInt64},
    {"uint", DType::kUInt64},
    {"uintp", DType::kUInt64},
    {"complex", DType::kComplex128},
    {"csingle", DType::kComplex64},
    {"cdouble", DType::kComplex128},
    {"f2", DType::kFloat16},
    {"f4", DType::kFloat32},
    {"f8", DType::kFloat64},
    {"i1", DType::kInt8},
    {"i2", DType::kInt16},
    {"i4", DType::kInt32},
    {"i8", DType::kInt64},
    {"u1", DType::kUInt8},
    {"u2", DType::kUInt16},
    {"u4", DType::kUInt32},
    {"u8", DType::kUInt64},
    {"c8", DType::kComplex64},
    {"c16", DType::kComplex128},
    {"q", DType::kInt64},
    {"Q", DType::kUInt64},
};

}  // namespace

const DTypeInfo& info(DType t) { return kTable[static_cast<std::size_t>(t)]; }

std::string_view name(DeviceFeature f) {
  switch (f) {
    case DeviceFeature::kNone:
      return "none";
    case DeviceFeature::kInt8:
      return "shaderInt8 and storageBuffer8BitAccess";
    case DeviceFeature::kInt16:
      return "shaderInt16 and storageBuffer16BitAccess";
    case DeviceFeature::kInt64:
      return "shaderInt64";
    case DeviceFeature::kFloat16:
      return "shaderFloat16 and storageBuffer16BitAccess";
    case DeviceFeature::kFloat64:
      return "shaderFloat64";
  }
  return "?";
}

DType parse_dtype(std::string_view text) {
  std::string_view t = text;
  // numpy's byte-order prefixes: little-endian and native are the only orders we store.
  if (!t.empty() && (t[0] == '<' || t[0] == '=' || t[0] == '|')) t.remove_prefix(1);
  for (const DTypeInfo& d : kTable) {
    if (t == d.name || (t.size() == 1 && t[0] == d.numpy_char)) return d.dtype;
  }
  for (const Alias& a : kAliases) {
    if (t == a.text) return a.dtype;
  }
  throw DTypeError("[dtype] unknown or unsupported dtype '" + std::string(text) +
                   "'; supported: bool, int8, uint8, int16, uint16, int32, uint32, int64, "
                   "uint64, float16, float32, float64, complex64, complex128");
}

}  // namespace vka
