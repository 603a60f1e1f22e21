// numpy's distribution parameters: shapes, checks and conversions (array/random/params.h).
#include "array/random/params.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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
    case Cmp::kSignBit:
      return !std::isnan(v) && std::signbit(v);
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
    case Cmp::kSignBit:
      return is_floating(a.dtype()) ? logical_and(signbit(a), logical_not(isnan(a))) : a < Arg(0);
  }
  return isnan(a);
}

// A number as Python's repr writes it: the fewest digits that read back as `v`, positional
// for exponents from -4 to 15, else in scientific notation.
std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[40];
  int digits = 1;
  for (; digits < 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
  const int exp = std::atoi(std::strchr(buf, 'e') + 1);
  if (exp < -4 || exp >= 16) {
    std::string s = buf;  // d.ddde+XX: drop the mantissa's trailing zeros, as Python does
    const std::size_t e = s.find('e');
    std::string mant = s.substr(0, e);
    if (mant.find('.') != std::string::npos) {
      mant.erase(mant.find_last_not_of('0') + 1);
      if (mant.back() == '.') mant.pop_back();
    }
    return mant + s.substr(e);
  }
  std::snprintf(buf, sizeof buf, "%.*f", std::max(digits - 1 - exp, 1), v);
  return buf;
}

std::string format_param(const Param& p) {
  return p.is_int() ? std::to_string(p.int_value()) : format_number(p.value());
}

// Element `flat` (row-major) of `a` broadcast to `shape`, read from the device as text.
std::string element_at(const Array& a, const Shape& shape, int64_t flat) {
  const Array e = reshape(broadcast_to(a, shape), {vka::size(shape)})[{flat}];
  if (is_floating(a.dtype()))
    return format_number(e.astype(DType::kFloat64).to_vector<double>()[0]);
  if (is_bool(a.dtype())) return e.astype(DType::kUInt8).to_vector<uint8_t>()[0] ? "True" : "False";
  if (a.dtype() == DType::kUInt64) return std::to_string(e.to_vector<uint64_t>()[0]);
  return std::to_string(e.astype(DType::kInt64).to_vector<int64_t>()[0]);
}

// The first word of a check's message: the parameter it tests.
std::string subject(const std::string& message) { return message.substr(0, message.find(' ')); }

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
  std::vector<Operand> operands = {{subject(message), p}};
  if (!p.is_array()) {
    bool any_bad = false;
    for (const Bad& b : bad) any_bad = any_bad || host_bad(p.value(), b);
    return fail_if(any_bad, std::move(message), std::move(operands));
  }
  any_array_ = true;
  std::optional<Array> cond;
  for (const Bad& b : bad) {
    if (b.cmp == Cmp::kNaN && !is_floating(p.array().dtype())) continue;
    Array c = device_bad(p.array(), b);
    cond = cond ? logical_or(*cond, c) : c;
  }
  if (!cond) return fail_if(false, std::move(message));
  fail_if(*cond, std::move(message), std::move(operands));
  checks_.back().indexed_name = true;
  return *this;
}

Checks& Checks::fail_if(bool bad, std::string message, std::vector<Operand> operands) {
  checks_.push_back(
      Check{std::nullopt, std::nullopt, bad, std::move(message), std::move(operands)});
  return *this;
}

Checks& Checks::fail_if(const Array& bad, std::string message, std::vector<Operand> operands) {
  std::optional<Array> found = bad.size() > 0 ? std::optional<Array>(any(bad)) : std::nullopt;
  checks_.push_back(Check{found, bad, false, std::move(message), std::move(operands)});
  return *this;
}

std::string Checks::values(const Check& c) const {
  if (c.operands.empty()) return "";
  std::string where, text;
  int64_t flat = 0;
  if (c.device) {
    // The first failing element: the error path's one more readback.
    flat =
        argmax(reshape(*c.where, {c.where->size()})).astype(DType::kInt64).to_vector<int64_t>()[0];
    const Shape& shape = c.where->shape();
    std::vector<int64_t> index(shape.size());
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1, rest = flat; d >= 0; --d) {
      index[d] = rest % shape[d];
      rest /= shape[d];
    }
    for (std::size_t d = 0; d < index.size(); ++d) {
      where += (d ? ", " : "") + std::to_string(index[d]);
    }
  }
  for (const Operand& o : c.operands) {
    if (o.second.is_array() && !c.where) continue;
    std::string value = o.second.is_array() ? element_at(o.second.array(), c.where->shape(), flat)
                                            : format_param(o.second);
    text += (text.empty() ? "" : ", ") + o.first;
    if (c.indexed_name && !where.empty()) text += "[" + where + "]";
    text += " = " + value;
  }
  if (c.device && !c.indexed_name && !where.empty())
    return " (at index (" + where + "): " + text + ")";
  return " (" + text + ")";
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
    if (bad) throw ShapeError("[" + op_ + "] " + c.message + values(c));
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
