// View algebra: every operation here only rewrites offset/shape/strides, never data.
#include "ir/view.h"

#include <algorithm>
#include <numeric>

#include "base/errors.h"

namespace vka {

View View::contiguous(const Shape& shape, int64_t offset) {
  return View{offset, shape, contiguous_strides(shape)};
}

bool View::is_contiguous() const {
  if (size() == 0) return true;
  int64_t expect = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 1) continue;
    if (strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

bool View::is_scalar_broadcast() const {
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] > 1 && strides[i] != 0) return false;
  }
  return true;
}

std::pair<int64_t, int64_t> View::extent() const {
  if (vka::size(shape) == 0) return {offset, offset};
  int64_t lo = offset, hi = offset;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    int64_t span = (shape[i] - 1) * strides[i];
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi + 1};
}

std::string View::to_string() const {
  return "View(offset=" + std::to_string(offset) + ", shape=" + vka::to_string(shape) +
         ", strides=" + vka::to_string(strides) + ")";
}

View broadcast_to(std::string_view op, const View& v, const Shape& shape) {
  if (!can_broadcast_to(v.shape, shape)) {
    throw ShapeError("[" + std::string(op) + "] cannot broadcast shape " + to_string(v.shape) +
                     " to " + to_string(shape));
  }
  View out{v.offset, shape, std::vector<int64_t>(shape.size(), 0)};
  std::size_t lead = shape.size() - v.shape.size();
  for (std::size_t i = 0; i < v.shape.size(); ++i) {
    out.strides[lead + i] = (v.shape[i] == shape[lead + i]) ? v.strides[i] : 0;
  }
  return out;
}

View permute(std::string_view op, const View& v, const std::vector<int64_t>& axes) {
  int n = v.ndim();
  if (static_cast<int>(axes.size()) != n) {
    throw ShapeError("[" + std::string(op) + "] axes " + to_string(axes) +
                     " don't match array of dimension " + std::to_string(n));
  }
  std::vector<bool> seen(n, false);
  View out{v.offset, Shape(n), std::vector<int64_t>(n)};
  for (int i = 0; i < n; ++i) {
    int a = normalize_axis(op, axes[i], n);
    if (seen[a]) {
      throw ShapeError("[" + std::string(op) + "] repeated axis in axes " + to_string(axes));
    }
    seen[a] = true;
    out.shape[i] = v.shape[a];
    out.strides[i] = v.strides[a];
  }
  return out;
}

View transpose(const View& v) {
  std::vector<int64_t> axes(v.ndim());
  std::iota(axes.rbegin(), axes.rend(), 0);
  return permute("transpose", v, axes);
}

std::optional<View> reshape_view(const View& v, Shape shape) {
  int64_t total = v.size();
  int infer = -1;
  int64_t known = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1 && infer < 0) {
      infer = static_cast<int>(i);
    } else if (shape[i] < 0) {
      throw ShapeError("[reshape] invalid shape " + to_string(shape));
    } else {
      known *= shape[i];
    }
  }
  if (infer >= 0 && known != 0 && total % known == 0) shape[infer] = total / known;
  if (infer >= 0 ? (known == 0 || total % known != 0) : known != total) {
    throw ShapeError("[reshape] cannot reshape array of size " + std::to_string(total) +
                     " into shape " + to_string(shape));
  }
  if (total == 0 || v.is_contiguous()) return View::contiguous(shape, v.offset);
  // Walk old and new dims in groups of equal element count (numpy's nocopy reshape): a group
  // of old dims must itself be contiguous-chained to be re-split with new strides.
  Shape os;
  std::vector<int64_t> ost;
  for (int i = 0; i < v.ndim(); ++i) {
    if (v.shape[i] != 1) {
      os.push_back(v.shape[i]);
      ost.push_back(v.strides[i]);
    }
  }
  std::vector<int64_t> nst(shape.size(), 0);
  std::size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < shape.size() && oi < os.size()) {
    int64_t np = shape[ni], op = os[oi];
    while (np != op) {
      if (np < op) {
        np *= shape[nj++];
      } else {
        op *= os[oj++];
      }
    }
    for (std::size_t k = oi; k + 1 < oj; ++k) {
      if (ost[k] != os[k + 1] * ost[k + 1]) return std::nullopt;
    }
    nst[nj - 1] = ost[oj - 1];
    for (std::size_t k = nj - 1; k > ni; --k) nst[k - 1] = nst[k] * shape[k];
    ni = nj++;
    oi = oj++;
  }
  // Trailing extent-1 dims of the new shape get any stride; use the contiguous value 1.
  for (std::size_t k = ni; k < shape.size(); ++k) nst[k] = 1;
  return View{v.offset, shape, nst};
}

