// Indexing and views of vkarray.ndarray: __getitem__, __setitem__, the view methods and
// properties (.T, .mT, reshape, transpose, ...) and the module-level view functions.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "bindings/convert.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"
#include "device/errors.h"

namespace vka {
namespace {

constexpr const char* kBadIndex =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices";

bool is_bool_scalar(py::handle h) {
  return py::isinstance<py::bool_>(h) || py::isinstance(h, py::module_::import("numpy").attr("bool_"));
}

bool is_integer(py::handle h) {
  if (is_bool_scalar(h)) return false;
  if (py::isinstance<py::int_>(h)) return true;
  return py::isinstance(h, py::module_::import("numpy").attr("integer"));
}

std::optional<int64_t> slice_bound(py::handle h) {
  if (h.is_none()) return std::nullopt;
  if (!py::hasattr(h, "__index__") || is_bool_scalar(h)) {
    if (!py::hasattr(h, "__index__")) {
      throw py::type_error("slice indices must be integers or None or have an __index__ method");
    }
  }
  py::object i = h.attr("__index__")();
  return i.cast<int64_t>();
}

IndexItem to_item(py::handle h) {
  if (h.is_none()) return NewAxis{};
  if (h.is(py::ellipsis())) return Ellipsis{};
  if (py::isinstance<py::slice>(h)) {
    SliceSpec s;
    s.start = slice_bound(h.attr("start"));
    s.stop = slice_bound(h.attr("stop"));
    std::optional<int64_t> step = slice_bound(h.attr("step"));
    s.step = step.value_or(1);
    if (s.step == 0) throw ShapeError("[index] slice step cannot be zero");
    return s;
  }
  if (is_integer(h)) {
    py::object i = h.attr("__index__")();
    try {
      return i.cast<int64_t>();
    } catch (const py::cast_error&) {
      throw IndexError("[index] index " + std::string(py::str(i)) + " is out of bounds");
    }
  }
  throw IndexError(std::string("[index] ") + kBadIndex);
}

// True when `obj` is an ndarray that nothing but this call can reach: a temporary of the
// statement (`x[k] = y * 2`, `x[x < 0] = 0`). Its value may then be moved into the write, so
// that a value reading the elements it writes stays one kernel (write.h). CPython 3.11 passes
// a temporary to __setitem__ with two references (the evaluation stack's and the call's); a
// name, a container or another frame adds more. Other Python versions are not assumed.
bool is_temporary(py::handle obj) {
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
  return py::isinstance<Array>(obj) && Py_REFCNT(obj.ptr()) == 2 &&
         obj.cast<const Array&>().is_only_handle();
#else
  (void)obj;
  return false;
#endif
}

// The array of `obj`, taking its node when it is a temporary (see is_temporary).
Array take_or_share(py::handle obj) {
  if (is_temporary(obj)) {
    Array& a = obj.cast<Array&>();
    return Array(a.release(), a.context());
  }
  return obj.cast<Array>();
}

bool is_array_index(py::handle h) {
  return py::isinstance<Array>(h) || py::isinstance<py::list>(h) || py::isinstance<py::array>(h) ||
         is_bool_scalar(h);
}

std::vector<py::handle> key_items(py::handle key) {
  std::vector<py::handle> items;
  if (py::isinstance<py::tuple>(key)) {
    for (py::handle h : py::reinterpret_borrow<py::tuple>(key)) items.push_back(h);
  } else {
    items.push_back(key);
  }
  return items;
}

bool is_bool_array(py::handle h) {
  if (is_bool_scalar(h)) return true;
  if (py::isinstance<Array>(h)) return h.cast<const Array&>().dtype() == DType::kBool;
  py::object a = py::module_::import("numpy").attr("asarray")(h);
  return a.attr("dtype").attr("kind").cast<std::string>() == "b";
}

// numpy's advanced indexing, split into a basic view and index arrays: every array item (and,
// once there is one, every integer) is replaced by ':' in the basic index and gathered along
// the axis that ':' keeps.
struct Advanced {
  Index basic;
  std::vector<py::object> arrays;  // index values (integer arrays or ints), in order
  std::vector<int64_t> axes;       // their axes in the basic view
  bool adjacent = true;            // consecutive in the index tuple
  int64_t at = 0;                  // where the index axes go among the others (numpy's rule)
};

std::optional<Advanced> split_advanced(py::handle key, int ndim) {
  std::vector<py::handle> items = key_items(key);
  bool any = false;
  for (py::handle h : items) any = any || is_array_index(h);
  if (!any) return std::nullopt;
  Advanced adv;
  std::vector<bool> gathered;  // per basic item: an index array's axis
  std::vector<bool> advanced;  // per basic item: counts as advanced for placement (ints too)
  int named = 0, last = -1;
  for (size_t p = 0; p < items.size(); ++p) {
    py::handle h = items[p];
    const bool is_adv = is_array_index(h) || is_integer(h);
    if (is_adv) {
      if (last >= 0 && static_cast<int>(p) != last + 1) adv.adjacent = false;
      last = static_cast<int>(p);
    }
    if (is_array_index(h) && is_bool_array(h)) {
      // A k-d boolean array stands for its k nonzero() index arrays, on k axes.
      if (is_bool_scalar(h)) {
        throw IndexError("[index] boolean scalar indices (x[True]) are not supported");
      }
      Array mask = py::isinstance<Array>(h)
                       ? h.cast<Array>()
                       : upload(h, DType::kBool, context_or_default(nullptr), "index");
      for (const Array& i : nonzero(mask)) {
        adv.arrays.push_back(py::cast(i));
        adv.basic.push_back(SliceSpec{});
        gathered.push_back(true);
        advanced.push_back(true);
        ++named;
      }
      continue;
    }
    if (is_array_index(h)) {
      adv.arrays.push_back(py::reinterpret_borrow<py::object>(h));
      adv.basic.push_back(SliceSpec{});
      gathered.push_back(true);
    } else {
      // Integers stay basic (they remove their axis) but count for placement, as numpy
      // treats them as 0-d index arrays once an array index is present.
      adv.basic.push_back(to_item(h));
      gathered.push_back(false);
    }
    advanced.push_back(is_adv);
    const IndexItem& it = adv.basic.back();
    if (std::holds_alternative<int64_t>(it) || std::holds_alternative<SliceSpec>(it)) ++named;
  }
  int axis = 0;
  adv.at = -1;
  for (size_t p = 0; p < adv.basic.size(); ++p) {
    const IndexItem& it = adv.basic[p];
    if (advanced[p] && adv.at < 0) adv.at = axis;
    if (gathered[p]) adv.axes.push_back(axis);
    if (std::holds_alternative<Ellipsis>(it)) {
      axis += std::max(0, ndim - named);
    } else if (!std::holds_alternative<int64_t>(it)) {
      ++axis;
    }
  }
  if (!adv.adjacent) adv.at = 0;
  return adv;
}

// One index value as a device integer array, bounds-checked on the host when it comes from
// the host (numpy's message names the value). `*checked` stays true only for host values.
Array index_array(py::handle h, int64_t n, int64_t axis, const std::shared_ptr<Context>& ctx,
                  bool* checked) {
  if (py::isinstance<Array>(h)) {
    *checked = false;
    return h.cast<Array>();
  }
  py::module_ np = py::module_::import("numpy");
  py::object a = np.attr("asarray")(h);
  std::string kind = a.attr("dtype").attr("kind").cast<std::string>();
  if (a.attr("size").cast<int64_t>() == 0) a = a.attr("astype")(np.attr("int64"));
  else if (kind != "i" && kind != "u") throw IndexError(std::string("[index] ") + kBadIndex);
  if (a.attr("size").cast<int64_t>() > 0) {
    int64_t lo = np.attr("min")(a).cast<int64_t>(), hi = np.attr("max")(a).cast<int64_t>();
    for (int64_t v : {lo, hi}) {
      if (v < -n || v >= n) {
        throw IndexError("[index] index " + std::to_string(v) + " is out of bounds for axis " +
                         std::to_string(axis) + " with size " + std::to_string(n));
      }
    }
  }
  return upload(a, std::nullopt, ctx, "index");
}

py::object gather_advanced(const Array& a, const Advanced& adv) {
  Array view = a[adv.basic];
  std::vector<Array> idx;
  bool all_checked = true;
  for (size_t k = 0; k < adv.arrays.size(); ++k) {
    bool checked = true;
    idx.push_back(index_array(adv.arrays[k], view.shape()[adv.axes[k]], adv.axes[k],
                              a.context(), &checked));
    all_checked = all_checked && checked;
  }
  return py::cast(gather(view, idx, adv.axes, adv.at, all_checked, "index"));
}

Index to_index(py::handle key) {
  Index out;
  if (py::isinstance<py::tuple>(key)) {
    for (py::handle h : py::reinterpret_borrow<py::tuple>(key)) out.push_back(to_item(h));
  } else {
    out.push_back(to_item(key));
  }
  return out;
}

py::object getitem(const Array& a, py::handle key) {
  std::vector<py::handle> items = key_items(key);
  if (items.size() == 1 && is_array_index(items[0]) && !is_bool_scalar(items[0]) &&
      is_bool_array(items[0])) {  // x[mask]: one compaction
    Array mask = py::isinstance<Array>(items[0])
                     ? items[0].cast<Array>()
                     : upload(items[0], DType::kBool, a.context(), "index");
    return py::cast(masked(a, mask));
  }
  if (std::optional<Advanced> adv = split_advanced(key, a.ndim())) return gather_advanced(a, *adv);
  return py::cast(a[to_index(key)]);
}

// x[mask] = value with a boolean mask of x's leading shape and a scalar (or size-1) value:
// where(mask, value, x), one fused kernel.
bool setitem_mask(const Array& a, py::handle key, py::handle value) {
  std::vector<py::handle> items = key_items(key);
  if (items.size() != 1 || !is_array_index(items[0]) || !is_bool_array(items[0])) return false;
  // The value first: anything but one element is a scatter, which reads the key itself.
  Array v = py::isinstance<Array>(value) ? value.cast<Array>()
                                         : upload(value, a.dtype(), a.context(), "setitem");
  if (v.size() != 1) return false;
  Shape ms = py::isinstance<Array>(items[0])
                 ? items[0].cast<const Array&>().shape()
                 : to_shape(py::module_::import("numpy").attr("shape")(items[0]), "index");
  if (ms.size() > a.shape().size() || !std::equal(ms.begin(), ms.end(), a.shape().begin())) {
    throw IndexError("[index] boolean index did not match indexed array: array shape " +
                     to_string(a.shape()) + ", mask shape " + to_string(ms));
  }
  Array mask = !py::isinstance<Array>(items[0])
                   ? upload(items[0], DType::kBool, a.context(), "index")
                   : py::isinstance<py::tuple>(key) ? items[0].cast<Array>() : take_or_share(key);
  Shape m = ms;
  m.resize(a.ndim(), 1);
  Array mask_b = m == ms ? mask : reshape(mask, m);  // a lazy mask stays fused
  if (v.ndim() > a.ndim()) v = reshape(v, {});
  Array select = where(mask_b, v.astype(a.dtype()), a);
  mask = Array();  // only the select holds the mask now: a temporary mask may fuse
  mask_b = Array();
  a.set({ellipsis}, std::move(select));
  return true;
}

void setitem(const Array& a, py::handle key, py::handle value) {
  if (setitem_mask(a, key, value)) return;
  if (std::optional<Advanced> adv = split_advanced(key, a.ndim())) {
    Array view = a[adv->basic];
    std::vector<Array> idx;
    bool all_checked = true;
    for (size_t k = 0; k < adv->arrays.size(); ++k) {
      bool checked = true;
      idx.push_back(index_array(adv->arrays[k], view.shape()[adv->axes[k]], adv->axes[k],
                                a.context(), &checked));
      all_checked = all_checked && checked;
    }
    Array v = py::isinstance<Array>(value)
                  ? value.cast<Array>()
                  : upload(py::module_::import("numpy").attr("asarray")(
                               py::reinterpret_borrow<py::object>(value),
                               to_numpy_dtype(a.dtype())),
                           a.dtype(), a.context(), "setitem");
    scatter(view, idx, adv->axes, adv->at, v, all_checked, "setitem");
    return;
  }
  Index index = to_index(key);
  if (py::isinstance<Array>(value)) {
    if (is_temporary(value)) {
      a.set(index, take_or_share(value));
    } else {
      a.set(index, value.cast<const Array&>());
    }
    return;
  }
  if (std::optional<WeakScalar> w = to_weak(value, "setitem")) {
    if (w->kind == WeakKind::kComplex && !is_complex(a.dtype())) {
      throw DTypeError("[setitem] cannot assign the complex value " +
                       std::string(py::str(value)) + " to a " + std::string(name(a.dtype())) +
                       " array");
    }
    a.set(index, Arg(*w));
    return;
  }
  // numpy scalars and array-likes: numpy's own conversion to this dtype, then an upload.
  py::object data = py::module_::import("numpy").attr("asarray")(
      py::reinterpret_borrow<py::object>(value), to_numpy_dtype(a.dtype()));
  a.set(index, upload(data, a.dtype(), a.context(), "setitem"));
}

std::optional<std::vector<int64_t>> axes_arg(py::handle axes, std::string_view op) {
  if (axes.is_none()) return std::nullopt;
  if (is_integer(axes)) return std::vector<int64_t>{axes.attr("__index__")().cast<int64_t>()};
  std::vector<int64_t> out;
  for (py::handle h : axes) {
    if (!is_integer(h)) {
      throw DTypeError("[" + std::string(op) + "] axes must be integers, got " +
                       std::string(py::str(h)));
    }
    out.push_back(h.attr("__index__")().cast<int64_t>());
  }
  return out;
}

// reshape(*shape) and reshape(shape): numpy takes both spellings; -1 is inferred.
Shape shape_args(py::args args, std::string_view op) {
  if (args.size() == 1) {
    py::handle s = args[0];
    if (is_integer(s)) return {s.attr("__index__")().cast<int64_t>()};
    Shape out;
    for (py::handle h : s) {
      if (!is_integer(h)) throw DTypeError("[" + std::string(op) + "] shape must be integers");
      out.push_back(h.attr("__index__")().cast<int64_t>());
    }
    return out;
  }
  Shape out;
  for (py::handle h : args) {
    if (!is_integer(h)) throw DTypeError("[" + std::string(op) + "] shape must be integers");
    out.push_back(h.attr("__index__")().cast<int64_t>());
  }
  return out;
}

void check_order(py::handle order, std::string_view op) {
  if (!order.is_none() && py::str(order).cast<std::string>() != "C") {
    throw ShapeError("[" + std::string(op) + "] only order='C' is supported, got order=" +
                     std::string(py::str(order)));
  }
}

Array as_array(py::handle x, std::string_view op) {
  if (py::isinstance<Array>(x)) return x.cast<Array>();
  return upload(x, std::nullopt, context_or_default(nullptr), op);
}

}  // namespace

void register_views(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  cls.def("__getitem__", &getitem,
          "numpy's basic indexing (integers, slices, ..., None): a view sharing this array's "
          "buffer, with no copy and no device work.");
  cls.def("__setitem__", &setitem,
          "numpy's assignment: the value is broadcast to the selection and converted to this "
          "dtype; runs at once, and every view of the buffer sees it.");
  cls.def_property_readonly(
      "T", [](const Array& a) { return a.ndim() < 2 ? a.view(a.storage()->view()) : transpose(a); },
      "The axes reversed (a view).");
  cls.def_property_readonly("mT", &matrix_transpose, "The last two axes swapped (a view).");
  cls.def_property_readonly(
      "flags_writeable", &Array::is_writeable,
      "False for read-only views (broadcast_to, diagonal), as numpy's flags.writeable.");
  cls.def(
      "reshape",
      [](const Array& a, py::args shape, py::object order) {
        check_order(order, "reshape");
        return reshape(a, shape_args(shape, "reshape"));
      },
      py::kw_only(), py::arg("order") = py::none(),
      "numpy's reshape: a view when the strides allow, else a copy; one extent may be -1.");
  cls.def(
      "transpose",
      [](const Array& a, py::args axes) {
        if (axes.size() == 0 || (axes.size() == 1 && axes[0].is_none())) return transpose(a);
        if (axes.size() == 1) return transpose(a, axes_arg(axes[0], "transpose"));
        return transpose(a, axes_arg(axes, "transpose"));
      },
      "The axes reversed, or permuted as given (a view).");
  cls.def(
      "swapaxes", [](const Array& a, int64_t x, int64_t y) { return swapaxes(a, x, y); },
      py::arg("axis1"), py::arg("axis2"));
  cls.def(
      "squeeze", [](const Array& a, py::object axis) { return squeeze(a, axes_arg(axis, "squeeze")); },
      py::arg("axis") = py::none());
  cls.def(
      "ravel",
      [](const Array& a, py::object order) {
        check_order(order, "ravel");
        return ravel(a);
      },
      py::arg("order") = py::none());
  cls.def(
      "flatten",
      [](const Array& a, py::object order) {
        check_order(order, "flatten");
        return flatten(a);
      },
      py::arg("order") = py::none());
  cls.def(
      "diagonal",
      [](const Array& a, int64_t offset, int64_t axis1, int64_t axis2) {
        return diagonal(a, offset, axis1, axis2);
      },
      py::arg("offset") = 0, py::arg("axis1") = 0, py::arg("axis2") = 1);
  cls.def(
      "copy",
      [](const Array& a, py::object order) {
        check_order(order, "copy");
        return copy(a);
      },
      py::arg("order") = py::none(), "A new array with the same values (never a view).");
  cls.def("__copy__", [](const Array& a) { return copy(a); });
  cls.def("__deepcopy__", [](const Array& a, py::handle) { return copy(a); });
  cls.def("fill", [](const Array& a, py::handle value) { setitem(a, py::ellipsis(), value); });

  m.def(
      "reshape",
      [](py::object a, py::object shape, py::object order, py::object copy_) {
        check_order(order, "reshape");
        Array x = as_array(a, "reshape");
        Shape s = shape_args(py::make_tuple(shape), "reshape");
        if (!copy_.is_none() && copy_.cast<bool>()) return reshape(copy(x), s);
        return reshape(x, s);
      },
      py::arg("a"), py::arg("shape"), py::kw_only(), py::arg("order") = py::none(),
      py::arg("copy") = py::none());
  m.def("ravel", [](py::object a) { return ravel(as_array(a, "ravel")); });
  m.def(
      "transpose",
      [](py::object a, py::object axes) {
        return transpose(as_array(a, "transpose"), axes_arg(axes, "transpose"));
      },
      py::arg("a"), py::arg("axes") = py::none());
  m.def(
      "permute_dims",
      [](py::object a, py::object axes) {
        return permute_dims(as_array(a, "permute_dims"), *axes_arg(axes, "permute_dims"));
      },
      py::arg("a"), py::arg("axes"));
  m.def("matrix_transpose", [](py::object a) { return matrix_transpose(as_array(a, "matrix_transpose")); });
  m.def(
      "swapaxes",
      [](py::object a, int64_t x, int64_t y) { return swapaxes(as_array(a, "swapaxes"), x, y); },
      py::arg("a"), py::arg("axis1"), py::arg("axis2"));
  m.def(
      "moveaxis",
      [](py::object a, py::object src, py::object dst) {
        return moveaxis(as_array(a, "moveaxis"), *axes_arg(src, "moveaxis"),
                        *axes_arg(dst, "moveaxis"));
      },
      py::arg("a"), py::arg("source"), py::arg("destination"));
  m.def(
      "broadcast_to",
      [](py::object a, py::object shape) {
        return broadcast_to(as_array(a, "broadcast_to"), to_shape(shape, "broadcast_to"));
      },
      py::arg("array"), py::arg("shape"));
  m.def("broadcast_arrays", [](py::args arrays) {
    std::vector<Array> xs;
    for (py::handle h : arrays) xs.push_back(as_array(h, "broadcast_arrays"));
    py::list out;
    for (Array& a : broadcast_arrays(xs)) out.append(py::cast(a));
    return py::tuple(out);
  });
  m.def(
      "expand_dims",
      [](py::object a, py::object axis) {
        return expand_dims(as_array(a, "expand_dims"), *axes_arg(axis, "expand_dims"));
      },
      py::arg("a"), py::arg("axis"));
  m.def(
      "squeeze",
      [](py::object a, py::object axis) {
        return squeeze(as_array(a, "squeeze"), axes_arg(axis, "squeeze"));
      },
      py::arg("a"), py::arg("axis") = py::none());
  m.def(
      "flip",
      [](py::object a, py::object axis) { return flip(as_array(a, "flip"), axes_arg(axis, "flip")); },
      py::arg("m"), py::arg("axis") = py::none());
  m.def("fliplr", [](py::object a) {
    Array x = as_array(a, "fliplr");
    if (x.ndim() < 2) throw ShapeError("[fliplr] Input must be >= 2-d.");
    return flip(x, std::vector<int64_t>{1});
  });
  m.def("flipud", [](py::object a) {
    Array x = as_array(a, "flipud");
    if (x.ndim() < 1) throw ShapeError("[flipud] Input must be >= 1-d.");
    return flip(x, std::vector<int64_t>{0});
  });
  m.def(
      "diagonal",
      [](py::object a, int64_t offset, int64_t axis1, int64_t axis2) {
        return diagonal(as_array(a, "diagonal"), offset, axis1, axis2);
      },
      py::arg("a"), py::arg("offset") = 0, py::arg("axis1") = 0, py::arg("axis2") = 1);
  m.def("ascontiguousarray", [](py::object a, py::object dtype) {
        Array x = as_array(a, "ascontiguousarray");
        if (!dtype.is_none()) x = x.astype(to_dtype(dtype, "ascontiguousarray"));
        return ascontiguousarray(x);
      }, py::arg("a"), py::arg("dtype") = py::none());
  m.def(
      "copy", [](py::object a) { return copy(as_array(a, "copy")); }, py::arg("a"));
  m.def(
      "take",
      [](py::object a, py::object indices, py::object axis, py::object out, std::string mode) {
        Array x = as_array(a, "take");
        IndexMode m = mode == "raise" ? IndexMode::kRaise
                      : mode == "wrap" ? IndexMode::kWrap
                      : mode == "clip" ? IndexMode::kClip
                                       : throw ShapeError("[take] mode must be 'raise', 'wrap' or "
                                                          "'clip', got '" + mode + "'");
        std::optional<int64_t> ax;
        if (!axis.is_none()) ax = axis.cast<int64_t>();
        Array idx = py::isinstance<Array>(indices)
                        ? indices.cast<Array>()
                        : upload(py::module_::import("numpy").attr("asarray")(indices),
                                 std::nullopt, x.context(), "take");
        return result_or_out(take(x, idx, ax, m), out, Op::kGather);
      },
      py::arg("a"), py::arg("indices"), py::arg("axis") = py::none(), py::arg("out") = py::none(),
      py::arg("mode") = "raise",
      "numpy.take: elements along an axis (the flattened array when axis is None); indices "
      "out of range raise IndexError (mode='raise'), wrap or clip.");
  m.def(
      "searchsorted",
      [](py::object a, py::object v, std::string side, py::object sorter) {
        if (side != "left" && side != "right") {
          throw ShapeError("[searchsorted] side must be 'left' or 'right', got '" + side + "'");
        }
        Array x = as_array(a, "searchsorted");
        if (!sorter.is_none()) {
          Array s = py::isinstance<Array>(sorter)
                        ? sorter.cast<Array>()
                        : upload(sorter, std::nullopt, x.context(), "searchsorted");
          x = take(x, s);
        }
        const bool scalar = !py::isinstance<Array>(v) && py::module_::import("numpy")
                                                              .attr("ndim")(v)
                                                              .cast<int>() == 0;
        Array values = py::isinstance<Array>(v) ? v.cast<Array>()
                                                : upload(v, std::nullopt, x.context(),
                                                         "searchsorted");
        Array out = searchsorted(x, values, side == "right");
        if (scalar) return py::module_::import("numpy").attr("int64")(out.to_vector<int64_t>()[0]);
        return py::cast(out);
      },
      py::arg("a"), py::arg("v"), py::arg("side") = "left", py::arg("sorter") = py::none(),
      "numpy.searchsorted: insertion points of v in the sorted 1-d array a (NaN sorts last); a "
      "binary search per value on the device.");
  m.def(
      "put",
      [](py::object a, py::object ind, py::object v, std::string mode) {
        if (!py::isinstance<Array>(a)) {
          throw DTypeError("[put] the array must be a vkarray.ndarray (it is written in place)");
        }
        const Array& x = a.cast<const Array&>();
        IndexMode m = mode == "raise" ? IndexMode::kRaise
                      : mode == "wrap" ? IndexMode::kWrap
                      : mode == "clip" ? IndexMode::kClip
                                       : throw ShapeError("[put] mode must be 'raise', 'wrap' or "
                                                          "'clip', got '" + mode + "'");
        Array idx = py::isinstance<Array>(ind) ? ind.cast<Array>()
                                               : upload(ind, std::nullopt, x.context(), "put");
        Array vals = py::isinstance<Array>(v)
                         ? v.cast<Array>()
                         : upload(py::module_::import("numpy").attr("asarray")(
                                      v, to_numpy_dtype(x.dtype())),
                                  x.dtype(), x.context(), "put");
        put(x, idx, vals, m);
      },
      py::arg("a"), py::arg("ind"), py::arg("v"), py::arg("mode") = "raise",
      "numpy.put: a.flat[ind] = v in place (v repeated to ind's size); where indices repeat, "
      "the last value wins.");
  m.def(
      "nonzero",
      [](py::object a) {
        py::list out;
        for (Array& i : nonzero(as_array(a, "nonzero"))) out.append(py::cast(i));
        return py::tuple(out);
      },
      py::arg("a"),
      "numpy.nonzero: a tuple of int64 index arrays, one per axis. The count is computed on "
      "the device (a prefix sum); only it comes back to the host.");
  m.def(
      "flatnonzero", [](py::object a) { return flatnonzero(as_array(a, "flatnonzero")); },
      py::arg("a"));
  m.def(
      "compress",
      [](py::object condition, py::object a, py::object axis) {
        std::optional<int64_t> ax;
        if (!axis.is_none()) ax = axis.cast<int64_t>();
        Array x = as_array(a, "compress");
        Array c = py::isinstance<Array>(condition)
                      ? condition.cast<Array>()
                      : upload(condition, DType::kBool, x.context(), "compress");
        if (c.dtype() != DType::kBool) c = not_equal(c, Arg(0));
        return compress(c, x, ax);
      },
      py::arg("condition"), py::arg("a"), py::arg("axis") = py::none());
  m.def(
      "extract",
      [](py::object condition, py::object arr) {
        Array x = as_array(arr, "extract");
        Array c = py::isinstance<Array>(condition)
                      ? condition.cast<Array>()
                      : upload(condition, std::nullopt, x.context(), "extract");
        if (c.dtype() != DType::kBool) c = not_equal(c, Arg(0));
        return extract(c, x);
      },
      py::arg("condition"), py::arg("arr"));
  m.def(
      "take_along_axis",
      [](py::object a, py::object indices, int64_t axis) {
        Array x = as_array(a, "take_along_axis");
        Array idx = py::isinstance<Array>(indices) ? indices.cast<Array>()
                                                   : upload(indices, std::nullopt, x.context(),
                                                            "take_along_axis");
        return take_along_axis(x, idx, axis);
      },
      py::arg("arr"), py::arg("indices"), py::arg("axis"));
}

}  // namespace vka
