// Internal to array/random/: numpy's handling of distribution parameters (array/random/random.h,
// Param): the result shape, the argument checks and their errors, and parameter dtypes.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "array/random/random.h"

namespace vka::random::detail {

// numpy's result shape: `size`, which every parameter must broadcast to ("shape mismatch"
// otherwise), or, without one, the parameters' broadcast shape.
Shape draw_shape(const std::string& op, const std::optional<Shape>& size,
                 const std::vector<const Param*>& params);

// One way a parameter value is invalid: a comparison with `bound`, NaN, or numpy's test of
// non-negative parameters, a set sign bit (-0.0 fails, NaN passes).
enum class Cmp { kLess, kLessEqual, kGreater, kGreaterEqual, kNaN, kSignBit };
struct Bad {
  Cmp cmp;
  double bound = 0;
};

// numpy's argument checks of one call, raised as numpy does: the first that fails, in the order
// given, as ValueError "[op] message (values)", numpy's message followed by the values that
// broke it. Numbers are checked on the host, arrays on the device: one readback for all of a
// call's array checks, and, only when one fails, one more to find its first offending element.
class Checks {
 public:
  // A value to print with a failed check: a parameter's name and its number or array.
  using Operand = std::pair<std::string, Param>;

  explicit Checks(std::string op) : op_(std::move(op)) {}
  // Fails when any of `bad` holds for the number or for some element of the array. The message
  // begins with the parameter's name, as each of numpy's does ("lam < 0 or lam is NaN"), which
  // names the value printed. When a call has an array parameter, a message ending "x is NaN"
  // reads "x contains NaNs", as numpy's.
  Checks& fail_if(const Param& p, std::initializer_list<Bad> bad, std::string message);
  // Fails when `bad` (a test of numbers) holds; prints the operands.
  Checks& fail_if(bool bad, std::string message, std::vector<Operand> operands = {});
  // Fails when some element of `bad` (bool) is true; prints the operands (which broadcast to
  // `bad`) at the first such element.
  Checks& fail_if(const Array& bad, std::string message, std::vector<Operand> operands = {});
  void run();

 private:
  struct Check {
    std::optional<Array> device;  // any(where)
    std::optional<Array> where;   // the failing elements
    bool host = false;
    std::string message;
    std::vector<Operand> operands;
    bool indexed_name = false;  // print one array operand as name[i, j] = v
  };
  std::string values(const Check& c) const;

  std::string op_;
  std::vector<Check> checks_;
  bool any_array_ = false;
};

// A float parameter as numpy converts it: arrays as float64.
Param as_float(const Param& p);
// An integer parameter as numpy converts it: numbers truncated toward zero; arrays of bool or
// of integers that fit int64 as int64, others TypeError (numpy casts them under 'safe').
Param as_int(const std::string& op, const Param& p);
// p as an array of `shape` and `dtype` (numbers as constants: no transfer).
Array as_array(const Param& p, const Shape& shape, DType dtype,
               const std::shared_ptr<Context>& context);

}  // namespace vka::random::detail
