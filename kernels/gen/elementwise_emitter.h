// The elementwise emitter's class (kernels/gen/elementwise.cc: declarations and one element;
// elementwise_loops.cc: the unrolled, vector and row-vector loops). Internal to kernels/gen.
#pragma once

#include <algorithm>
#include <set>
#include <string>

#include "base/errors.h"
#include "ir/kernel_spec.h"
#include "kernels/gen/elementwise.h"
#include "kernels/gen/reduce.h"
#include "kernels/glsl/math.h"
#include "kernels/glsl/writer.h"

namespace vka {
namespace elementwise_internal {

inline std::string v(int i) { return "v" + std::to_string(i); }

// Which optional GLSL features the shader uses.
struct Features {
  bool int8 = false, int16 = false, int64 = false, f16 = false;
  void note(DType t) {
    int8 = int8 || itemsize(t) == 1;
    int16 = int16 || t == DType::kInt16 || t == DType::kUInt16;
    int64 = int64 || t == DType::kInt64 || t == DType::kUInt64;
    f16 = f16 || t == DType::kFloat16;
  }
};

class Emitter {
 public:
  Emitter(const KernelSpec& spec, const EmitOptions& opt) : s_(spec), opt_(opt) {
    h_.float64 = opt.float64;
  }

  std::string run();

 private:
  // kScalar: one element; kLane: lane lane_ of a 4-vector; kTail: the vector loop's scalar
  // tail; kUnrolled: copy lane_ of flat_unroll()'s independent elements, results kept in
  // o{j}[lane_] (store index x{j}[lane_]) and stored after every copy has run.
  enum class Mode { kScalar, kLane, kTail, kUnrolled };

  // The tape for a reduction's element (kernels/gen/reduce.h), or with `stores` a GEMM
  // epilogue's element: the tape, then the outputs' stores (kernels/gen/gemm.h).
  class Tape : public TapeEmitter {
   public:
    explicit Tape(Emitter& e, bool stores = false) : e_(e), stores_(stores) {}
    void emit(GlslWriter& w, int lane) override {
      if (stores_) {
        VKA_ASSERT(lane < 0);
        e_.emit_element(w);
        return;
      }
      e_.mode_ = lane >= 0 ? Mode::kLane : Mode::kScalar;
      e_.lane_ = std::max(lane, 0);
      for (std::size_t i = 0; i < e_.s_.tape.size(); ++i) e_.emit_entry(static_cast<int>(i), w);
      e_.mode_ = Mode::kScalar;
    }

   private:
    Emitter& e_;
    bool stores_;
  };

  void emit_main(GlslWriter& body);

  // The operands' buffers. Input accessor a is read as in{a} and output j written as out{j};
  // accessors that share a binding (views of one storage) name one buffer, declared once per
  // binding. With Addressing::kBindings each binding is a storage-buffer descriptor; with
  // kAddresses a buffer reference made from the binding's address in the argument block
  // (a cast: it costs nothing).
  void emit_operand_buffers(GlslWriter& w) const;

  // The element type in a storage buffer, or its 4-vector in the vectorized variant.
  std::string declared_type(DType t) const;

  // Buffer element `index` of binding `prefix` (in0, out1, ...), as an lvalue.
  std::string element(const std::string& prefix, const std::string& index) const;

  // One element: every tape entry, then every output. In kLane mode loads come from the
  // vectors loaded before the lanes and results go to the o<j>[] arrays.
  void emit_element(GlslWriter& body);

  // Flat strided kernels (kernels/glsl/indexing.h: flat_unroll): each invocation computes U
  // elements a grid apart as independent straight-line copies of the tape (their indices
  // clamped into range, so no branch separates them), then stores those in range. The copies'
  // dependency chains interleave, which hides arithmetic latency where one chain would stall.
  void emit_unrolled_loop(GlslWriter& body);

  // vector_width 4: a grid-stride loop over 4-element groups (whole-vector loads and stores,
  // the tape once per lane), then a grid-stride loop over the n % 4 tail.
  void emit_vector_loops(GlslWriter& body);

  // Row mode with vectors (kernels/glsl/indexing.h): per row, a scalar head up to out0's alignment,
  // vectors of 4 adjacent columns, a scalar tail.
  void emit_row_vector_loops(GlslWriter& body);

  // SPIR-V DenormPreserve (execution mode 4459, capability 4464) for each float width the
  // kernel computes in and the options allow.
  void emit_float_controls(GlslWriter& w);

  bool uses_double() const;

  // `e` (an add or subtract of float32 or float64 values) as one fma() of a product it adds,
  // where the spec opts in (KernelSpec::fma): p * q + y, p * q - y, x + p * q, x - p * q;
  // "" otherwise.
  std::string fused_multiply_add(const TapeEntry& e) const;

  void emit_entry(int i, GlslWriter& w);

  const KernelSpec& s_;
  EmitOptions opt_;
  Mode mode_ = Mode::kScalar;
  bool row_vectors_ = false;  // lanes read the shifted row vectors l<a> of strided inputs
  int lane_ = 0;
  std::set<int> random_quads_;  // tape entries whose lanes read rq<entry>[] (kLane mode)
  HelperSet h_;
  Features f_;
};

}  // namespace elementwise_internal
}  // namespace vka
