// Host ↔ device transfers of arrays: from and into pinned host memory (what vkarray.HostArray
// holds: one copy command, no staging) against pageable memory (the staged or direct paths),
// next to the link's rate as one bare copy command measures it with GPU timestamps; and the
// overlap of a transfer on the device's transfer stream (its dedicated transfer queue family:
// the copy engines) with kernels on the replica's compute stream.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "array/array.h"
#include "array/transfer.h"
#include "benchmarks/bench_util.h"
#include "device/host_memory.h"
#include "device/stream.h"
#include "runtime/realize.h"

namespace vka {
namespace {

HostView pinned_view(HostBuffer& buf, int64_t n) {
  HostView v;
  v.data = static_cast<uint8_t*>(buf.data());
  v.shape = {n};
  v.strides = {4};
  v.dtype = DType::kFloat32;
  v.pinned = &buf;
  return v;
}

// GPU time of one bare copy command of `bytes` (the link's rate, no host work).
double probe_ms(Stream& s, VkBuffer src, VkBuffer dst, uint64_t bytes) {
  s.reset_timestamps();
  const uint32_t t0 = s.timestamp();
  s.copy(src, 0, dst, 0, bytes);
  const uint32_t t1 = s.timestamp();
  s.finish();
  return s.elapsed_ns(t0, t1) * 1e-6;
}

// K dependent elementwise kernels over `x`, on replica `replica` only. `salt` varies the
// constants, so that no run finds its expressions already computed by an earlier one.
Array compute(Array x, int kernels, int replica, int salt = 0) {
  for (int k = 0; k < kernels; ++k) {
    x = x * (1.0001f + 1e-6f * static_cast<float>(salt)) + 0.5f;
    x.eval(replica);
  }
  return x;
}

}  // namespace
}  // namespace vka

