// numpy's distribution parameters: shapes, checks and conversions (array/random/params.h).
#include "array/random/params.h"

#include <cmath>

#include "array/reduce.h"
#include "array/views.h"
#include "base/errors.h"

namespace vka::random::detail {
namespace {

bool host_bad(double v, const Bad& b) {
  switch (b.cmp) {
    case Cmp::kLess:
      return v < b.bound;
    case Cmp::kLessEqual:
      return v <= b.bound;
    case Cmp::kGreater:
      return v > b.bound;
    case Cmp::kGreaterEqual:
      return v >= b.bound;
    case Cmp::kNaN:
      return std::isnan(v);
  }
  return false;
}

Array device_bad(const Array& a, const Bad& b) {
  switch (b.cmp) {
    case Cmp::kLess:
      return a < Arg(b.bound);
    case Cmp::kLessEqual:
      return a <= Arg(b.bound);
    case Cmp::kGreater:
      return a > Arg(b.bound);
    case Cmp::kGreaterEqual:
      return a >= Arg(b.bound);
    case Cmp::kNaN:
      return isnan(a);
  }
  return isnan(a);
}

}  // namespace

Shape draw_shape(const std::string& op, const std::optional<Shape>& size,
                 const std::vector<const Param*>& params) {
  for (int64_t d : size.value_or(Shape{})) {
    if (d < 0) throw ShapeError("[" + op + "] negative dimensions are not allowed");
  }
  if (!size) {
    Shape shape;
    for (const Param* p : params) shape = broadcast_shapes(op, shape, p->shape());
    return shape;
  }
  for (std::size_t k = 0; k < params.size(); ++k) {
    const Shape s = params[k]->shape();
    bool fits = s.size() <= size->size();
    for (std::size_t d = 0; fits && d < s.size(); ++d) {
      const int64_t want = (*size)[size->size() - s.size() + d];
      fits = s[d] == want || s[d] == 1;
    }
    if (!fits) {
      throw ShapeError("[" + op +
                       "] shape mismatch: objects cannot be broadcast to a single "
                       "shape.  Mismatch is between arg 0 with shape " +
                       to_string(*size) + " and arg " + std::to_string(k + 1) + " with shape " +
                       to_string(s) + ".");
    }
  }
  return *size;
}

Checks& Checks::fail_if(const Param& p, std::initializer_list<Bad> bad, std::string message) {
  if (!p.is_array()) {
    bool any_bad = false;
    for (const Bad& b : bad) any_bad = any_bad || host_bad(p.value(), b);
    return fail_if(any_bad, std::move(message));
  }
  any_array_ = true;
  std::optional<Array> cond;
  for (const Bad& b : bad) {
    if (b.cmp == Cmp::kNaN && !is_floating(p.array().dtype())) continue;
    Array c = device_bad(p.array(), b);
    cond = cond ? logical_or(*cond, c) : c;
  }
  if (!cond) return fail_if(false, std::move(message));
  return fail_if(*cond, std::move(message));
}

Checks& Checks::fail_if(bool bad, std::string message) {
  checks_.push_back(Check{std::nullopt, bad, std::move(message)});
  return *this;
}

Checks& Checks::fail_if(const Array& bad, std::string message) {
  checks_.push_back(Check{bad.size() > 0 ? std::optional<Array>(any(bad)) : std::nullopt, false,
                          std::move(message)});
  return *this;
}

void Checks::run() {
  // numpy checks a call with any array parameter as arrays, and words their NaN checks so.
  const std::string is_nan = " is NaN";
  for (Check& c : checks_) {
    std::string& m = c.message;
    if (any_array_ && m.size() >= is_nan.size() &&
        m.compare(m.size() - is_nan.size(), is_nan.size(), is_nan) == 0) {
      m.replace(m.size() - is_nan.size(), is_nan.size(), " contains NaNs");
    }
  }
  std::vector<Array*> pending;
  for (Check& c : checks_) {
    if (c.device) pending.push_back(&*c.device);
  }
  if (!pending.empty()) eval(static_cast<const std::vector<Array*>&>(pending));
  for (Check& c : checks_) {
    const bool bad =
        c.device ? c.device->astype(DType::kUInt8).to_vector<uint8_t>()[0] != 0 : c.host;
    if (bad) throw ShapeError("[" + op_ + "] " + c.message);
  }
}

Param as_float(const Param& p) {
  if (!p.is_array() || p.array().dtype() == DType::kFloat64) return p;
  return Param(p.array().astype(DType::kFloat64));
}

Param as_int(const std::string& op, const Param& p) {
  if (!p.is_array()) return Param(p.int_value());
  const DType t = p.array().dtype();
  if (t == DType::kInt64) return p;
  if (!(is_bool(t) || is_signed_integer(t) || (is_integer(t) && itemsize(t) < 8))) {
    throw DTypeError("[" + op + "] Cannot cast array data from dtype('" + std::string(name(t)) +
                     "') to dtype('int64') according to the rule 'safe'");
  }
  return Param(p.array().astype(DType::kInt64));
}

Array as_array(const Param& p, const Shape& shape, DType dtype,
               const std::shared_ptr<Context>& context) {
  if (p.is_array()) return broadcast_to(p.array().astype(dtype), shape);
  const Scalar v = is_floating(dtype) ? Scalar::of_double(p.value(), dtype)
                                      : Scalar::of_int(p.int_value(), dtype);
  return full(shape, v, context);
}

}  // namespace vka::random::detail
