// matmul: numpy's operand rules (1-d promotion, batch broadcasting, dtypes, errors), the
// per-device tiling, the lazy product node, and the launch of GEMM kernels on every replica.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>
#include <sstream>

#include "array/array.h"
#include "array/gemm_split.h"
#include "array/launch.h"
#include "array/promotion.h"
#include "array/realize.h"
#include "array/reduce.h"
#include "array/views.h"
#include "device/errors.h"

namespace vka {
namespace {

std::mutex config_mutex;
std::optional<GemmConfig> config_override;
std::optional<GemmCoopConfig> coop_override;  // set_gemm_coop's
std::atomic<bool> coop_emulation{false};       // set_gemm_coop_emulation's

constexpr const char* kSignature = "(n?,k),(k,m?)->(n?,m?)";

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

// The default tiling: kTuned's for the device and word size (real dtypes) if it has one, else 128 x 128 tiles of 8 x 8 per
// invocation for 4-byte accumulators on a GPU (256 invocations, 8 KiB of shared memory per K
// slice of 8), 64 x 64 of 4 x 4 for 8- and 16-byte ones (fewer registers per invocation);
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

std::string shape_text(const Shape& s) { return to_string(s); }

// `x` (batch dims then two core dims) broadcast to `batch` and reshaped to 3-d.
Array as_batched(const Array& x, const Shape& batch, int64_t batch_size) {
  Shape full = batch;
  full.push_back(x.shape()[x.ndim() - 2]);
  full.push_back(x.shape()[x.ndim() - 1]);
  Array b = x.shape() == full ? x : broadcast_to(x, full);
  return reshape(b, {batch_size, full[full.size() - 2], full[full.size() - 1]});
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

void set_gemm_coop_emulation(bool on) { coop_emulation = on; }

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

Array matmul(const Array& a, const Array& b) {
  for (int i = 0; i < 2; ++i) {
    const Array& x = i == 0 ? a : b;
    if (x.ndim() == 0) {
      throw ShapeError("matmul: Input operand " + std::to_string(i) +
                       " does not have enough dimensions (has 0, gufunc core with signature " +
                       kSignature + " requires 1)");
    }
  }
  const std::shared_ptr<Context>& ctx = a.context();
  if (b.context() != ctx) throw ShapeError("[matmul] operands live on different contexts");
  const DType t = result_type(a.dtype(), b.dtype());
  const Array a2 = a.ndim() == 1 ? reshape(a, {1, a.shape()[0]}) : a;
  const Array b2 = b.ndim() == 1 ? reshape(b, {b.shape()[0], 1}) : b;
  const int64_t m = a2.shape()[a2.ndim() - 2], k = a2.shape()[a2.ndim() - 1];
  const int64_t kb = b2.shape()[b2.ndim() - 2], n = b2.shape()[b2.ndim() - 1];
  if (k != kb) {
    throw ShapeError("matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                     "gufunc signature " + std::string(kSignature) + " (size " +
                     std::to_string(kb) + " is different from " + std::to_string(k) + ")");
  }
  const Shape batch_a(a2.shape().begin(), a2.shape().end() - 2);
  const Shape batch_b(b2.shape().begin(), b2.shape().end() - 2);
  Shape batch;
  try {
    batch = broadcast_shapes("matmul", batch_a, batch_b);
  } catch (const ShapeError&) {
    throw ShapeError("matmul: operands could not be broadcast together: batch shapes " +
                     shape_text(batch_a) + " and " + shape_text(batch_b) + " (shapes " +
                     shape_text(a.shape()) + " and " + shape_text(b.shape()) + ")");
  }
  Shape out_shape = batch;
  if (a.ndim() > 1) out_shape.push_back(m);
  if (b.ndim() > 1) out_shape.push_back(n);
  const int64_t nbatch = size(batch);
  if (nbatch == 0 || m == 0 || n == 0) return zeros(out_shape, t, ctx);
  const int64_t limit = int64_t{1} << 31;
  if (nbatch * m * n >= limit || nbatch * m * k >= limit || nbatch * k * n >= limit) {
    throw ShapeError("[matmul] operands or results of 2^31 elements or more are not supported "
                     "yet (shapes " + shape_text(a.shape()) + " and " + shape_text(b.shape()) +
                     ")");
  }
  if (k == 0) return zeros(out_shape, t, ctx);
  if ((m == 1 || n == 1) && t != DType::kBool && t != DType::kFloat16) {
    // A matrix-vector product reads the matrix once: as the fused reduction sum(A * x), with
    // the matrix as the leading operand (it picks the reduction's memory-friendly strategy),
    // it runs at the bandwidth roofline, where a GEMM leaves all but one row or column of its
    // tiles idle and parallelizes over one dimension only.
    const Array ac = a2.dtype() == t ? a2 : a2.astype(t);
    const Array bc = b2.dtype() == t ? b2 : b2.astype(t);
    ReduceOptions o;
    o.dtype = t;
    if (a.ndim() == 1 && b.ndim() == 1) {
      return sum((a.dtype() == t ? a : a.astype(t)) * (b.dtype() == t ? b : b.astype(t)), Axes(),
                 o);
    }
    const Array r = n == 1 ? sum(ac * swapaxes(bc, -1, -2), Axes(int64_t{-1}), o)
                           : sum(bc * swapaxes(ac, -1, -2), Axes(int64_t{-2}), o);
    return r.shape() == out_shape ? r : reshape(r, out_shape);
  }
  const Array ac = as_batched(a2.dtype() == t ? a2 : a2.astype(t), batch, nbatch);
  const Array bc = as_batched(b2.dtype() == t ? b2 : b2.astype(t), batch, nbatch);
  // Operands are read in place through their 3-d views (as_batched realizes them).
  const NodePtr na = Array(ac).eval().node(), nb = Array(bc).eval().node();
  const View& va = na->view();
  const View& vb = nb->view();
  const GemmLimits l = limits(ctx);
  const bool coop = gemm_uses_cooperative_matrix(ctx, t);
  const GemmConfig config = gemm_config(ctx, t);
  // Each tile loader walks the operand's stride-1 axis fastest (A: m when A is a transposed
  // view; B: n unless B is transposed).
  const bool a_m_fast = va.strides[1] == 1 && va.strides[2] != 1;
  const bool b_n_fast = !(vb.strides[1] == 1 && vb.strides[2] != 1);
  const KernelSpec spec = coop ? coop_spec(l, a_m_fast, b_n_fast)
                                : gemm_spec(t, config, a_m_fast, b_n_fast);
  return Array(default_graph().matmul(na, nb, out_shape, spec.gemm), ctx);
}

void launch_gemm(const std::shared_ptr<Context>& ctx, const ScheduledKernel& k,
                 const std::vector<const ReplicatedBuffer*>& args, std::optional<int> only) {
  const KernelSpec& spec = k.spec;
  const GemmLimits l = limits(ctx);
  for (const ReplicatedBuffer* b : args) {
    if (b->nbytes() > l.max_range) {
      throw DeviceError("[matmul] an operand of " + std::to_string(b->nbytes()) +
                        " bytes exceeds the device's maxStorageBufferRange (" +
                        std::to_string(l.max_range) + "); not supported yet");
    }
  }
  // Slots hold two int32 values each (kernels/gemm.h): c0 (M, N), c1 (K, batch).
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
  std::vector<Window> whole;  // GEMM kernels bind every buffer whole
  for (const ReplicatedBuffer* b : args) whole.push_back({0, b->nbytes()});
  dispatch_spec(ctx, spec, args, whole, k.params, only,
                [&](const Caps&) { return std::array<uint64_t, 3>{gx, gy, gz}; });
}

}  // namespace vka