int main(int argc, char** argv) {
  using namespace vka;
  const uint64_t bytes = std::stoull(bench::flag(argc, argv, "mib", "1024")) << 20;
  const int runs = std::stoi(bench::flag(argc, argv, "runs", "7"));
  const int kernels = std::stoi(bench::flag(argc, argv, "kernels", "40"));
  const double link_ref = std::stod(bench::flag(argc, argv, "reference-gbs", "51"));
  const std::string out_path = bench::flag(argc, argv, "markdown", "");
  const int64_t n = static_cast<int64_t>(bytes / 4);

  // Pinned-host copies run on the device's transfer stream: its dedicated transfer family
  // where it has one (transfer_queue auto; VKA_TRANSFER_QUEUE may say otherwise). A device
  // without one (lavapipe) gets a shared stream on its compute queue, which runs the same
  // code but is no overlap measurement.
  std::shared_ptr<Context> ctx = Context::create();
  bool dedicated = ctx->device(0).transfer_stream() != nullptr &&
                   ctx->transfer_queue().rfind("dedicated", 0) == 0;
  if (!ctx->device(0).transfer_stream()) {
    ContextOptions shared;
    shared.transfer_queue = TransferQueue::kShared;
    ctx = Context::create(shared);
  }
  Stream& ts = *ctx->device(0).transfer_stream();
  Stream& s0 = *ctx->replica(0).stream;
  std::string md = bench::results_header("Array transfers: pinned host arrays and overlap", *ctx,
                                         bench::command_line(argc, argv));
  char line[1024];

  HostBuffer pinned(ctx, 0, bytes), pinned_back(ctx, 0, bytes);
  std::vector<uint8_t> pageable(bytes), pageable_back(bytes);
  auto* f = static_cast<float*>(pinned.data());
  for (int64_t i = 0; i < n; ++i) f[i] = static_cast<float>(i % 1000);
  std::memcpy(pageable.data(), pinned.data(), bytes);
  Array x = empty_padded({n}, {n}, DType::kFloat32, ctx);
  auto dev = device_buffer(*x.node()->buffer());

  // The link: one bare copy command each way, GPU-timed.
  std::vector<double> probe_up, probe_down;
  for (int r = 0; r < runs + 1; ++r) {
    double u = probe_ms(s0, pinned.vk_buffer(), dev->vk_buffer(0), bytes);
    double d = probe_ms(s0, dev->vk_buffer(0), pinned_back.vk_buffer(), bytes);
    if (r > 0) {
      probe_up.push_back(u);
      probe_down.push_back(d);
    }
  }
  const double link_up = bytes / (bench::median(probe_up) * 1e-3) / 1e9;
  const double link_down = bytes / (bench::median(probe_down) * 1e-3) / 1e9;
  // The same on the transfer queue, where its family writes timestamps.
  std::string transfer_link = "the transfer queue's family writes no timestamps";
  if (ts.has_timestamps()) {
    std::vector<double> up, down;
    for (int r = 0; r < runs + 1; ++r) {
      double u = probe_ms(ts, pinned.vk_buffer(), dev->vk_buffer(0), bytes);
      double d = probe_ms(ts, dev->vk_buffer(0), pinned_back.vk_buffer(), bytes);
      if (r > 0) {
        up.push_back(u);
        down.push_back(d);
      }
    }
    std::snprintf(line, sizeof(line), "%.1f GB/s host → device, %.1f GB/s device → host",
                  bytes / (bench::median(up) * 1e-3) / 1e9,
                  bytes / (bench::median(down) * 1e-3) / 1e9);
    transfer_link = line;
  }

  // Arrays: wall clock of set/get (sync) from pinned and pageable memory.
  struct Row {
    const char* path;
    const char* dir;
    std::vector<double> t;
  };
  std::vector<Row> rows = {{"HostArray (pinned, one copy)", "host → device", {}},
                           {"HostArray (pinned, one copy)", "device → host", {}},
                           {"numpy (pageable)", "host → device", {}},
                           {"numpy (pageable)", "device → host", {}}};
  HostView pv;
  pv.data = pageable.data();
  pv.shape = {n};
  pv.strides = {4};
  HostView pbv = pv;
  pbv.data = pageable_back.data();
  for (int r = 0; r < runs + 1; ++r) {
    for (int k = 0; k < 4; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      Event e(ctx);
      if (k == 0) upload(x, pinned_view(pinned, n), 0, e);
      if (k == 1) download(x, pinned_view(pinned_back, n), 0, e);
      if (k == 2) upload(x, pv, 0, e);
      if (k == 3) download(x, pbv, 0, e);
      e.wait();
      if (r > 0) rows[k].t.push_back(bench::seconds_since(t0));
    }
  }
  if (std::memcmp(pinned_back.data(), pinned.data(), bytes) != 0 || pageable_back != pageable) {
    std::fprintf(stderr, "host_transfer: round trip corrupted data\n");
    return 1;
  }
  std::snprintf(line, sizeof(line),
                "%.3g GiB, median of %d runs after 1 warm-up. Link: one bare copy command from "
                "pinned memory, GPU-timed, on the compute queue: %.1f GB/s host → device, "
                "%.1f GB/s device → host (reference: %.0f GB/s, docs' staging-buffer probe); "
                "on the transfer queue (%s): %s. Arrays: wall clock of x.set / x.get including "
                "the wait; HostArray copies run on the transfer queue.\n\n"
                "| path | direction | time (ms) | GB/s | of link | of reference |\n"
                "|---|---|---|---|---|---|\n",
                bytes / double(1 << 30), runs, link_up, link_down, link_ref,
                ctx->transfer_queue().c_str(), transfer_link.c_str());
  md += line;
  for (const Row& row : rows) {
    const double t = bench::median(row.t);
    const double gbs = bytes / t / 1e9;
    const double link = row.dir[0] == 'h' ? link_up : link_down;
    std::snprintf(line, sizeof(line), "| %s | %s | %.2f | %.1f | %.0f%% | %.0f%% |\n", row.path,
                  row.dir, t * 1e3, gbs, 100 * gbs / link, 100 * gbs / link_ref);
    md += line;
  }

  // Overlap: a host → device transfer on the transfer stream while the replica's compute
  // stream runs `kernels` dependent kernels over another array.
  md += "\n### Transfer and compute on two queues\n\n";
  const uint32_t compute_family = ctx->device(0).queue_family();
  if (dedicated) {
    std::snprintf(line, sizeof(line),
                  "The copy runs on the transfer queue (%s); the kernels on the compute queue "
                  "(family %u).\n\n",
                  ctx->transfer_queue().c_str(), compute_family);
  } else {
    std::snprintf(line, sizeof(line),
                  "The device has no dedicated transfer queue family: the copy runs on a "
                  "second stream of the compute queue (family %u), so the figures below say "
                  "nothing about overlap.\n\n",
                  compute_family);
  }
  md += line;
  {
    // Each run starts again from y0, so that no run finds its expressions computed before.
    // Distinct values in memory (a zeros() would stay a constant, and kernels over it fold).
    Array y0 = arange(0, static_cast<double>(n / 4), 1, DType::kFloat32, ctx);
    y0.eval();
    Array y = compute(y0, 1, 0);
    ctx->synchronize();
    std::vector<double> t_copy, t_compute, t_both, gpu_copy, gpu_compute;
    uint64_t compute_waits = 0;
    for (int r = 0; r < runs + 1; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      Event e(ctx);
      upload(x, pinned_view(pinned, n), 0, e);
      e.wait();
      const double c = bench::seconds_since(t0);
      t0 = std::chrono::steady_clock::now();
      y = compute(y0, kernels, 0, 2 * r + 1);
      ctx->synchronize();
      const double k = bench::seconds_since(t0);
      s0.reset_timestamps();
      if (ts.has_timestamps()) ts.reset_timestamps();
      const uint64_t waits0 = s0.stats().queue_waits;
      t0 = std::chrono::steady_clock::now();
      const uint32_t a0 = ts.has_timestamps() ? ts.timestamp() : 0;
      Event both(ctx);
      upload(x, pinned_view(pinned, n), 0, both);  // submitted: runs while kernels record
      const uint32_t a1 = ts.has_timestamps() ? ts.timestamp() : 0;
      ts.submit();
      const uint32_t b0 = s0.timestamp();
      y = compute(y0, kernels, 0, 2 * r + 2);
      const uint32_t b1 = s0.timestamp();
      ctx->synchronize();
      const double b = bench::seconds_since(t0);
      compute_waits += s0.stats().queue_waits - waits0;
      if (r > 0) {
        t_copy.push_back(c);
        t_compute.push_back(k);
        t_both.push_back(b);
        if (ts.has_timestamps()) gpu_copy.push_back(ts.elapsed_ns(a0, a1) * 1e-6);
        gpu_compute.push_back(s0.elapsed_ns(b0, b1) * 1e-6);
      }
    }
    const double c = bench::median(t_copy) * 1e3, k = bench::median(t_compute) * 1e3,
                 b = bench::median(t_both) * 1e3;
    std::snprintf(line, sizeof(line),
                  "Host → device copy of %.3g GiB (transfer queue, %s) and %d dependent kernels "
                  "over %.3g GiB (compute queue, family %u), independent buffers, wall clock, "
                  "median of %d runs.\n\n"
                  "| work | time (ms) |\n|---|---|\n| copy alone | %.2f |\n"
                  "| kernels alone | %.2f |\n| both, submitted together | %.2f |\n"
                  "| sum of the two alone | %.2f |\n| overlap (sum − both) / min | %.0f%% |\n\n",
                  bytes / double(1 << 30), ctx->transfer_queue().c_str(), kernels,
                  bytes / 4.0 / double(1 << 30), compute_family, runs, c, k, b, c + k,
                  100 * (c + k - b) / std::min(c, k));
    md += line;
    if (gpu_copy.empty()) {
      std::snprintf(line, sizeof(line),
                    "GPU timestamps in the concurrent run: kernel queue %.2f ms (the transfer "
                    "queue's family writes no timestamps).",
                    bench::median(gpu_compute));
    } else {
      std::snprintf(line, sizeof(line),
                    "GPU timestamps in the concurrent run: copy queue %.2f ms, kernel queue "
                    "%.2f ms.",
                    bench::median(gpu_copy), bench::median(gpu_compute));
    }
    md += line;
    std::snprintf(line, sizeof(line),
                  " Queue waits of the compute stream in the concurrent runs: %llu (the kernels "
                  "never touch the copied array, so they never wait for the copy).\n",
                  static_cast<unsigned long long>(compute_waits));
    md += line;
  }
  std::cout << md;
  if (!out_path.empty()) std::ofstream(out_path) << md;
  return 0;
}