SliceRange normalize_slice(const SliceSpec& s, int64_t length) {
  if (s.step == 0) throw ShapeError("[slice] slice step cannot be zero");
  int64_t step = s.step;
  // Python's PySlice_AdjustIndices.
  auto clamp = [&](std::optional<int64_t> x, int64_t dflt) {
    if (!x) return dflt;
    int64_t i = *x;
    if (i < 0) {
      i += length;
      if (i < 0) i = step < 0 ? -1 : 0;
    } else if (i >= length) {
      i = step < 0 ? length - 1 : length;
    }
    return i;
  };
  int64_t start = clamp(s.start, step < 0 ? length - 1 : 0);
  int64_t stop = clamp(s.stop, step < 0 ? -1 : length);
  int64_t count = 0;
  if (step < 0) {
    if (stop < start) count = (start - stop - 1) / (-step) + 1;
  } else if (start < stop) {
    count = (stop - start - 1) / step + 1;
  }
  return SliceRange{start, step, count};
}

View slice(const View& v, int axis, const SliceSpec& s) {
  VKA_ASSERT(axis >= 0 && axis < v.ndim());
  SliceRange r = normalize_slice(s, v.shape[axis]);
  View out = v;
  if (r.count > 0) out.offset += r.start * v.strides[axis];
  out.shape[axis] = r.count;
  out.strides[axis] = v.strides[axis] * r.step;
  return out;
}

View index_axis(const View& v, int axis, int64_t index) {
  VKA_ASSERT(axis >= 0 && axis < v.ndim());
  int64_t n = v.shape[axis];
  if (index < -n || index >= n) {
    throw IndexError("[index] index " + std::to_string(index) + " is out of bounds for axis " +
                     std::to_string(axis) + " with size " + std::to_string(n));
  }
  if (index < 0) index += n;
  View out;
  out.offset = v.offset + index * v.strides[axis];
  for (int i = 0; i < v.ndim(); ++i) {
    if (i == axis) continue;
    out.shape.push_back(v.shape[i]);
    out.strides.push_back(v.strides[i]);
  }
  return out;
}

Shape collapse_dims(std::vector<View*> views) {
  VKA_ASSERT(!views.empty());
  const Shape shape = views[0]->shape;
  for (View* v : views) VKA_ASSERT(v->shape == shape);
  Shape out;
  std::vector<std::vector<int64_t>> st(views.size());
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !out.empty();
    for (std::size_t k = 0; merge && k < views.size(); ++k) {
      // The previous kept dim continues this one when its stride spans exactly this extent.
      merge = st[k].back() == views[k]->strides[d] * shape[d];
    }
    if (merge) {
      out.back() *= shape[d];
      for (std::size_t k = 0; k < views.size(); ++k) st[k].back() = views[k]->strides[d];
    } else {
      out.push_back(shape[d]);
      for (std::size_t k = 0; k < views.size(); ++k) st[k].push_back(views[k]->strides[d]);
    }
  }
  for (std::size_t k = 0; k < views.size(); ++k) {
    views[k]->shape = out;
    views[k]->strides = st[k];
  }
  return out;
}

Shape collapse_split(std::vector<View*> views, int split, int* split_out) {
  VKA_ASSERT(!views.empty());
  std::vector<View> head, tail;
  for (const View* v : views) {
    VKA_ASSERT(split >= 0 && split <= v->ndim());
    head.push_back(View{v->offset, Shape(v->shape.begin(), v->shape.begin() + split),
                        std::vector<int64_t>(v->strides.begin(), v->strides.begin() + split)});
    tail.push_back(View{0, Shape(v->shape.begin() + split, v->shape.end()),
                        std::vector<int64_t>(v->strides.begin() + split, v->strides.end())});
  }
  std::vector<View*> hp, tp;
  for (size_t k = 0; k < views.size(); ++k) {
    hp.push_back(&head[k]);
    tp.push_back(&tail[k]);
  }
  Shape out = collapse_dims(hp);
  *split_out = static_cast<int>(out.size());
  Shape rest = collapse_dims(tp);
  out.insert(out.end(), rest.begin(), rest.end());
  for (size_t k = 0; k < views.size(); ++k) {
    views[k]->shape = out;
    views[k]->strides = head[k].strides;
    views[k]->strides.insert(views[k]->strides.end(), tail[k].strides.begin(),
                             tail[k].strides.end());
  }
  return out;
}

}  // namespace vka
