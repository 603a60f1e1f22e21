// Host-side cost of the lazy pipeline, per op: building a chain of dependent elementwise ops
// on small arrays, then evaluating it (substitute, schedule, cached pipeline, dispatch) and
// reading the result. Wall clock, median of runs after warm-up.
#include <chrono>
#include <cstdio>
#include <vector>

#include "array/array.h"
#include "benchmarks/bench_util.h"

int main(int argc, char** argv) {
  using namespace vka;
  const int iters = std::stoi(bench::flag(argc, argv, "iters", "100"));  // 2 ops each
  const int runs = std::stoi(bench::flag(argc, argv, "runs", "50"));
  std::vector<float> h(1000, 1.0f);
  Array x0 = Array::from_host(h.data(), {1000}, DType::kFloat32);
  std::vector<double> build_us, eval_us, read_us;
  for (int r = 0; r < runs + 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    Array x = x0;
    for (int i = 0; i < iters; ++i) x = x * 1.0001 + 0.5;
    auto t1 = std::chrono::steady_clock::now();
    x.eval();
    auto t2 = std::chrono::steady_clock::now();
    x.read(h.data(), h.size() * 4);
    auto t3 = std::chrono::steady_clock::now();
    if (r < 5) continue;
    auto us = [](auto a, auto b) {
      return std::chrono::duration<double, std::micro>(b - a).count();
    };
    build_us.push_back(us(t0, t1));
    eval_us.push_back(us(t1, t2));
    read_us.push_back(us(t2, t3));
  }
  const double ops = 2.0 * iters;
  std::printf(
      "%d dependent ops on 1000 float32: build %.2f us/op, evaluate %.2f us/op, "
      "read %.1f us, total %.2f us/op\n",
      2 * iters, bench::median(build_us) / ops, bench::median(eval_us) / ops,
      bench::median(read_us),
      (bench::median(build_us) + bench::median(eval_us) + bench::median(read_us)) / ops);
  return 0;
}
