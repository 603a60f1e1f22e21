// The GEMM kernel's stores that are not a plain write of the tile (kernels/gen/gemm_store.h):
// the epilogue's staged passes and split-K's combining pass.
#include "kernels/gen/gemm_store.h"

#include "base/errors.h"
#include "kernels/gen/reduce.h"
#include "kernels/glsl/indexing.h"
#include "kernels/glsl/ops.h"
#include "kernels/glsl/writer.h"

namespace vka {

// The accumulator (and shared-memory) type: numpy's compute type, uint for bool (or-of-and).
std::string gemm_acc_type(DType t) { return is_bool(t) ? "uint" : std::string(compute_type(t)); }

// The epilogue's value of the product: the accumulator rounded to the product's dtype, in
// that dtype's tape value type (kernels/glsl/ops.h).
std::string gemm_product_value(DType t, const std::string& acc) {
  if (is_bool(t)) return "(" + acc + " != 0u)";
  return std::string(value_type(t)) + "(" + acc + ")";
}

// The store of a kernel with an epilogue, in TM passes: pass ti stages register row ti of
// every invocation (RT rows x BN columns of the tile) in shared memory with constant indices,
// so the accumulators stay in registers (a loop indexing them with its counter would put them
// in local memory for the whole kernel), and the workgroup then evaluates the epilogue over
// the chunk with consecutive invocations on consecutive columns of a row (coalesced loads of
// the epilogue's operands and stores of its outputs). Each element (batch z, row gm, column
// gn) evaluates the tape at flat index i = (z * M + gm) * N + gn, the product being
// `gemm_value`.
std::string gemm_staged_epilogue(const KernelSpec& spec, TapeEmitter& epilogue) {
  const DType t = spec.inputs[1].dtype;
  const GemmSpec& g = spec.gemm;
  const int cols = g.vec4 ? g.tn / 4 : g.tn;  // accumulators (4-vectors) per register row
  auto num = [](int v) { return std::to_string(v); };
  std::string r = "    for (int ti = 0; ti < TM; ++ti) {\n"
                  "      barrier();  // the previous chunk is read\n"
                  "      switch (ti) {\n";
  for (int i = 0; i < g.tm; ++i) {
    r += "        case " + num(i) + ":\n";
    for (int j = 0; j < cols; ++j) {
      r += g.vec4 ? "          sc[tr * (BN / 4) + " + num(j) + " * CT + tc] = acc[" + num(i) +
                        "][" + num(j) + "];\n"
                  : "          sc[tr * BN + tc + " + num(j) + " * CT] = acc[" + num(i) + "][" +
                        num(j) + "];\n";
    }
    r += "          break;\n";
  }
  r += "      }\n"
       "      barrier();\n";
  // Chunk row q holds tile row (ti / 4) * RT * 4 + q * 4 + ti % 4 (4-vector layout) or
  // ti * RT + q (scalar layout).
  r += g.vec4 ? "      int row0 = m0 + (ti >> 2) * RT * 4 + (ti & 3), row_step = 4;\n"
              : "      int row0 = m0 + ti * RT, row_step = 1;\n";
  r += "      for (int e = tid; e < RT * BN; e += THREADS) {\n"
       "        int q = e / BN, c = e - q * BN;\n"
       "        int gm = row0 + q * row_step, gn = n0 + c;\n";
  const std::string staged = g.vec4 ? "sc[e >> 2][e & 3]" : "sc[e]";
  const std::string it = index_type(spec);
  GlslWriter e;
  e.open("if (gm < M && gn < N)");
  e.line(std::string(value_type(t)) + " gemm_value = " + gemm_product_value(t, staged) + ";");
  e.line(it + " zrow = " + it + "(z) * " + it + "(M) + " + it + "(gm);");
  e.line(it + " i = zrow * " + it + "(N) + " + it + "(gn);");
  if (any_strided(spec) && spec.rank >= 2) {
    // The N-d index of i. The iteration space is the product's shape with adjacent dims
    // merged: when its last dim is N (the common case, e.g. a bias broadcast along rows),
    // the element's row and column give the last index and the rest without a division.
    const std::string last = "pc.dim" + std::to_string(spec.rank - 1);
    const std::string L = "i" + std::to_string(spec.rank - 1);
    e.line(it + " " + L + ", rest;");
    e.open("if (" + last + " == " + it + "(N))");
    e.line(L + " = " + it + "(gn);");
    e.line("rest = zrow;");
    e.close();
    e.open("else");
    e.line(L + " = i % " + last + ";");
    e.line("rest = i / " + last + ";");
    e.close();
    for (int d = spec.rank - 2; d >= 1; --d) {
      const std::string dim = "pc.dim" + std::to_string(d);
      e.line(it + " i" + std::to_string(d) + " = rest % " + dim + ";");
      e.line("rest /= " + dim + ";");
    }
    e.line(it + " i0 = rest;");
  } else {
    emit_nd_index(spec, e);
  }
  epilogue.emit(e);
  e.close();
  r += e.str();
  r += "      }\n"
       "    }\n";
  return r;
}

// The combining pass of a split-K product: each element (flat index e of the batch x M x N
// product) sums its S partial products (in0, S consecutive batch x M x N blocks) in order
// 0, 1, ..., S - 1 in the accumulator type, rounds the sum to the product's dtype, and stores
// it, or evaluates the epilogue (as gemm_body's) at flat index e.
std::string gemm_combine_body(const KernelSpec& spec, TapeEmitter* epilogue) {
  const DType t = spec.inputs[1].dtype;
  const std::string A = gemm_acc_type(t);
  VKA_ASSERT(std::string(storage_type(spec.inputs[0].dtype)) == A);
  std::string r = "layout(local_size_x = " + std::to_string(kGemmCombineGroup) + ") in;\n"
                  "void main() {\n"
                  "  int M = int(pc.c0.x), N = int(pc.c0.y), batch = int(pc.c1.y);\n"
                  "  int S = int(pc.c2.x);\n"
                  "  int total = batch * M * N, a0 = int(pc.off0);\n"
                  "  int grid = int(gl_NumWorkGroups.x) * " + std::to_string(kGemmCombineGroup) +
                  ";\n"
                  "  for (int e = int(gl_GlobalInvocationID.x); e < total; e += grid) {\n"
                  "    precise " + A + " acc = in0.v[a0 + e];\n"
                  "    for (int s = 1; s < S; ++s) {\n"
                  "      " + A + " p = in0.v[a0 + s * total + e];\n";
  r += is_bool(t) ? "      acc = acc | p;\n" : "      acc = acc + p;\n";
  r += "    }\n";
  if (!epilogue) {
    r += "    out0.v[int(pc.off2) + e] = " + std::string(storage_type(t)) + "(acc);\n";
  } else {
    const std::string it = index_type(spec);
    GlslWriter w;
    w.open("");
    w.line(std::string(value_type(t)) + " gemm_value = " + gemm_product_value(t, "acc") + ";");
    w.line(it + " i = " + it + "(e);");
    emit_nd_index(spec, w);
    epilogue->emit(w);
    w.close();
    r += w.str();
  }
  r += "  }\n"
       "}\n";
  return r;
}

DType gemm_accumulator(DType t) {
  switch (t) {
    case DType::kBool:
    case DType::kUInt8:
    case DType::kUInt16:
      return DType::kUInt32;
    case DType::kInt8:
    case DType::kInt16:
      return DType::kInt32;
    case DType::kFloat16:
      return DType::kFloat32;
    case DType::kInt32:
    case DType::kUInt32:
    case DType::kInt64:
    case DType::kUInt64:
    case DType::kFloat32:
    case DType::kFloat64:
    case DType::kComplex64:
    case DType::kComplex128:
      return t;
  }
  return t;
}

}  // namespace vka
