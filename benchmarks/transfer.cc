// Host ↔ device transfer bandwidth, for each transfer path: direct writes into host-visible
// device memory (where the device has it) and the pooled staging area.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "benchmarks/bench_util.h"
#include "device/buffer.h"
#include "device/stream.h"

int main(int argc, char** argv) {
  using namespace vka;
  const uint64_t bytes = std::stoull(bench::flag(argc, argv, "mib", "1024")) << 20;
  const int runs = std::stoi(bench::flag(argc, argv, "runs", "7"));
  const std::string out_path = bench::flag(argc, argv, "markdown", "");

  std::vector<uint8_t> host(bytes), back(bytes);
  for (uint64_t i = 0; i < bytes; ++i) host[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
  std::string md;
  char line[256];
  std::string seen_up, seen_down;  // paths measured in auto mode (staging mode skips repeats)
  for (HostAccess mode : {HostAccess::kAuto, HostAccess::kStaging}) {
    ContextOptions o;
    o.host_access = mode;
    auto ctx = Context::create(o);
    if (md.empty()) {
      md = bench::results_header("Host-device transfers", *ctx, bench::command_line(argc, argv));
      std::snprintf(
          line, sizeof(line),
          "%.3g GiB from/to pageable host memory, wall clock including the final wait, "
          "median of %d runs after 1 warm-up.\n\n| path | direction | time (ms) | GB/s |\n"
          "|---|---|---|---|\n",
          bytes / double(1 << 30), runs);
      md += line;
    }
    ReplicatedBuffer buf(ctx, bytes);
    Stream& s = *ctx->replica(0).stream;
    const std::string up_path =
        buf.is_mapped(0) ? "direct (mapped device memory)" : "staging (32 MiB chunks)";
    const std::string down_path =
        buf.reads_directly(0) ? "direct (mapped device memory)" : "staging (32 MiB chunks)";
    std::vector<double> up, down;
    for (int r = 0; r < runs + 1; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      buf.write(host.data(), 0, bytes, 0);
      s.finish();
      double t_up = bench::seconds_since(t0);
      t0 = std::chrono::steady_clock::now();
      buf.read(back.data(), 0, bytes, 0);
      double t_down = bench::seconds_since(t0);
      if (r > 0) {
        up.push_back(t_up);
        down.push_back(t_down);
      }
    }
    if (back != host) {
      std::fprintf(stderr, "transfer: round trip (%s, %s) corrupted data\n", up_path.c_str(),
                   down_path.c_str());
      return 1;
    }
    for (int dir = 0; dir < 2; ++dir) {
      double t = bench::median(dir == 0 ? up : down);
      const std::string& path = dir == 0 ? up_path : down_path;
      if (mode == HostAccess::kStaging && path == (dir == 0 ? seen_up : seen_down)) continue;
      std::snprintf(line, sizeof(line), "| %s | %s | %.2f | %.1f |\n", path.c_str(),
                    dir == 0 ? "host → device" : "device → host", t * 1e3, bytes / t / 1e9);
      md += line;
    }
    if (mode == HostAccess::kAuto) {
      seen_up = up_path;
      seen_down = down_path;
    }
  }
  std::cout << md;
  if (!out_path.empty()) std::ofstream(out_path) << md;
  return 0;
}
