// Small helpers of the device tests of vka::Array.
#pragma once

#include <numeric>
#include <vector>

#include "array/array.h"
#include "array/realize.h"

namespace vka::testing {

// Kernels dispatched so far in the process.
inline uint64_t kernels() { return realize_stats().kernels; }

// 0, 1, ..., n-1 as float64, in `shape` (default: (n,)).
inline Array iota(int64_t n, Shape shape = {}) {
  std::vector<double> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0.0);
  return Array::from_host(v.data(), shape.empty() ? Shape{n} : shape, DType::kFloat64);
}

}  // namespace vka::testing
