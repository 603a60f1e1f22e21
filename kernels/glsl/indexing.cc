// Index math emission; the 64-bit variant differs only in the index type.
#include "kernels/glsl/indexing.h"

namespace vka {

std::string index_type(const KernelSpec& spec) { return spec.index64 ? "int64_t" : "int"; }

void emit_push_block(const KernelSpec& spec, GlslWriter& w) {
  PushLayout L = push_layout(spec);
  std::string it = index_type(spec);
  // Binding after the operands' (none when they are addressed): ir/kernel_spec.h, ArgBlock.
  const std::string binding =
      std::to_string(spec.addressing == Addressing::kBindings ? spec.num_operand_bindings() : 0);
  switch (spec.args) {
    case ArgBlock::kPush:
      w.open("layout(push_constant, std430) uniform Push");
      break;
    case ArgBlock::kUniform:  // std140 places these 4- and 8-byte members as std430 does
      w.open("layout(std140, set = 0, binding = " + binding + ") uniform Args");
      break;
    case ArgBlock::kStorage:
      w.open("layout(std430, set = 0, binding = " + binding + ") readonly buffer Args");
      break;
  }
  for (const PushField& f : L.fields) {
    const std::string type = f.kind == PushField::kSlot      ? "uvec2"
                             : f.kind == PushField::kAddress ? "uint64_t"
                                                             : it;
    w.line("layout(offset = " + std::to_string(f.offset) + ") " + type + " " + f.name() + ";");
  }
  w.close(" pc;");
}

namespace {

// A buffer reference's alignment: its element's size, which the arrays' elements are aligned to.
int reference_align(const std::string& type) {
  static const std::pair<const char*, int> kSizes[] = {
      {"uint8_t", 1}, {"int8_t", 1}, {"uint16_t", 2}, {"int16_t", 2},  {"float16_t", 2},
      {"uint", 4},    {"int", 4},    {"float", 4},    {"uint64_t", 8}, {"int64_t", 8},
      {"double", 8},  {"vec2", 8},   {"uvec2", 8},    {"dvec2", 16},   {"vec4", 16},
      {"ivec4", 16},  {"uvec4", 16}, {"f16vec4", 8},  {"i16vec4", 8},  {"u16vec4", 8},
      {"u8vec4", 4},  {"i8vec4", 4}, {"dvec4", 32},   {"i64vec4", 32}, {"u64vec4", 32},
  };
  for (const auto& [name, size] : kSizes) {
    if (type == name) return size;
  }
  return 4;
}

}  // namespace

std::string operand_buffer(const KernelSpec& spec, int binding, std::string_view access,
                           std::string_view type, std::string_view block, std::string_view name) {
  const std::string b = std::to_string(binding), a(access), t(type), k(block), n(name);
  if (spec.addressing == Addressing::kBindings) {
    return "layout(std430, set = 0, binding = " + b + ") " + a + " buffer " + k + " { " + t +
           " v[]; } " + n + ";\n";
  }
  return "layout(buffer_reference, std430, buffer_reference_align = " +
         std::to_string(reference_align(t)) + ") " + a + " buffer " + k + " { " + t +
         " v[]; };\n#define " + n + " " + k + "(pc.a" + b + ")\n";
}

std::string operand_buffer(const KernelSpec& spec, int binding, std::string_view access,
                           std::string_view type, std::string_view name) {
  return operand_buffer(spec, binding, access, type, "B" + std::to_string(binding), name);
}

std::string address_extensions(const KernelSpec& spec) {
  if (spec.addressing == Addressing::kBindings) return "";
  return "#extension GL_EXT_buffer_reference : require\n"
         "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n";
}

void open_grid_loop(const KernelSpec& spec, uint32_t workgroup_size, GlslWriter& w) {
  std::string it = index_type(spec);
  w.line(it + " grid = " + it + "(gl_NumWorkGroups.x) * " + it + "(" +
         std::to_string(workgroup_size) + ");");
  w.open("for (" + it + " i = " + it + "(gl_GlobalInvocationID.x); i < pc.n; i += grid)");
}

bool uses_rows(const KernelSpec& spec) {
  return spec.rank >= 2 && any_strided(spec) &&
         static_cast<int>(spec.tape.size()) <= kMaxRowModeTape;
}

bool unrolls(const KernelSpec& spec) {
  if (spec.kind != KernelKind::kElementwise || spec.rank < 1 || uses_rows(spec) ||
      spec.vector_width != 1) {
    return false;
  }
  for (const Accessor& a : spec.outputs) {
    if (a.layout == Layout::kScalar) return false;
  }
  return true;
}

int flat_unroll(const KernelSpec& spec) { return unrolls(spec) ? spec.unroll : 1; }

int row_unroll(const KernelSpec& spec) {
  return spec.vector_width == 4 || spec.tape.size() <= 64 ? 4 : 1;
}

uint32_t row_lanes(int64_t inner, int columns_per_lane, uint32_t workgroup_size) {
  const int64_t need = (inner + columns_per_lane - 1) / columns_per_lane;
  uint32_t lanes = workgroup_size;
  while (lanes > kMinRowLanes && static_cast<int64_t>(lanes / 2) >= need) lanes /= 2;
  return lanes;
}

void open_rows(const KernelSpec& spec, uint32_t workgroup_size, GlslWriter& w) {
  const std::string it = index_type(spec);
  const int last = spec.rank - 1;
  const std::string inner = "pc.dim" + std::to_string(last);
  const std::string wg = std::to_string(workgroup_size) + "u";
  w.line(it + " rows = pc.n / " + inner + ";");
  // row_lanes(), as the launch computes it.
  w.line(it + " need = (" + inner + " + " + it + "(" + std::to_string(row_unroll(spec) - 1) +
         ")) / " + it + "(" + std::to_string(row_unroll(spec)) + ");");
  w.line("uint lanes = " + wg + ";");
  w.line("while (lanes > " + std::to_string(kMinRowLanes) + "u && " + it +
         "(lanes / 2u) >= need) lanes /= 2u;");
  w.line(it + " packed = " + it + "(" + wg + " / lanes);");
  w.line(it + " cgrid = " + it + "(gl_NumWorkGroups.x) * " + it + "(lanes);");
  w.line(it + " col0 = " + it + "(gl_WorkGroupID.x) * " + it + "(lanes) + " + it +
         "(gl_LocalInvocationID.x % lanes);");
  w.open("for (" + it + " r = " + it + "(gl_WorkGroupID.y) * packed + " + it +
         "(gl_LocalInvocationID.x / lanes); r < rows; r += " + it +
         "(gl_NumWorkGroups.y) * packed)");
  w.line(it + " rest = r;");
  for (int d = last - 1; d >= 1; --d) {
    std::string dim = "pc.dim" + std::to_string(d);
    w.line(it + " i" + std::to_string(d) + " = rest % " + dim + ";");
    w.line("rest /= " + dim + ";");
  }
  w.line(it + " i0 = rest;");
}

void open_row_loops(const KernelSpec& spec, uint32_t workgroup_size, GlslWriter& w) {
  const std::string it = index_type(spec);
  open_rows(spec, workgroup_size, w);
  w.open("for (" + it + " c = col0; c < pc.dim" + std::to_string(spec.rank - 1) + "; c += " + it +
         "(" + std::to_string(row_unroll(spec)) + ") * cgrid)");
}

void open_row_column(const KernelSpec& spec, int u, GlslWriter& w) {
  const std::string it = index_type(spec);
  const std::string last = "i" + std::to_string(spec.rank - 1);
  const std::string inner = "pc.dim" + std::to_string(spec.rank - 1);
  w.line(it + " " + last + "_" + std::to_string(u) + " = c + " + it + "(" + std::to_string(u) +
         ") * cgrid;");
  w.open("if (" + last + "_" + std::to_string(u) + " < " + inner + ")");
  w.line(it + " " + last + " = " + last + "_" + std::to_string(u) + ";");
  w.line(it + " i = r * " + inner + " + " + last + ";");
}

void emit_nd_index(const KernelSpec& spec, GlslWriter& w) {
  if (!any_strided(spec) || spec.rank == 0) return;
  std::string it = index_type(spec);
  // Innermost dimension last (C order): peel dims from the right.
  w.line(it + " rest = i;");
  for (int d = spec.rank - 1; d >= 1; --d) {
    std::string dim = "pc.dim" + std::to_string(d);
    w.line(it + " i" + std::to_string(d) + " = rest % " + dim + ";");
    w.line("rest /= " + dim + ";");
  }
  w.line(it + " i0 = rest;");
}

std::string element_offset(const KernelSpec& spec, int accessor, Layout layout) {
  std::string off = "pc.off" + std::to_string(accessor);
  switch (layout) {
    case Layout::kContiguous:
      return "(" + off + " + i)";
    case Layout::kScalar:
      return off;
    case Layout::kStrided: {
      std::string s = "(" + off;
      const std::string st = "pc.st" + std::to_string(spec.stride_owner(accessor)) + "_";
      for (int d = 0; d < spec.rank; ++d) {
        s += " + i" + std::to_string(d) + " * " + st + std::to_string(d);
      }
      return s + ")";
    }
  }
  return off;
}

std::string element_index(const KernelSpec& spec, int accessor, Layout layout) {
  std::string e = element_offset(spec, accessor, layout);
  // GLSL indexes arrays with 32-bit scalars only. With 64-bit index math the element index
  // within one binding still fits 32 unsigned bits: a binding spans at most
  // maxStorageBufferRange (< 4 GiB) bytes, and larger arrays are bound as windows.
  return spec.index64 ? "uint(" + e + ")" : e;
}

}  // namespace vka
