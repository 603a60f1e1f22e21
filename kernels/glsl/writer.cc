// Indentation bookkeeping for generated GLSL.
#include "kernels/glsl/writer.h"

#include <cstdio>

#include "base/errors.h"

namespace vka {

GlslWriter& GlslWriter::line(std::string_view text) {
  if (!text.empty()) out_.append(static_cast<std::size_t>(depth_) * 2, ' ');
  out_.append(text);
  out_.push_back('\n');
  return *this;
}

GlslWriter& GlslWriter::raw(std::string_view text) {
  out_.append(text);
  if (!text.empty() && text.back() != '\n') out_.push_back('\n');
  return *this;
}

GlslWriter& GlslWriter::open(std::string_view header) {
  line(std::string(header) + " {");
  ++depth_;
  return *this;
}

GlslWriter& GlslWriter::close(std::string_view suffix) {
  VKA_ASSERT(depth_ > 0);
  --depth_;
  return line("}" + std::string(suffix));
}

std::string number_lines(std::string_view source) {
  std::string out;
  int n = 1;
  std::size_t start = 0;
  while (start <= source.size()) {
    std::size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    if (start == source.size()) break;
    char num[16];
    std::snprintf(num, sizeof num, "%4d  ", n++);
    out += num;
    out.append(source.substr(start, end - start));
    out.push_back('\n');
    start = end + 1;
  }
  return out;
}

std::string dtype_extensions(DType t) {
  std::string h;
  if (itemsize(t) == 1) {
    h += "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n"
         "#extension GL_EXT_shader_8bit_storage : require\n";
  }
  if (itemsize(t) == 2) {
    h += "#extension GL_EXT_shader_16bit_storage : require\n"
         "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n"
         "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n";
  }
  if (t == DType::kInt64 || t == DType::kUInt64) {
    h += "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n";
  }
  return h;
}

std::string storage_buffer(int binding, std::string_view qualifier, std::string_view type,
                           std::string_view name) {
  return "layout(std430, set = 0, binding = " + std::to_string(binding) + ") " +
         std::string(qualifier) + " buffer B" + std::to_string(binding) + " { " +
         std::string(type) + " v[]; } " + std::string(name) + ";\n";
}

}  // namespace vka
