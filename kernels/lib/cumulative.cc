// The scan kernels' GLSL (kernels/lib/cumulative.h): fixed text around the data's types and the
// combining op.
#include "kernels/lib/cumulative.h"

#include <algorithm>

#include "base/errors.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/ops.h"
#include "kernels/glsl/writer.h"

namespace vka {
namespace {

KernelSpec spec_of(KernelKind kind, Op op, DType t, int inputs) {
  VKA_ASSERT(!is_bool(t));
  VKA_ASSERT(op == Op::kAdd || op == Op::kMultiply || op == Op::kMaximum || op == Op::kMinimum);
  VKA_ASSERT(!is_complex(t) || op == Op::kAdd || op == Op::kMultiply);
  KernelSpec s;
  s.kind = kind;
  s.rank = 1;
  for (int i = 0; i < inputs; ++i) s.inputs.push_back(Accessor{t, Layout::kContiguous});
  s.outputs.push_back(Accessor{t, Layout::kContiguous});
  s.results = {0};
  TapeEntry e;
  e.op = op;
  e.dtype = t;
  s.tape = {e};
  s.slots = {DType::kInt64, DType::kInt64};
  return s;
}


// C combine(C a, C b): the op on two compute values, a before b.
std::string combine(Op op, DType t) {
  const std::string c(compute_type(t));
  std::string body;
  const std::string nan_a = is_floating(t) ? "isnan(a) || " : "";
  if (op == Op::kAdd) {
    body = "a + b";
  } else if (op == Op::kMultiply) {
    body = is_complex(t) ? c + "(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x)" : "a * b";
  } else if (op == Op::kMaximum) {
    body = "(" + nan_a + "a >= b) ? a : b";  // numpy's maximum: NaN wins from either side
  } else {
    body = "(" + nan_a + "a <= b) ? a : b";
  }
  return c + " combine(" + c + " a, " + c + " b) { return " + body + "; }\n";
}

}  // namespace

int cumulative_per_thread(DType t) {
  const std::size_t bytes = is_complex(t) ? itemsize(t) : std::max<std::size_t>(itemsize(t), 4);
  return static_cast<int>(16384 / (kCumThreads * bytes));
}

int64_t cumulative_block(DType t) { return int64_t{kCumThreads} * cumulative_per_thread(t); }

KernelSpec cumulative_reduce_spec(Op op, DType t) {
  return spec_of(KernelKind::kCumulativeReduce, op, t, 1);
}
KernelSpec cumulative_rows_spec(Op op, DType t) {
  return spec_of(KernelKind::kCumulativeRows, op, t, 2);
}
KernelSpec cumulative_lines_spec(Op op, DType t) {
  return spec_of(KernelKind::kCumulativeLines, op, t, 1);
}

std::string emit_cumulative(const KernelSpec& spec) {
  const DType t = spec.outputs[0].dtype;
  const std::string C(compute_type(t));
  GlslWriter push;
  emit_push_block(spec, push);
  const std::string T = std::to_string(kCumThreads);
  const std::string P = std::to_string(cumulative_per_thread(t));
  const std::string common =
      "#version 450\n" + dtype_extensions(t) + address_extensions(spec) + "// " + spec.name() +
      "\nlayout(local_size_x = " + T + ") in;\n";
  auto load = [t](const char* buf, int acc, const std::string& i) {
    return to_compute(t, std::string(buf) + ".v[pc.off" + std::to_string(acc) + " + int(" + i +
                             ")]");
  };
  auto store = [t](int acc, const std::string& i, const std::string& v) {
    return "out0.v[pc.off" + std::to_string(acc) + " + int(" + i + ")] = " +
           from_compute(t, v) + ";";
  };
  const std::string consts = "const uint T = " + T + "u, P = " + P + "u, B = T * P;\n";
  // Workgroup g scans chunk ch of row `row`: blocks [b0, b1) of B elements (cumulative.h).
  const std::string chunk =
      "  uint len = pc.c0.x, bpc = pc.c1.x, t = gl_LocalInvocationID.x;\n"
      "  uint nb = (len + B - 1u) / B, cpr = (nb + bpc - 1u) / bpc;\n"
      "  for (uint g = gl_WorkGroupID.x; g < uint(pc.n); g += gl_NumWorkGroups.x) {\n"
      "    uint row = g / cpr, ch = g - row * cpr;\n"
      "    uint b0 = ch * bpc, b1 = min(nb, b0 + bpc);\n";
  // `acc`/`has` (a thread's value, and whether it holds one) folded over the workgroup into
  // part[0] in a fixed order, lower threads' values before higher ones'.
  const std::string fold =
      "    part[t] = acc;\n"
      "    hv[t] = has ? 1u : 0u;\n"
      "    barrier();\n"
      "    for (uint s = T / 2u; s > 0u; s >>= 1) {\n"
      "      if (t < s && hv[t + s] != 0u) {\n"
      "        part[t] = hv[t] != 0u ? combine(part[t], part[t + s]) : part[t + s];\n"
      "        hv[t] = 1u;\n"
      "      }\n"
      "      barrier();\n"
      "    }\n";
  const std::string shared_fold = "shared " + C +
                                  " part[T];\n"
                                  "shared uint hv[T];\n"
                                  "void take(inout " +
                                  C + " acc, inout bool has, " + C +
                                  " x) {\n"
                                  "  acc = has ? combine(acc, x) : x;\n"
                                  "  has = true;\n"
                                  "}\n";
  const bool vectors = itemsize(t) == 4 && !is_complex(t);
  const std::string V = vectors ? storage_vec_type(t, 4) : "";
  auto lane = [&](const std::string& x, const char* c) { return to_compute(t, x + "." + c); };
  // A 4-vector's elements combined in order.
  auto four = [&](const std::string& x) {
    return "combine(combine(" + lane(x, "x") + ", " + lane(x, "y") + "), combine(" + lane(x, "z") +
           ", " + lane(x, "w") + "))";
  };
  // Not a switch: kernels/emit.cc owns the exhaustive one over every kind.
  if (spec.kind == KernelKind::kCumulativeReduce) {
    // The chunk's elements, each thread folding its own in order: 4-vectors (four in flight
    // a thread) where the chunk starts a 16-byte vector, then what is left one by one.
    std::string vec_part;
    if (vectors) {
      vec_part =
          "    if (((uint(pc.off0) + start) & 3u) == 0u) {\n"
          "      uint nv = count / 4u, base = (uint(pc.off0) + start) / 4u, i = t;\n"
          "      for (; i + 3u * T < nv; i += 4u * T) {\n"
          "        " +
          V +
          " x0 = in0v.v[base + i], x1 = in0v.v[base + i + T];\n"
          "        " +
          V +
          " x2 = in0v.v[base + i + 2u * T], x3 = in0v.v[base + i + 3u * T];\n"
          "        take(acc, has, combine(combine(" +
          four("x0") + ", " + four("x1") + "), combine(" + four("x2") + ", " + four("x3") +
          ")));\n"
          "      }\n"
          "      for (; i < nv; i += T) take(acc, has, " +
          four("in0v.v[base + i]") +
          ");\n"
          "      done = nv * 4u;\n"
          "    }\n";
    }
    return common + operand_buffer(spec, 0, "readonly", storage_type(t), "in0") +
           operand_buffer(spec, 1, "writeonly", storage_type(t), "out0") +
           (vectors ? operand_buffer(spec, 0, "readonly", V, "B0v", "in0v") : "") + push.str() +
           consts + combine(spec.tape[0].op, t) + shared_fold + "void main() {\n" + chunk +
           "    uint start = row * len + b0 * B, count = min(len, b1 * B) - b0 * B, done = 0u;\n"
           "    " +
           C + " acc = " + C +
           "(0);\n"
           "    bool has = false;\n" +
           vec_part + "    for (uint i = done + t; i < count; i += T) take(acc, has, " +
           load("in0", 0, "start + i") + ");\n" + fold + "    if (t == 0u) " +
           store(1, "g", "part[0]") +
           "\n"
           "    barrier();\n"
           "  }\n"
           "}\n";
  }
  if (spec.kind == KernelKind::kCumulativeRows) {
    // Whole blocks of 4-byte elements whose first element starts a 16-byte vector move as
    // 4-vectors between memory and shared memory: scalar loads and stores held this kernel at
    // 3.06 TB/s on the H200 (2^26 float32), where the copy runs at 4.26.
    std::string vload = "", vstore = "", vdecl = "";
    if (vectors) {
      vdecl = operand_buffer(spec, 0, "readonly", V, "B0v", "in0v") +
              operand_buffer(spec, 2, "writeonly", V, "B2v", "out0v");
      vload =
          "      bool vec = count == B && ((uint(pc.off0) + start) & 3u) == 0u &&\n"
          "                 ((uint(pc.off2) + start) & 3u) == 0u;\n"
          "      if (vec) {\n"
          "        for (uint k = 0u; k < P / 4u; ++k) {\n"
          "          uint i = t + k * T;\n"
          "          " +
          V +
          " x = in0v.v[(uint(pc.off0) + start) / 4u + i];\n"
          "          sh[pad(4u * i)] = " +
          lane("x", "x") +
          ";\n"
          "          sh[pad(4u * i + 1u)] = " +
          lane("x", "y") +
          ";\n"
          "          sh[pad(4u * i + 2u)] = " +
          lane("x", "z") +
          ";\n"
          "          sh[pad(4u * i + 3u)] = " +
          lane("x", "w") +
          ";\n"
          "        }\n"
          "      } else {\n";
      vstore =
          "      if (vec) {\n"
          "        for (uint k = 0u; k < P / 4u; ++k) {\n"
          "          uint i = t + k * T;\n"
          "          out0v.v[(uint(pc.off2) + start) / 4u + i] = " +
          V + "(" + from_compute(t, "sh[pad(4u * i)]") + ", " +
          from_compute(t, "sh[pad(4u * i + 1u)]") + ", " + from_compute(t, "sh[pad(4u * i + 2u)]") +
          ", " + from_compute(t, "sh[pad(4u * i + 3u)]") +
          ");\n"
          "        }\n"
          "      } else {\n";
    }
    const std::string close = vectors ? "      }\n" : "";
    return common + operand_buffer(spec, 0, "readonly", storage_type(t), "in0") +
           operand_buffer(spec, 1, "readonly", storage_type(t), "in1") +
           operand_buffer(spec, 2, "writeonly", storage_type(t), "out0") + vdecl + push.str() +
           consts + combine(spec.tape[0].op, t) + shared_fold +
           // One padding slot per 32 values: the threads' runs of P consecutive values
           // then fall in distinct banks.
           "shared " + C +
           " sh[B + B / 32u];\n"
           "uint pad(uint i) { return i + (i >> 5); }\n"
           "void main() {\n" +
           chunk +
           // The carry into the chunk: the totals of the row's earlier chunks, each thread
           // folding a run of consecutive ones, then the runs in thread order.
           "    " + C + " carry = " + C +
           "(0);\n"
           "    bool has = ch > 0u;\n"
           "    if (has) {\n"
           "      uint q = (ch + T - 1u) / T, lo = min(ch, t * q), hi = min(ch, lo + q);\n"
           "      " +
           C + " acc = " + C +
           "(0);\n"
           "      bool has = false;\n"
           "      for (uint k = lo; k < hi; ++k) take(acc, has, " +
           load("in1", 1, "row * cpr + k") + ");\n" + fold +
           "      carry = part[0];\n"
           "      barrier();\n"
           "    }\n"
           // Then the chunk's blocks in order, each starting from the last result before it.
           "    for (uint blk = b0; blk < b1; ++blk) {\n"
           "      uint start = row * len + blk * B, count = min(B, len - blk * B);\n"
           // Coalesced loads into shared memory; each thread then scans P consecutive ones.
           + vload +
           "      for (uint k = 0u; k < P; ++k) {\n"
           "        uint i = t + k * T;\n"
           "        if (i < count) sh[pad(i)] = " +
           load("in0", 0, "start + i") +
           ";\n"
           "      }\n" +
           close +
           "      barrier();\n"
           "      uint first = t * P;\n"
           "      uint m = first < count ? min(P, count - first) : 0u;\n"
           "      " +
           C + " run = " + C +
           "(0);\n"
           "      if (m > 0u) {\n"
           "        run = sh[pad(first)];\n"
           "        for (uint k = 1u; k < m; ++k) {\n"
           "          run = combine(run, sh[pad(first + k)]);\n"
           "          sh[pad(first + k)] = run;\n"
           "        }\n"
           "      }\n"
           "      part[t] = run;\n"
           "      barrier();\n"
           // Hillis-Steele inclusive scan of the thread totals. Threads holding data are a
           // prefix of the group, so a live thread only ever combines live totals.
           "      for (uint d = 1u; d < T; d <<= 1) {\n"
           "        " +
           C +
           " before = part[t];\n"
           "        if (t >= d) before = part[t - d];\n"
           "        barrier();\n"
           "        if (t >= d) part[t] = combine(before, part[t]);\n"
           "        barrier();\n"
           "      }\n"
           "      " +
           C +
           " prefix = carry;\n"
           "      bool hp = has;\n"
           "      if (t > 0u) {\n"
           "        prefix = hp ? combine(prefix, part[t - 1u]) : part[t - 1u];\n"
           "        hp = true;\n"
           "      }\n"
           "      if (hp) {\n"
           "        for (uint k = 0u; k < m; ++k) {\n"
           "          sh[pad(first + k)] = combine(prefix, sh[pad(first + k)]);\n"
           "        }\n"
           "      }\n"
           "      barrier();\n"
           "      carry = sh[pad(count - 1u)];\n"
           "      has = true;\n" +
           vstore +
           "      for (uint k = 0u; k < P; ++k) {\n"
           "        uint i = t + k * T;\n"
           "        if (i < count) " +
           store(2, "start + i", "sh[pad(i)]") +
           "\n"
           "      }\n" +
           close +
           "      barrier();\n"
           "    }\n"
           "  }\n"
           "}\n";
  }
  if (spec.kind == KernelKind::kCumulativeLines) {
    return common + operand_buffer(spec, 0, "readonly", storage_type(t), "in0") +
           operand_buffer(spec, 1, "writeonly", storage_type(t), "out0") + push.str() + consts +
           combine(spec.tape[0].op, t) +
           "void main() {\n"
           "  uint len = pc.c0.x, inner = pc.c1.x;\n"
           "  uint grid = gl_NumWorkGroups.x * T;\n"
           "  for (uint i = gl_GlobalInvocationID.x; i < uint(pc.n); i += grid) {\n"
           "    uint o = i / inner, j = i - o * inner;\n"
           "    uint e = o * len * inner + j;\n"
           "    " + C + " acc = " + load("in0", 0, "e") + ";\n"
           "    " + store(1, "e", "acc") + "\n"
           "    for (uint k = 1u; k < len; ++k) {\n"
           "      e += inner;\n"
           "      acc = combine(acc, " + load("in0", 0, "e") + ");\n"
           "      " + store(1, "e", "acc") + "\n"
           "    }\n"
           "  }\n"
           "}\n";
  }
  internal_error("emit_cumulative of a spec of another kind", __FILE__, __LINE__);
}

}  // namespace vka
