// numpy's basic indexing as data: integers, slices, `...` and newaxis, applied to a View with no
// copy. Advanced (array) indices are handled by the array layer, which splits them off first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/view.h"

namespace vka {

struct NewAxis {
  bool operator==(const NewAxis&) const { return true; }
};
struct Ellipsis {
  bool operator==(const Ellipsis&) const { return true; }
};
inline constexpr NewAxis newaxis{};
inline constexpr Ellipsis ellipsis{};

// One item of an index tuple, as in `a[1, 2:5, ..., None]`.
using IndexItem = std::variant<int64_t, SliceSpec, NewAxis, Ellipsis>;
using Index = std::vector<IndexItem>;

// Slices spelled as xtensor does: range(1, -1) is numpy's 1:-1, range({}, {}, -1) is ::-1,
// all() is ':'.
inline SliceSpec range(std::optional<int64_t> start, std::optional<int64_t> stop,
                       int64_t step = 1) {
  return SliceSpec{start, stop, step};
}
inline SliceSpec all() { return SliceSpec{}; }

// `v` indexed by `index` with numpy's rules: items apply to leading axes, one `...` stands for
// every axis not named, newaxis inserts an axis of extent 1, an integer removes its axis.
// IndexError "[index] too many indices for array: array is 2-dimensional, but 3 were indexed",
// "[index] an index can only have a single ellipsis ('...')", and out-of-range integers.
View apply_index(const View& v, const Index& index);

// numpy's view functions on a View (each names itself in its errors).
View expand_dims(const View& v, std::vector<int64_t> axes);           // new extent-1 axes
View squeeze(const View& v, std::optional<std::vector<int64_t>> axes);  // drops extent-1 axes
View swapaxes(const View& v, int64_t a, int64_t b);
View moveaxis(const View& v, std::vector<int64_t> source, std::vector<int64_t> destination);
View flip(const View& v, std::optional<std::vector<int64_t>> axes);  // all axes when nullopt
// The diagonal with offset k of axes (axis1, axis2), appended as the last axis.
View diagonal(const View& v, int64_t offset, int64_t axis1, int64_t axis2);

std::string to_string(const IndexItem& item);

}  // namespace vka
