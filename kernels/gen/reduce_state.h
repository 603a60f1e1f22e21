// The state of a reduction kernel and its algebra, as GLSL text (kernels/gen/reduce.h writes the
// loops around it): the state's variables (rs, and rc for compensated sums, rx for arg
// reductions), the op's identity, how an element or another state joins it, and the result.
#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "kernels/glsl/math.h"
#include "kernels/glsl/writer.h"

namespace vka {

class ReduceState {
 public:
  ReduceState(const KernelSpec& spec, HelperSet* helpers);

  // GLSL types: the state's value (the accumulation dtype's value type) and its index (int,
  // or int64_t when indices may not fit 32 bits or come in as int64 partial states).
  const std::string& value_type() const { return vt_; }
  const std::string& index_type() const { return xt_; }
  bool compensated() const { return comp_; }
  bool arg() const { return arg_; }
  // A state value to and from the compute type (shared memory holds compute values).
  std::string to_compute(const std::string& v) const;
  std::string from_compute(const std::string& c) const;

  // Declares rs (= the identity), rc and rx.
  void declare(GlslWriter& w) const;
  // Folds value `e` with index `x` (arg reductions) into the state; `c`: the compensation of
  // a state being combined ("" for an element). `ordered`: x is larger than every index
  // folded so far (an invocation's own elements, visited in order).
  void add(GlslWriter& w, const std::string& e, const std::string& x, const std::string& c = "",
           bool ordered = false) const;
  // The state's value in the accumulation dtype: a compensated sum adds its error term,
  // unless the sum is infinite (then the term is NaN from inf - inf, and the sum is the
  // answer).
  std::string folded() const;
  // What the kernel writes for an output of dtype `out`: the value (mean divided by its
  // divisor, converted), or the index.
  std::string result(DType out) const;

 private:
  std::string identity() const;
  Op fold_op() const;
  std::string better(const std::string& a, const std::string& b) const;
  std::string same(const std::string& a, const std::string& b) const;

  const ReduceSpec& r_;
  HelperSet* h_;
  std::string vt_, xt_;
  bool comp_ = false, arg_ = false;
};

}  // namespace vka
