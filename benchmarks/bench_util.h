// Shared helpers of the C++ benchmarks: flags, medians, and the markdown results header.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "device/context.h"

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

// --host-access auto|staging: where arrays live (see HostAccess).
inline ContextOptions context_options(int argc, char** argv) {
  ContextOptions options;
  options.host_access = flag(argc, argv, "host-access", "auto") == "staging" ? HostAccess::kStaging
                                                                             : HostAccess::kAuto;
  return options;
}

}  // namespace vka::bench
