// The op table's emission columns (ir/ops.def: real, complex) agree with the rows' kinds and
// dtypes, and every kMath row is a function of the math library: what lets a new row need no
// case in kernels/glsl/ops.cc or complex.cc (docs/DESIGN.md, "Adding an elementwise op").
#include <gtest/gtest.h>

#include <string>

#include "ir/ops.h"
#include "kernels/glsl/math.h"
#include "kernels/glsl/ops.h"

namespace vka {
namespace {

std::vector<Op> all_ops() {
  std::vector<Op> ops;
  for (int i = 0; i < kNumOps; ++i) ops.push_back(static_cast<Op>(i));
  return ops;
}

TEST(OpForms, ElementwiseRowsAndOnlyThemHaveARealForm) {
  for (Op op : all_ops()) {
    const bool expression = is_elementwise(op) && op != Op::kAstype;
    EXPECT_EQ(info(op).real != EmitForm::kNone, expression) << name(op);
    if (!expression) {
      EXPECT_EQ(info(op).complex, EmitForm::kNone) << name(op);
    }
  }
}

TEST(OpForms, AComplexFormExactlyWhereComplexIsImplemented) {
  for (Op op : all_ops()) {
    if (!is_elementwise(op) || op == Op::kAstype) continue;
    const bool complex = std::string(info(op).kinds).find('c') != std::string::npos;
    EXPECT_EQ(info(op).complex == EmitForm::kCustom, complex) << name(op);
    EXPECT_NE(info(op).complex, EmitForm::kTemplate) << name(op) << ": templates are real";
    EXPECT_NE(info(op).complex, EmitForm::kMath) << name(op) << ": the math library is real";
  }
}

TEST(OpForms, TemplateRowsHaveATemplateOfTheirOperands) {
  for (Op op : all_ops()) {
    if (info(op).real != EmitForm::kTemplate) continue;
    const std::string glsl(info(op).glsl);
    for (int k = 0; k < arity(op); ++k) {
      EXPECT_NE(glsl.find("{" + std::to_string(k) + "}"), std::string::npos) << name(op);
    }
  }
}

TEST(OpForms, MathRowsAreMathLibraryFunctionsOfTheirName) {
  int rows = 0;
  for (Op op : all_ops()) {
    if (info(op).real != EmitForm::kMath) continue;
    ++rows;
    for (DType t : {DType::kFloat32, DType::kFloat64}) {
      HelperSet h;
      const std::string fn = math_function(name(op), t, &h);
      EXPECT_EQ(fn, "vka_" + std::string(name(op)) + (t == DType::kFloat64 ? "_f64" : "_f32"));
      const std::vector<std::string> args(static_cast<std::size_t>(arity(op)), "x");
      EXPECT_EQ(emit_op(op, t, args, &h).rfind(fn + "(", 0), 0u) << name(op);
    }
  }
  EXPECT_GT(rows, 20);  // exp, log, the trigonometric and hyperbolic functions, hypot, ...
}

}  // namespace
}  // namespace vka
