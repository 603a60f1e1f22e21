// Small helpers of the device tests of vka::Array.
#pragma once

#include <numeric>
#include <random>
#include <vector>

#include "array/array.h"
#include "runtime/realize.h"

namespace vka::testing {

// Kernels dispatched so far in the process.
inline uint64_t kernels() { return realize_stats().kernels; }

// 0, 1, ..., n-1 as float64, in `shape` (default: (n,)).
inline Array iota(int64_t n, Shape shape = {}) {
  std::vector<double> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0.0);
  return Array::from_host(v.data(), shape.empty() ? Shape{n} : shape, DType::kFloat64);
}

// Host data `v` as a device array of its element type, in `shape` (default: (n,)).
template <typename T>
Array upload(const std::vector<T>& v, Shape shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(v.size())};
  return Array::from_host(v.data(), shape, dtype_of_v<T>);
}

// n seeded integers uniform in [lo, hi].
inline std::vector<int64_t> random_ints(int64_t n, int64_t lo, int64_t hi, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = dist(gen);
  return v;
}

// n seeded floats uniform in [-1, 1).
inline std::vector<float> random_floats(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) x = dist(gen);
  return v;
}

}  // namespace vka::testing
