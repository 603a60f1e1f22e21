// xtensor interop: vka::asarray(any xtensor expression) and Array::to_xtensor<T>().
#pragma once

#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xexpression.hpp>

#include "array/array.h"

namespace vka {

// Evaluates `e` on the host (row-major) and uploads it to every replica of `context`.
template <class E>
Array asarray(const xt::xexpression<E>& e,
              std::shared_ptr<Context> context = Context::default_context()) {
  using T = typename E::value_type;
  xt::xarray<T, xt::layout_type::row_major> host = e.derived_cast();
  Shape shape(host.shape().begin(), host.shape().end());
  return Array::from_host(host.data(), shape, dtype_of_v<T>, std::move(context));
}

template <typename T>
auto Array::to_xtensor(int replica) const {
  check_host_type(dtype_of_v<T>);
  std::vector<std::size_t> shape(this->shape().begin(), this->shape().end());
  xt::xarray<T, xt::layout_type::row_major> out(shape);
  read(out.data(), static_cast<uint64_t>(out.size()) * sizeof(T), replica);
  return out;
}

}  // namespace vka
