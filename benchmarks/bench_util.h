// Shared helpers of the C++ benchmarks: flags, medians, GPU and wall-clock timing, and the
// markdown results header.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "device/context.h"
#include "device/stream.h"

namespace vka::bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

// "--name value" or "--name=value"; `fallback` when absent.
inline std::string flag(int argc, char** argv, const std::string& name,
                        const std::string& fallback) {
  const std::string key = "--" + name;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == key && i + 1 < argc) return argv[i + 1];
    if (a.rfind(key + "=", 0) == 0) return a.substr(key.size() + 1);
  }
  return fallback;
}

inline std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

inline std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return buf;
}

// The lines every results table starts with: what ran, where, when.
inline std::string results_header(const std::string& title, const Context& ctx,
                                  const std::string& command) {
  const Caps& c = ctx.device(0).caps();
  return "## " + title + "\n\n- device: " + c.device_name + "\n- driver: " + c.driver_name +
         "\n- date: " + today() + "\n- command: `" + command + "`\n\n";
}

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Repeats `work` (which submits and waits) for `seconds`: a GPU idles at low clocks and needs a
// few hundred milliseconds of work before its timings mean anything.
template <typename F>
void warm_up(double seconds, F&& work) {
  const auto t0 = std::chrono::steady_clock::now();
  while (seconds_since(t0) < seconds) work();
}

// n floats uniform in [lo, hi), from a fixed seed (the same data every run).
inline std::vector<float> uniform_floats(int64_t n, uint32_t seed, float lo = -1, float hi = 1) {
  std::vector<float> h(static_cast<size_t>(n));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  for (auto& x : h) x = u(rng);
  return h;
}

// A timed operation: the median milliseconds of one call, and how far `counter` (kernels or
// dispatches) advanced in the untimed first call.
struct Timing {
  double ms;
  uint64_t count;
};

// Median GPU time of one call of `work` (which submits without waiting): timestamps around
// `batch` back-to-back calls, `runs` batches, after an untimed first call (it compiles) and
// 0.3 s of warm-up.
inline Timing gpu_median(Stream& s, const std::function<void()>& work, int runs, int batch,
                         const std::function<uint64_t()>& counter) {
  const uint64_t c0 = counter();
  work();
  s.finish();
  const uint64_t count = counter() - c0;
  warm_up(0.3, [&] {
    for (int i = 0; i < batch; ++i) work();
    s.finish();
  });
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    s.reset_timestamps();
    const uint32_t t0 = s.timestamp();
    for (int i = 0; i < batch; ++i) work();
    const uint32_t t1 = s.timestamp();
    s.finish();
    ms.push_back(s.elapsed_ns(t0, t1) * 1e-6 / batch);
  }
  return {median(ms), count};
}

// Median wall-clock time of one call of `work` and the wait for it, after an untimed first
// call and `warm_seconds` of warm-up.
inline Timing wall_median(Stream& s, const std::function<void()>& work, int runs,
                          double warm_seconds, const std::function<uint64_t()>& counter) {
  const uint64_t c0 = counter();
  work();
  s.finish();
  const uint64_t count = counter() - c0;
  warm_up(warm_seconds, [&] {
    work();
    s.finish();
  });
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    work();
    s.finish();
    ms.push_back(seconds_since(t0) * 1e3);
  }
  return {median(ms), count};
}

// --host-access auto|staging: where arrays live (see HostAccess).
inline ContextOptions context_options(int argc, char** argv) {
  ContextOptions options;
  options.host_access = flag(argc, argv, "host-access", "auto") == "staging" ? HostAccess::kStaging
                                                                             : HostAccess::kAuto;
  return options;
}

}  // namespace vka::bench
