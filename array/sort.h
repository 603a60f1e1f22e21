// numpy's sorting, searching and counting functions: sort, argsort, partition, argpartition,
// unique, bincount, histogram, isin, in1d. All run on the stable radix sort of
// array/sort_radix.h: results are deterministic, argsort equals numpy's kind='stable' order,
// NaN sorts last and -0.0 ties with 0.0.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "array/array.h"

namespace vka {

// Along `axis` (negative counts from the end; nullopt sorts the flattened array). Always
// stable. argsort returns int64 indices along the axis.
Array sort(const Array& a, std::optional<int64_t> axis = -1);
Array argsort(const Array& a, std::optional<int64_t> axis = -1);
// numpy's partition contract (a full sort satisfies it). kth: each in [-n, n) for the axis
// length n, else ShapeError "[partition] kth(=5) out of bounds (5)".
Array partition(const Array& a, const std::vector<int64_t>& kth,
                std::optional<int64_t> axis = -1);
Array argpartition(const Array& a, const std::vector<int64_t>& kth,
                   std::optional<int64_t> axis = -1);

// numpy.unique of the flattened array (numpy 1.24: NaNs collapse into one). Requested parts
// are set: indices (first occurrences, int64), inverse (flat, int64, numpy 1.24's shape),
// counts (int64).
struct UniqueResult {
  Array values;
  std::optional<Array> indices, inverse, counts;
};
UniqueResult unique(const Array& a, bool return_index = false, bool return_inverse = false,
                    bool return_counts = false);

// numpy.bincount of a 1-d array of non-negative integers: int64 counts, or float64 sums of
// `weights` (summed per bin in input order, as numpy does).
Array bincount(const Array& x, const std::optional<Array>& weights = std::nullopt,
               int64_t minlength = 0);

// numpy.histogram with `bins` equal bins over `range` (the data's min and max when nullopt),
// or over explicit monotonic `edges`. Returns (hist, bin_edges); hist is int64, the weights'
// dtype with weights, float64 with density.
std::pair<Array, Array> histogram(const Array& a, int64_t bins = 10,
                                  std::optional<std::pair<double, double>> range = std::nullopt,
                                  bool density = false,
                                  const std::optional<Array>& weights = std::nullopt);
std::pair<Array, Array> histogram(const Array& a, const Array& edges, bool density = false,
                                  const std::optional<Array>& weights = std::nullopt);

// numpy.isin: a bool array of element's shape, true where the element equals some element of
// test_elements (NaN equals nothing); inverted with `invert`. in1d: the same, flattened.
// Complex operands compare every pair (O(n m) work), the others search a sorted copy.
Array isin(const Array& element, const Array& test_elements, bool invert = false);
Array in1d(const Array& ar1, const Array& ar2, bool invert = false);

}  // namespace vka
