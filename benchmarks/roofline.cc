// The bandwidth roofline: a plain copy and `c = 2a + b` (vec4 and scalar loads), timed with GPU
// timestamps. Every other benchmark compares itself to these numbers on the same device.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "benchmarks/bench_util.h"
#include "device/buffer.h"
#include "device/pipeline.h"
#include "device/stream.h"
#include "kernels/compile.h"

namespace vka {
namespace {

enum class Mode { kCopy, kAxpb, kFill };

// T: float or vec4. `n` counts elements of T. Grid-stride so any size fits the dispatch limits.
// kFill writes c[i] = T(i) and reads nothing: the write roofline (random numbers' limit).
std::string kernel(const char* type, Mode mode) {
  const bool axpb = mode == Mode::kAxpb;
  const std::string scalar = type[0] == 'd' ? "double" : "float";
  std::string body = axpb                  ? "c[i] = 2.0 * a[i] + b[i];"
                     : mode == Mode::kFill ? std::string("c[i] = ") + type + "(" + scalar + "(i));"
                                           : "c[i] = a[i];";
  return std::string("#version 450\nlayout(local_size_x = 256) in;\n") +
         "layout(set = 0, binding = 0) readonly buffer A { " + type + " a[]; };\n" +
         (axpb ? std::string("layout(set = 0, binding = 1) readonly buffer B { ") + type +
                     " b[]; };\n"
               : "") +
         "layout(set = 0, binding = " + (axpb ? "2" : "1") + ") writeonly buffer C { " + type +
         " c[]; };\n" +
         "layout(push_constant) uniform P { uint n; } p;\n"
         "void main() {\n"
         "  uint stride = gl_NumWorkGroups.x * 256u;\n"
         "  for (uint i = gl_GlobalInvocationID.x; i < p.n; i += stride) { " +
         body + " }\n}\n";
}

struct Row {
  std::string name;
  double bytes_per_element;
  double ms;
};

}  // namespace
}  // namespace vka

