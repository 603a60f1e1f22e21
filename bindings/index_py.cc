// Indexing of vkarray.ndarray: __getitem__ and __setitem__ with numpy's basic and advanced
// rules (views, gathers, masks, scatters).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "base/errors.h"
#include "bindings/convert.h"
#include "bindings/index_py.h"
#include "bindings/operands_py.h"
#include "bindings/registry.h"

namespace vka {
namespace {

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
  // Boolean masks: the first of their index arrays and their shape, which must be the
  // extents of the axes they index, or 0 (numpy's IndexError otherwise).
  std::vector<std::pair<size_t, Shape>> masks;
};

// numpy's check of each boolean mask against the axes of `view` it indexes.
void check_masks(const Advanced& adv, const Array& view) {
  for (const auto& [first, shape] : adv.masks) {
    for (size_t d = 0; d < shape.size(); ++d) {
      const int64_t n = view.shape()[adv.axes[first + d]];
      if (shape[d] != n && shape[d] != 0) {  // numpy lets an empty mask dimension through
        throw IndexError("[index] boolean index did not match indexed array along dimension " +
                         std::to_string(adv.axes[first + d]) + "; dimension is " +
                         std::to_string(n) + " but corresponding boolean dimension is " +
                         std::to_string(shape[d]));
      }
    }
  }
}

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
    const bool is_adv = is_array_index(h) || is_python_integer(h);
    if (is_adv) {
      if (last >= 0 && static_cast<int>(p) != last + 1) adv.adjacent = false;
      last = static_cast<int>(p);
    }
    if (is_array_index(h) && is_bool_array(h)) {
      // A k-d boolean array stands for its k nonzero() index arrays, on k axes (0-d ones
      // are split off before: split_bool_scalars).
      Array mask = as_array(h, "index", DType::kBool);
      adv.masks.emplace_back(adv.arrays.size(), mask.shape());
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
  if (a.attr("size").cast<int64_t>() == 0)
    a = a.attr("astype")(np.attr("int64"));
  else if (kind != "i" && kind != "u")
    throw IndexError(std::string("[index] ") + kBadIndex);
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
  check_masks(adv, view);
  std::vector<Array> idx;
  bool all_checked = true;
  for (size_t k = 0; k < adv.arrays.size(); ++k) {
    bool checked = true;
    idx.push_back(
        index_array(adv.arrays[k], view.shape()[adv.axes[k]], adv.axes[k], a.context(), &checked));
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

// A 0-d boolean index (True, False, a 0-d bool array): numpy's index array of shape (1,) or
// (0,) over an axis of its own. Split into a view with a new axis at each such item's place
// (basic: `first`) and the key over that view, the item replaced by [0] or [] (`second`).
struct BoolScalars {
  py::tuple first, second;
};

bool is_bool_0d(py::handle h) {
  if (is_bool_scalar(h)) return true;
  if (py::isinstance<Array>(h)) {
    const Array& x = h.cast<const Array&>();
    return x.ndim() == 0 && x.dtype() == DType::kBool;
  }
  return py::isinstance<py::array>(h) && py::reinterpret_borrow<py::array>(h).ndim() == 0 &&
         is_bool_array(h);
}

std::optional<BoolScalars> split_bool_scalars(py::handle key) {
  std::vector<py::handle> items = key_items(key);
  bool any = false;
  for (py::handle h : items) any = any || is_bool_0d(h);
  if (!any) return std::nullopt;
  py::module_ np = py::module_::import("numpy");
  py::list first, second;
  for (py::handle h : items) {
    if (is_bool_0d(h)) {
      first.append(py::none());
      const bool on = PyObject_IsTrue(h.ptr()) == 1;  // a device array: one readback
      second.append(np.attr("zeros")(on ? 1 : 0, np.attr("intp")));
      continue;
    }
    second.append(h);
    if (h.is_none()) continue;
    if (h.ptr() == Py_Ellipsis) {
      first.append(h);
      continue;
    }
    int axes = 1;  // a k-d boolean array consumes k axes; every other item one
    if (is_array_index(h) && is_bool_array(h)) {
      axes =
          py::isinstance<Array>(h) ? h.cast<const Array&>().ndim() : np.attr("ndim")(h).cast<int>();
    }
    for (int k = 0; k < axes; ++k) first.append(py::slice(py::none(), py::none(), py::none()));
  }
  return BoolScalars{py::tuple(first), py::tuple(second)};
}

py::object getitem(const Array& a, py::handle key) {
  if (std::optional<Index> basic = basic_index(key)) return py::cast(a[*basic]);
  if (std::optional<BoolScalars> b = split_bool_scalars(key)) {
    return getitem(a[to_index(b->first)], b->second);
  }
  std::vector<py::handle> items = key_items(key);
  if (items.size() == 1 && is_array_index(items[0]) && !is_bool_scalar(items[0]) &&
      is_bool_array(items[0])) {  // x[mask]: one compaction
    Array mask = as_array(items[0], "index", DType::kBool, a.context());
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
  Array v = as_array(value, "setitem", a.dtype(), a.context());
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
               : py::isinstance<py::tuple>(key) ? items[0].cast<Array>()
                                                : take_or_share(key);
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
  std::optional<Index> basic = basic_index(key);
  if (!basic) {
    if (std::optional<BoolScalars> b = split_bool_scalars(key)) {
      setitem(a[to_index(b->first)], b->second, value);
      return;
    }
    if (setitem_mask(a, key, value)) return;
    if (std::optional<Advanced> adv = split_advanced(key, a.ndim())) {
      Array view = a[adv->basic];
      check_masks(*adv, view);
      std::vector<Array> idx;
      bool all_checked = true;
      for (size_t k = 0; k < adv->arrays.size(); ++k) {
        bool checked = true;
        idx.push_back(index_array(adv->arrays[k], view.shape()[adv->axes[k]], adv->axes[k],
                                  a.context(), &checked));
        all_checked = all_checked && checked;
      }
      scatter(view, idx, adv->axes, adv->at, as_array(value, "setitem", a.dtype(), a.context()),
              all_checked, "setitem");
      return;
    }
    basic = to_index(key);
  }
  const Index& index = *basic;
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
      throw DTypeError("[setitem] cannot assign the complex value " + std::string(py::str(value)) +
                       " to a " + std::string(name(a.dtype())) + " array");
    }
    a.set(index, Arg(*w));
    return;
  }
  // numpy scalars and array-likes: numpy's own conversion to this dtype, then an upload.
  a.set(index, as_array(value, "setitem", a.dtype(), a.context()));
}

}  // namespace

void register_indexing(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<Array>>(m.attr("ndarray"));
  cls.def("__getitem__", &getitem,
          "numpy's basic indexing (integers, slices, ..., None): a view sharing this array's "
          "buffer, with no copy and no device work.");
  cls.def("__setitem__", &setitem,
          "numpy's assignment: the value is broadcast to the selection and converted to this "
          "dtype; every view of the buffer sees it (a small write is recorded and runs when "
          "something next reads or writes the buffer).");
  cls.def("fill", [](const Array& a, py::handle value) { setitem(a, py::ellipsis(), value); });
}

}  // namespace vka
