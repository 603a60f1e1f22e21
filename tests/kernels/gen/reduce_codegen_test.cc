// Every reduction kernel variant compiles to SPIR-V (no device): each reduction op × each
// dtype it takes × both strategies × single, partial and combining passes, contiguous and
// strided, 32- and 64-bit indices, scalar and 4-vector loads.
#include <gtest/gtest.h>

#include "ir/kernel_spec.h"
#include "ir/ops.h"
#include "kernels/gen/elementwise.h"
#include "kernels/gen/reduce.h"
#include "tests/kernels/shader_compiler.h"

namespace vka {
namespace {

// A reduction of one input of dtype `acc` over a rank-2 space (1 kept, 1 reduced).
KernelSpec spec_for(Op op, DType acc, ReduceStrategy st, bool partial, bool combine, Layout layout,
                    bool index64) {
  KernelSpec s;
  s.kind = KernelKind::kReduce;
  s.rank = 2;
  s.index64 = index64;
  s.inputs = {Accessor{acc, layout}};
  const bool arg = is_arg_reduction(op);
  if (combine && arg) s.inputs.push_back(Accessor{DType::kInt64, layout});
  TapeEntry load{Op::kBuffer, acc};
  load.accessor = 0;
  s.tape = {load};
  DType out = arg ? DType::kInt64 : op == Op::kAny || op == Op::kAll ? DType::kBool : acc;
  if (op == Op::kSum && acc == DType::kFloat32) out = DType::kFloat16;  // float16 results
  if (partial) {
    s.outputs = {Accessor{acc, Layout::kContiguous}};
    s.results = {0};
    if (arg) {
      s.outputs.push_back(Accessor{DType::kInt64, Layout::kContiguous});
      s.results.push_back(0);
    }
  } else {
    s.outputs = {Accessor{out, Layout::kContiguous}};
    s.results = {0};
  }
  s.reduce = ReduceSpec{op, acc, 1, st, partial, combine, -1};
  if (op == Op::kMean) {
    s.slots = {real_dtype(acc)};
    s.reduce.divisor_slot = 0;
  }
  return s;
}

TEST(ReduceCodegen, EveryVariantCompiles) {
  int compiled = 0;
  for (int o = 0; o < kNumOps; ++o) {
    const Op op = static_cast<Op>(o);
    if (kind(op) != OpKind::kReduce) continue;
    for (int d = 0; d < kNumDTypes; ++d) {
      const DType t = static_cast<DType>(d);
      if (!accepts(op, t)) continue;
      for (ReduceStrategy st : {ReduceStrategy::kSerial, ReduceStrategy::kCooperative}) {
        for (int pass = 0; pass < 3; ++pass) {
          const bool partial = pass == 1, combine = pass == 2;
          const bool wide = t == DType::kFloat32 || t == DType::kInt64;
          for (Layout layout : {Layout::kContiguous, Layout::kStrided}) {
            if (layout == Layout::kStrided && !wide) continue;
            for (bool index64 : {false, true}) {
              if (index64 && !(wide && layout == Layout::kStrided)) continue;
              KernelSpec s = spec_for(op, t, st, partial, combine, layout, index64);
              std::string glsl = emit_elementwise(s);
              EXPECT_EQ(compile_error(glsl, s.name()), "") << s.to_string();
              ++compiled;
              // 4-vector loads: cooperative first passes over contiguous inputs.
              if (st == ReduceStrategy::kCooperative && !combine && layout == Layout::kContiguous &&
                  !is_complex(t)) {
                s.vector_width = 4;
                EXPECT_EQ(compile_error(emit_elementwise(s), s.name()), "") << s.to_string();
                ++compiled;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compiled, 400);
}

TEST(ReduceCodegen, FloatingSumsAreCompensatedAndPrecise) {
  KernelSpec s = spec_for(Op::kSum, DType::kFloat32, ReduceStrategy::kCooperative, false, false,
                          Layout::kContiguous, false);
  std::string glsl = emit_elementwise(s);
  EXPECT_NE(glsl.find("precise float rc"), std::string::npos) << glsl;
  EXPECT_NE(glsl.find("shared float sh_c"), std::string::npos) << glsl;
  KernelSpec i = spec_for(Op::kSum, DType::kInt64, ReduceStrategy::kSerial, false, false,
                          Layout::kContiguous, false);
  EXPECT_EQ(emit_elementwise(i).find(" rc "), std::string::npos);
  EXPECT_TRUE(is_compensated(s.reduce));
  EXPECT_FALSE(is_compensated(i.reduce));
}

TEST(ReduceCodegen, NamesSayTheStrategyAndThePass) {
  EXPECT_EQ(spec_for(Op::kSum, DType::kFloat32, ReduceStrategy::kCooperative, true, false,
                     Layout::kContiguous, false)
                .name(),
            "red_sum_f32_coop_partial_1in_contig");
  EXPECT_EQ(spec_for(Op::kArgmax, DType::kFloat64, ReduceStrategy::kSerial, false, true,
                     Layout::kStrided, false)
                .name(),
            "red_argmax_f64_serial_combine_2in_strided");
}

}  // namespace
}  // namespace vka
