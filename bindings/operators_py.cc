// The Python operators of vkarray.ndarray: binary, reflected, in-place and unary forms.
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "array/array.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"

namespace vka {
namespace {

py::object not_implemented() { return py::reinterpret_borrow<py::object>(Py_NotImplemented); }

// x <op> y (reflected: y <op> x), or NotImplemented when the other operand is not one vkarray
// takes, so Python tries the other side and then raises its usual TypeError.
// The operands of most operator calls (ndarrays, exact Python ints in int64 and floats)
// without the general conversion, which also weighs numpy scalars and arrays; nullopt for
// anything else.
std::optional<Array> common_binary(Op op, py::handle self, py::handle other, bool reflected) {
  if (!is_array(self)) return std::nullopt;
  const Array& a = array_in(self);
  PyObject* o = other.ptr();
  if (is_array(other)) {
    const Array& b = array_in(other);
    return reflected ? vka::apply(op, {b, a}) : vka::apply(op, {a, b});
  }
  Arg scalar(0.0);
  if (PyFloat_CheckExact(o)) {
    scalar = Arg(PyFloat_AS_DOUBLE(o));
  } else if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0) return std::nullopt;
    scalar = Arg(static_cast<int64_t>(v));
  } else {
    return std::nullopt;
  }
  return reflected ? vka::apply(op, {scalar, a}) : vka::apply(op, {a, scalar});
}

py::object binary(Op op, py::handle self, py::handle other, bool reflected) {
  if (std::optional<Array> r = common_binary(op, self, other, reflected)) {
    return py::cast(std::move(*r));
  }
  std::vector<py::handle> values =
      reflected ? std::vector<py::handle>{other, self} : std::vector<py::handle>{self, other};
  std::optional<std::vector<PyOperand>> operands = to_operands(values, Accept::kOperator, name(op));
  if (!operands) return not_implemented();
  return py::cast(call_op(op, *operands));
}

// x <op>= y: the result replaces x's value in place (every name bound to x sees it), under
// numpy's rules: the broadcast result must have x's shape and cast to x's dtype under
// same_kind; otherwise an error and x is unchanged.
py::object inplace(Op op, py::handle self, py::handle other) {
  std::optional<std::vector<PyOperand>> operands =
      to_operands({self, other}, Accept::kOperator, name(op));
  if (!operands) return not_implemented();
  Array result = call_op(op, *operands);
  store_into(self.cast<Array&>(), std::move(result), op);
  return py::reinterpret_borrow<py::object>(self);
}

struct BinaryDunder {
  const char* name;
  const char* reflected;  // nullptr: comparisons, which Python reflects by swapping the op
  const char* inplace;
  Op op;
};

constexpr BinaryDunder kBinary[] = {
    {"__add__", "__radd__", "__iadd__", Op::kAdd},
    {"__sub__", "__rsub__", "__isub__", Op::kSubtract},
    {"__mul__", "__rmul__", "__imul__", Op::kMultiply},
    {"__truediv__", "__rtruediv__", "__itruediv__", Op::kDivide},
    {"__floordiv__", "__rfloordiv__", "__ifloordiv__", Op::kFloorDivide},
    {"__mod__", "__rmod__", "__imod__", Op::kRemainder},
    {"__and__", "__rand__", "__iand__", Op::kBitwiseAnd},
    {"__or__", "__ror__", "__ior__", Op::kBitwiseOr},
    {"__xor__", "__rxor__", "__ixor__", Op::kBitwiseXor},
    {"__lshift__", "__rlshift__", "__ilshift__", Op::kLeftShift},
    {"__rshift__", "__rrshift__", "__irshift__", Op::kRightShift},
    {"__eq__", nullptr, nullptr, Op::kEqual},
    {"__ne__", nullptr, nullptr, Op::kNotEqual},
    {"__lt__", nullptr, nullptr, Op::kLess},
    {"__le__", nullptr, nullptr, Op::kLessEqual},
    {"__gt__", nullptr, nullptr, Op::kGreater},
    {"__ge__", nullptr, nullptr, Op::kGreaterEqual},
};

struct UnaryDunder {
  const char* name;
  Op op;
};

constexpr UnaryDunder kUnary[] = {
    {"__neg__", Op::kNegative},
    {"__pos__", Op::kPositive},
    {"__abs__", Op::kAbs},
    {"__invert__", Op::kBitwiseNot},
};

}  // namespace

void register_ndarray_operators(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  for (const BinaryDunder& d : kBinary) {
    const Op op = d.op;
    cls.def(d.name,
            [op](py::object self, py::object other) { return binary(op, self, other, false); });
    if (d.reflected) {
      cls.def(d.reflected,
              [op](py::object self, py::object other) { return binary(op, self, other, true); });
    }
    if (d.inplace) {
      cls.def(d.inplace,
              [op](py::object self, py::object other) { return inplace(op, self, other); });
    }
  }
  // ** takes an optional modulus (pow(x, y, m)), which vkarray, like numpy, does not support.
  cls.def(
      "__pow__",
      [](py::object self, py::object other, py::object mod) {
        if (!mod.is_none()) return not_implemented();
        return binary(Op::kPower, self, other, false);
      },
      py::arg("other"), py::arg("mod") = py::none());
  cls.def(
      "__rpow__",
      [](py::object self, py::object other, py::object mod) {
        if (!mod.is_none()) return not_implemented();
        return binary(Op::kPower, self, other, true);
      },
      py::arg("other"), py::arg("mod") = py::none());
  cls.def("__ipow__",
          [](py::object self, py::object other) { return inplace(Op::kPower, self, other); });
  // divmod(x, y) as numpy: (x // y, x % y), one expression, so one kernel when evaluated together.
  cls.def("__divmod__", [](py::object self, py::object other) -> py::object {
    py::object q = binary(Op::kFloorDivide, self, other, false);
    if (q.is(not_implemented())) return q;
    return py::make_tuple(q, binary(Op::kRemainder, self, other, false));
  });
  cls.def("__rdivmod__", [](py::object self, py::object other) -> py::object {
    py::object q = binary(Op::kFloorDivide, self, other, true);
    if (q.is(not_implemented())) return q;
    return py::make_tuple(q, binary(Op::kRemainder, self, other, true));
  });
  for (const UnaryDunder& d : kUnary) {
    const Op op = d.op;
    cls.def(d.name, [op](const Array& x) { return vka::apply(op, {x}); });
  }
  // Arrays compare elementwise, so they cannot be dict keys (numpy's ndarray is unhashable).
  cls.attr("__hash__") = py::none();
}

}  // namespace vka
