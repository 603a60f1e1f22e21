// GLSL of the radix sort's order-preserving keys (kernels/lib/sort_key_glsl.h).
#include "kernels/lib/sort_key_glsl.h"

#include "base/errors.h"

namespace vka {
namespace sort_pass_internal {
namespace {

std::string hex(uint64_t v, bool wide) {
  static const char* digits = "0123456789ABCDEF";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 15]);
    v >>= 4;
  } while (v);
  return "0x" + s + (wide ? "ul" : "u");
}

}  // namespace

int component_bits(DType t) {
  return static_cast<int>(is_complex(t) ? itemsize(t) / 2 : itemsize(t)) * 8;
}

std::string raw_type(int bits) {
  switch (bits) {
    case 8:
      return "uint8_t";
    case 16:
      return "uint16_t";
    case 32:
      return "uint";
    default:
      return "uint64_t";
  }
}

KeyBits::KeyBits(DType t) : wide(component_bits(t) == 64), K(wide ? "uint64_t" : "uint") {
  const int w = component_bits(t);
  sign = uint64_t{1} << (w - 1);
  mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  expmask = w == 16 ? 0x7C00u : w == 32 ? 0x7F800000u : 0x7FF0000000000000ull;
  quiet = w == 16 ? 0x7E00u : w == 32 ? 0x7FC00000u : 0x7FF8000000000000ull;
}

std::string KeyBits::h(uint64_t v) const { return hex(v, wide); }

std::string float_key_functions(const KeyBits& b) {
  const std::string& K = b.K;
  // Selects, not branches: the passes key a tile's values together.
  return "bool is_nan(" + K + " x) { return (x & " + b.h(b.sign - 1) + ") > " + b.h(b.expmask) +
         "; }\n" + K + " float_key(" + K + " x) {\n  " + K + " mag = x & " + b.h(b.sign - 1) +
         ";\n  " + K + " k = (x & " + b.h(b.sign) + ") != " + K + "(0) ? (~x) & " + b.h(b.mask) +
         " : x | " + b.h(b.sign) + ";\n  k = mag == " + K + "(0) ? " + b.h(b.sign) +
         " : k;\n  return mag > " + b.h(b.expmask) + " ? " + b.h(b.mask) + " : k;\n}\n" +
         "bool lossy_value(" + K + " x) { return (is_nan(x) && x != " + b.h(b.quiet) +
         ") || x == " + b.h(b.sign) + "; }\n";
}

std::string integer_key(DType t, const KeyBits& b, const std::string& x) {
  if (is_bool(t)) return x + " != " + b.K + "(0) ? " + b.K + "(1) : " + b.K + "(0)";
  if (is_signed_integer(t)) return x + " ^ " + b.h(b.sign);
  return x;
}

std::string value_coding(DType t) {
  VKA_ASSERT(!is_complex(t) && !is_bool(t) && (itemsize(t) == 4 || itemsize(t) == 8));
  const KeyBits b(t);
  const std::string& K = b.K;
  if (!is_floating(t)) {
    return K + " encode_value(" + K + " x) { return " + integer_key(t, b, "x") + "; }\n" + K +
           " decode_value(" + K + " k) { return " + integer_key(t, b, "k") + "; }\n" +
           "bool lossy_value(" + K + " x) { return false; }\n";
  }
  // A key with the sign bit set was a value >= +0.0; below it, a negative value's every bit
  // flipped; the largest key, every NaN (lossy_value: only the quiet NaN comes back as it was).
  return float_key_functions(b) + K + " encode_value(" + K + " x) { return float_key(x); }\n" + K +
         " decode_value(" + K +
         " k) {\n"
         "  if (k == " +
         b.h(b.mask) + ") return " + b.h(b.quiet) +
         ";\n"
         "  return (k & " +
         b.h(b.sign) + ") != " + K + "(0) ? k ^ " + b.h(b.sign) +
         " : ~k;\n"
         "}\n";
}

}  // namespace sort_pass_internal
}  // namespace vka
