// GEMM tilings per device (the defaults, the measured ones, the overrides) and the launch of
// GEMM kernels on every replica (runtime/gemm.h).
#include "runtime/gemm.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>

#include "base/errors.h"
#include "runtime/gemm_split.h"
#include "runtime/launch.h"

namespace vka {
namespace {

std::mutex config_mutex;
std::optional<GemmConfig> config_override;
std::optional<GemmCoopConfig> coop_override;  // set_gemm_coop's
std::atomic<bool> coop_emulation{false};       // set_gemm_coop_emulation's
std::atomic<int64_t> config_epoch{0};          // gemm_config_epoch's

// The device limits every replica's device meets.
struct GemmLimits {
  uint32_t invocations = UINT32_MAX, shared = UINT32_MAX;
  uint32_t groups[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  uint64_t max_range = UINT64_MAX;
  bool cpu = false;
  std::string name;        // the devices' name, when they all have the same one
  bool coop = true;        // every device has float16 cooperative matrices
  uint32_t subgroup = 0;   // their subgroup size (0: devices differ)
  bool emulated = false;   // coop through emulated cooperative matrices (tests)
};

GemmLimits limits(const std::shared_ptr<Context>& ctx) {
  GemmLimits l;
  for (int d = 0; d < ctx->num_devices(); ++d) {
    const Caps& c = ctx->device(d).caps();
    l.invocations = std::min(l.invocations, c.max_compute_work_group_invocations);
    l.shared = std::min(l.shared, c.max_compute_shared_memory_size);
    for (int i = 0; i < 3; ++i) {
      l.groups[i] = std::min(l.groups[i], c.max_compute_work_group_count[i]);
    }
    l.max_range = std::min<uint64_t>(l.max_range, c.max_storage_buffer_range);
    l.cpu = l.cpu || c.is_cpu;
    l.name = d == 0 || l.name == c.device_name ? c.device_name : "";
    l.coop = l.coop && c.cooperative_matrix_f16;
    l.subgroup = d == 0 || l.subgroup == c.subgroup_size ? c.subgroup_size : 0;
  }
  l.coop = l.coop && l.subgroup > 0 &&
           kGemmCoopSubgroups * l.subgroup <= l.invocations &&
           (kGemmCoopTile * kGemmCoopK * 2 * 2 + kGemmCoopTile * kGemmCoopTile * 4) <= l.shared;
  if (!l.coop && coop_emulation && l.subgroup > 0) {
    l.emulated = true;
    for (int d = 0; d < ctx->num_devices(); ++d) {
      const Caps& c = ctx->device(d).caps();
      l.emulated = l.emulated && c.shader_float16 && c.storage_buffer_16bit;
    }
    l.coop = l.emulated;
  }
  return l;
}

bool fits(const GemmConfig& c, DType t, const GemmLimits& l) {
  return static_cast<uint32_t>(c.threads()) <= l.invocations &&
         gemm_shared_bytes(c, t) <= l.shared;
}

// Tilings measured best on a device, for 4- and 8-byte real accumulators
// (benchmarks/gemm.cc --sweep, benchmarks/gemm_sweep.py; the tables are in
// benchmarks/results/<device>/gemm.md).
struct TunedTiling {
  const char* device_name;
  size_t word;
  GemmConfig config;
};
constexpr TunedTiling kTuned[] = {
    {"NVIDIA H200", 4, {128, 256, 8, 8, 8}},
    {"NVIDIA H200", 8, {128, 128, 8, 8, 8}},
};

// The default tiling: kTuned's for the device and word size (real dtypes) if it has one, else
// 128 x 128 tiles of 8 x 8 per invocation for 4-byte accumulators on a GPU (256 invocations,
// 8 KiB of shared memory per K slice of 8), 64 x 64 of 4 x 4 for 8- and 16-byte ones (fewer
// registers per invocation);
// small tiles on CPU drivers, where a workgroup's invocations run in turn and big tiles only
// add padding work.
GemmConfig default_config(DType t, const GemmLimits& l) {
  const size_t word = is_complex(t) || itemsize(t) == 8 ? itemsize(t) : 4;
  GemmConfig c;
  if (l.cpu) {
    c = {32, 32, 8, 4, 4};
  } else if (word == 4) {
    c = {128, 128, 8, 8, 8};
  } else {
    c = {64, 64, 8, 4, 4};
  }
  // Shrink until the device takes it: K slice first, then the tile.
  while (!fits(c, t, l)) {
    if (c.bk > 4) {
      c.bk /= 2;
    } else if (c.bm > c.tm * 2 || c.bn > c.tn * 2) {
      c.bm = std::max(c.tm, c.bm / 2);
      c.bn = std::max(c.tn, c.bn / 2);
    } else {
      c = {8, 8, 4, 1, 1};
      break;
    }
  }
  if (!l.cpu && !is_complex(t)) {
    for (const TunedTiling& tuned : kTuned) {
      if (l.name == tuned.device_name && tuned.word == word && fits(tuned.config, t, l)) {
        c = tuned.config;
      }
    }
  }
  return c;
}

void check_config(const GemmConfig& c, DType t, const GemmLimits& l) {
  const std::string what = "[matmul] GEMM tiling " + to_string(c);
  if (c.bm <= 0 || c.bn <= 0 || c.bk <= 0 || c.tm <= 0 || c.tn <= 0 || c.bm % c.tm != 0 ||
      c.bn % c.tn != 0 || c.bm > 1024 || c.bn > 1024 || c.bk > 1024) {
    throw ShapeError(what + " is invalid: bm, bn, bk, tm, tn must be positive (at most 1024), "
                     "bm a multiple of tm and bn a multiple of tn");
  }
  if (static_cast<uint32_t>(c.threads()) > l.invocations) {
    throw ShapeError(what + " needs " + std::to_string(c.threads()) +
                     " invocations per workgroup; the device allows " +
                     std::to_string(l.invocations));
  }
  if (gemm_shared_bytes(c, t) > l.shared) {
    throw ShapeError(what + " needs " + std::to_string(gemm_shared_bytes(c, t)) +
                     " bytes of shared memory for " + std::string(name(t)) +
                     "; the device allows " + std::to_string(l.shared));
  }
}

}  // namespace

GemmConfig parse_gemm_config(const std::string& text) {
  GemmConfig c;
  char x1, x2, x3, x4;
  std::istringstream in(text);
  std::string rest;
  if (!(in >> c.bm >> x1 >> c.bn >> x2 >> c.bk >> x3 >> c.tm >> x4 >> c.tn) || x1 != 'x' ||
      x2 != 'x' || x3 != 'x' || x4 != 'x' || (in >> rest)) {
    throw ShapeError("[matmul] GEMM tiling \"" + text +
                     "\" is not of the form bm x bn x bk x tm x tn (e.g. 128x128x8x8x8)");
  }
  return c;
}

void set_gemm_config(std::optional<GemmConfig> config) {
  std::lock_guard<std::mutex> lock(config_mutex);
  config_override = config;
  ++config_epoch;
}

namespace {

// The override in force: set_gemm_config's, else $VKA_GEMM_CONFIG's, else none.
std::optional<GemmConfig> override_config() {
  std::optional<GemmConfig> c;
  {
    std::lock_guard<std::mutex> lock(config_mutex);
    c = config_override;
  }
  if (!c) {
    const char* env = std::getenv("VKA_GEMM_CONFIG");
    if (env && *env) c = parse_gemm_config(env);
  }
  return c;
}

}  // namespace

GemmCoopConfig parse_gemm_coop(const std::string& text) {
  if (text == "old") return GemmCoopConfig{false};
  if (text == "new") return GemmCoopConfig{};
  GemmCoopConfig c;
  char x1, x2, x3, x4;
  std::istringstream in(text);
  std::string rest;
  if (!(in >> c.bm >> x1 >> c.bn >> x2 >> c.bk >> x3 >> c.fm >> x4 >> c.fn) || x1 != 'x' ||
      x2 != 'x' || x3 != 'x' || x4 != 'x' || (in >> rest)) {
    throw ShapeError("[matmul] cooperative-matrix GEMM kernel \"" + text +
                     "\" is not \"old\", \"new\" or of the form bm x bn x bk x fm x fn "
                     "(e.g. 128x128x32x4x4)");
  }
  const std::string why = gemm_coop_invalid(c);
  if (!why.empty()) {
    throw ShapeError("[matmul] cooperative-matrix GEMM tiling " + text + " is invalid: " + why);
  }
  return c;
}

void set_gemm_coop(std::optional<GemmCoopConfig> config) {
  if (config && !gemm_coop_invalid(*config).empty()) {
    throw ShapeError("[matmul] cooperative-matrix GEMM tiling " + to_string(*config) +
                     " is invalid: " + gemm_coop_invalid(*config));
  }
  std::lock_guard<std::mutex> lock(config_mutex);
  coop_override = config;
  ++config_epoch;
}

namespace {

// The cooperative-matrix kernel override in force: set_gemm_coop's, else $VKA_GEMM_COOP's.
std::optional<GemmCoopConfig> coop_override_config() {
  {
    std::lock_guard<std::mutex> lock(config_mutex);
    if (coop_override) return coop_override;
  }
  const char* env = std::getenv("VKA_GEMM_COOP");
  if (env && *env) return parse_gemm_coop(env);
  return std::nullopt;
}

// The cooperative-matrix spec for these operand layouts: the override's kernel (ShapeError
// when the devices cannot run it), else the pipelined default where it fits the devices, else
// the 64 x 64 kernel (which limits() checked).
KernelSpec coop_spec(const GemmLimits& l, bool a_m_fast, bool b_n_fast) {
  const std::optional<GemmCoopConfig> o = coop_override_config();
  const GemmCoopConfig c = o ? *o : GemmCoopConfig();
  if (l.emulated && !c.pipelined) {
    throw ShapeError("[matmul] the 64 x 64 cooperative-matrix GEMM kernel has no emulation");
  }
  const KernelSpec s = gemm_coop_spec(a_m_fast, b_n_fast, l.subgroup, c, l.emulated);
  const uint32_t threads = gemm_coop_threads(s.gemm), shared = gemm_coop_shared_bytes(s.gemm);
  if (threads <= l.invocations && shared <= l.shared) return s;
  if (o || l.emulated) {
    throw ShapeError("[matmul] cooperative-matrix GEMM tiling " + to_string(c) + " needs " +
                     std::to_string(threads) + " invocations and " + std::to_string(shared) +
                     " bytes of shared memory per workgroup; the device allows " +
                     std::to_string(l.invocations) + " and " + std::to_string(l.shared));
  }
  return gemm_coop_spec(a_m_fast, b_n_fast, l.subgroup, GemmCoopConfig{false});
}

}  // namespace

void set_gemm_coop_emulation(bool on) {
  coop_emulation = on;
  ++config_epoch;
}

int64_t gemm_config_epoch() { return config_epoch; }

std::string gemm_coop_kernel(const std::shared_ptr<Context>& context) {
  const GemmLimits l = limits(context);
  if (!l.coop) return "";
  const KernelSpec s = coop_spec(l, false, true);
  if (!s.gemm.coop || s.gemm.tn == 1) return "old";
  return to_string(GemmCoopConfig{true, s.gemm.bm, s.gemm.bn, s.gemm.bk, s.gemm.tn / 10,
                                  s.gemm.tn % 10});
}

bool gemm_uses_cooperative_matrix(const std::shared_ptr<Context>& context, DType t) {
  return t == DType::kFloat16 && limits(context).coop && !override_config();
}

GemmConfig gemm_config(const std::shared_ptr<Context>& context, DType t) {
  const GemmLimits l = limits(context);
  std::optional<GemmConfig> c = override_config();
  if (!c) return default_config(t, l);
  check_config(*c, t, l);
  return *c;
}

GemmSpec gemm_tiling(const std::shared_ptr<Context>& ctx, DType t, bool a_m_fast,
                     bool b_n_fast) {
  const GemmLimits l = limits(ctx);
  const KernelSpec spec = gemm_uses_cooperative_matrix(ctx, t)
                              ? coop_spec(l, a_m_fast, b_n_fast)
                              : gemm_spec(t, gemm_config(ctx, t), a_m_fast, b_n_fast);
  return spec.gemm;
}

void launch_gemm(const std::shared_ptr<Context>& ctx, const ScheduledKernel& k,
                 const std::vector<const ReplicatedBuffer*>& args, std::optional<int> only) {
  KernelSpec spec = k.spec;
  const GemmLimits l = limits(ctx);
  for (const ReplicatedBuffer* b : args) {
    if (b->nbytes() > l.max_range && spec.gemm.coop) {
      throw DeviceError("[matmul] an operand of " + std::to_string(b->nbytes()) +
                        " bytes exceeds the device's maxStorageBufferRange (" +
                        std::to_string(l.max_range) +
                        "), which the cooperative-matrix kernel binds whole");
    }
  }
  // Slots hold two int32 values each (kernels/gen/gemm.h): c0 (M, N), c1 (K, batch).
  auto word = [&k](int i, int half) {
    return (static_cast<uint64_t>(k.params.slots[i].as_int()) >> (32 * half)) & 0xffffffffu;
  };
  const uint64_t m = word(0, 0), n = word(0, 1), batch = word(1, 1);
  const int64_t splits = gemm_splits(ctx, spec, static_cast<int64_t>(m), static_cast<int64_t>(n),
                                     static_cast<int64_t>(word(1, 0)),
                                     static_cast<int64_t>(batch));
  if (splits > 1) {
    launch_gemm_split(ctx, k, args, only, splits);
    return;
  }
  const uint64_t tiles_n = (n + spec.gemm.bn - 1) / spec.gemm.bn;
  const uint64_t tiles_m = (m + spec.gemm.bm - 1) / spec.gemm.bm;
  const uint32_t gx = static_cast<uint32_t>(std::min<uint64_t>(tiles_n, l.groups[0]));
  const uint32_t gy = static_cast<uint32_t>(std::min<uint64_t>(tiles_m, l.groups[1]));
  const uint32_t gz = static_cast<uint32_t>(std::min<uint64_t>(batch, l.groups[2]));
  // Operands past a binding are addressed, and an epilogue's constants may need an argument
  // buffer. GEMM kernels reach every buffer whole (matmul refuses 2^31 elements).
  choose_interface(ctx, spec, args);
  std::vector<Window> whole;
  for (const ReplicatedBuffer* b : args) whole.push_back({0, b->nbytes()});
  dispatch_spec(ctx, spec, args, whole, k.params, only,
                [&](const Caps&) { return std::array<uint64_t, 3>{gx, gy, gz}; });
}

}  // namespace vka