int main(int argc, char** argv) {
  using namespace vka;
  const uint64_t elements = std::stoull(bench::flag(argc, argv, "elements", "268435456"));
  const int runs = std::stoi(bench::flag(argc, argv, "runs", "20"));
  const std::string out_path = bench::flag(argc, argv, "markdown", "");

  auto ctx = Context::create(bench::context_options(argc, argv));
  Device& dev = ctx->device(0);
  Stream& s = *ctx->replica(0).stream;
  const uint64_t bytes = elements * 4;
  if (bytes > dev.caps().max_storage_buffer_range) {
    std::fprintf(stderr, "roofline: %llu bytes exceed maxStorageBufferRange (%llu) on %s\n",
                 static_cast<unsigned long long>(bytes),
                 static_cast<unsigned long long>(dev.caps().max_storage_buffer_range),
                 dev.caps().device_name.c_str());
    return 2;
  }
  ReplicatedBuffer a(ctx, bytes), b(ctx, bytes), c(ctx, bytes);
  {  // Random inputs, never zeros (METHOD.md: zeros can be faster than real data).
    std::vector<float> host(elements);
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(-1, 1);
    for (auto& x : host) x = u(rng);
    a.write(host.data(), 0, bytes, std::nullopt);
    for (auto& x : host) x = u(rng);
    b.write(host.data(), 0, bytes, std::nullopt);
  }
  const char* memory = a.is_mapped(0) ? "host-visible device-local memory (mapped)"
                                      : "device-local memory (not host-visible)";
  const uint32_t max_groups = dev.caps().max_compute_work_group_count[0];

  {
    Pipeline warm(dev, compile_glsl(kernel("vec4", Mode::kCopy), "warm-up"), 2, 4, "warm-up");
    const uint32_t n = static_cast<uint32_t>(elements / 4);
    const uint32_t groups = static_cast<uint32_t>(std::min<uint64_t>((n + 255) / 256, max_groups));
    bench::warm_up(0.5, [&] {
      for (int i = 0; i < 10; ++i) {
        s.dispatch(warm, {{a.vk_buffer(0)}, {c.vk_buffer(0)}}, {false, true}, &n, groups);
      }
      s.finish();
    });
  }

  std::vector<Row> rows;
  struct Case {
    const char* name;
    const char* type;
    Mode mode;
    int width;
    double bytes_per_element;
  };
  const Case cases[] = {{"copy c = a (vec4 loads)", "vec4", Mode::kCopy, 4, 8},
                        {"c = 2a + b (vec4 loads)", "vec4", Mode::kAxpb, 4, 12},
                        {"c = 2a + b (scalar loads)", "float", Mode::kAxpb, 1, 12},
                        {"write c = i (vec4 stores, no reads)", "vec4", Mode::kFill, 4, 4},
                        // An invocation's store of 32 bytes covers every other 16 bytes of its
                        // sectors per instruction (why 8-byte outputs use vectors of 2).
                        {"write c = i (dvec2 stores, no reads)", "dvec2", Mode::kFill, 4, 4},
                        {"write c = i (dvec4 stores, no reads)", "dvec4", Mode::kFill, 8, 4}};
  for (const Case& k : cases) {
    const bool axpb = k.mode == Mode::kAxpb;
    Pipeline p(dev, compile_glsl(kernel(k.type, k.mode), k.name), axpb ? 3 : 2, 4, k.name);
    const uint32_t n = static_cast<uint32_t>(elements / k.width);
    const uint32_t groups = static_cast<uint32_t>(std::min<uint64_t>((n + 255) / 256, max_groups));
    std::vector<Binding> bind = {{a.vk_buffer(0)}};
    std::vector<bool> writes = {false};
    if (axpb) {
      bind.push_back({b.vk_buffer(0)});
      writes.push_back(false);
    }
    bind.push_back({c.vk_buffer(0)});
    writes.push_back(true);
    // Each run times `batch` back-to-back dispatches (one submission, no host waits between
    // them) so that the GPU stays at its working clocks; warm-up runs come first.
    const int batch = 10;
    std::vector<double> ms;
    for (int r = 0; r < runs + 5; ++r) {
      s.reset_timestamps();
      uint32_t t0 = s.timestamp();
      for (int i = 0; i < batch; ++i) s.dispatch(p, bind, writes, &n, groups);
      uint32_t t1 = s.timestamp();
      s.finish();
      if (r >= 5) ms.push_back(s.elapsed_ns(t0, t1) * 1e-6 / batch);
    }
    // Check the result, so that a fast wrong kernel cannot pass for a fast one.
    std::vector<float> ha(1024), hb(1024), hc(1024);
    a.read(ha.data(), bytes - 4096, 4096, 0);
    b.read(hb.data(), bytes - 4096, 4096, 0);
    c.read(hc.data(), bytes - 4096, 4096, 0);
    const bool doubles = k.type[0] == 'd';  // kFill of dvec2/dvec4: the last 512 doubles
    for (int i = 0; i < (doubles ? 512 : 1024); ++i) {
      // kFill's value: the index of the vector the element is in.
      const uint64_t vector =
          doubles ? (elements / 2 - 512 + i) / (k.width / 2) : (elements - 1024 + i) / k.width;
      double got = hc[i], want = axpb                    ? 2.0f * ha[i] + hb[i]
                                 : k.mode == Mode::kFill ? static_cast<float>(vector)
                                                         : ha[i];
      if (doubles) {
        std::memcpy(&got, &hc[2 * i], sizeof(double));
        want = static_cast<double>(vector);
      }
      if (got != want) {
        std::fprintf(stderr, "roofline: %s gave %g at %d, expected %g\n", k.name, got, i, want);
        return 1;
      }
    }
    rows.push_back({k.name, k.bytes_per_element, bench::median(ms)});
  }

  std::string md =
      bench::results_header("Bandwidth roofline", *ctx, bench::command_line(argc, argv));
  char line[256];
  std::snprintf(line, sizeof(line),
                "float32, %llu elements (%.3g GiB per array) in %s, median of %d runs "
                "of 10 back-to-back dispatches each, after 0.5 s of warm-up work and 5 warm-up "
                "runs, GPU timestamps.\n\n",
                static_cast<unsigned long long>(elements), bytes / double(1 << 30), memory, runs);
  md += line;
  md += "| kernel | time (ms) | effective GB/s |\n|---|---|---|\n";
  for (const Row& r : rows) {
    std::snprintf(line, sizeof(line), "| %s | %.3f | %.0f |\n", r.name.c_str(), r.ms,
                  r.bytes_per_element * elements / (r.ms * 1e-3) / 1e9);
    md += line;
  }
  std::cout << md;
  if (!out_path.empty()) std::ofstream(out_path) << md;
  return 0;
}
