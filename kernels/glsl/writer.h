// An indented string builder for generated GLSL: emitters state structure, not whitespace.
#pragma once

#include <string>
#include <string_view>

#include "ir/dtype.h"

namespace vka {

class GlslWriter {
 public:
  // Appends one line at the current indentation.
  GlslWriter& line(std::string_view text = "");
  // Appends text verbatim (helper function bodies that carry their own layout).
  GlslWriter& raw(std::string_view text);
  // "header {" then indents; close() dedents and writes "}" + suffix.
  GlslWriter& open(std::string_view header);
  GlslWriter& close(std::string_view suffix = "");
  const std::string& str() const { return out_; }

 private:
  std::string out_;
  int depth_ = 0;
};

// A std430 storage buffer of the fixed library kernels: "layout(std430, set = 0, binding = 2)
// readonly buffer B2 { uint v[]; } in0;" (qualifier: "readonly", "writeonly" or "").
std::string storage_buffer(int binding, std::string_view qualifier, std::string_view type,
                           std::string_view name);

// The #extension lines a kernel needs to store and compute in `t`: 8- and 16-bit storage and
// arithmetic for 1- and 2-byte types, 64-bit integer arithmetic for int64/uint64.
std::string dtype_extensions(DType t);

// "   1  #version 450" style numbering, for compile-error messages and test failures.
std::string number_lines(std::string_view source);

}  // namespace vka
