// GEMM tilings per device: the defaults, the tilings measured best on a device, the process-wide
// overrides (set_gemm_config, set_gemm_coop, $VKA_GEMM_CONFIG, $VKA_GEMM_COOP), and the launch
// of GEMM kernels (runtime/launch.h: launch_gemm).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "device/context.h"
#include "kernels/gen/gemm.h"
#include "runtime/gemm_split.h"

namespace vka {

// The tiling of the GEMM kernels of dtype `t` on `context`'s devices: the override
// (set_gemm_config, else $VKA_GEMM_CONFIG = "bm x bn x bk x tm x tn", e.g. "128x128x8x8x8")
// or the default for the device, fitted to maxComputeWorkGroupInvocations and
// maxComputeSharedMemorySize. An override that does not fit throws ValueError naming it.
GemmConfig gemm_config(const std::shared_ptr<Context>& context, DType t);
// True when matmul of dtype `t` runs on cooperative matrices on `context`: float16, every
// device offers them (Caps::cooperative_matrix_f16) and no tiling override is set (an override
// selects the generic kernel, so a sweep can compare).
bool gemm_uses_cooperative_matrix(const std::shared_ptr<Context>& context, DType t);
// Sets (or, with nullopt, clears) the process-wide tiling override; it wins over the variable.
void set_gemm_config(std::optional<GemmConfig> config);
// "128x128x8x8x8" → GemmConfig; ValueError for anything else.
GemmConfig parse_gemm_config(const std::string& text);

// The float16 cooperative-matrix kernel (kernels/gen/gemm.h, GemmCoopConfig): the override
// (set_gemm_coop, else $VKA_GEMM_COOP = "old", "new" or "bm x bn x bk x fm x fn", e.g.
// "128x128x32x4x4"; one the device cannot run throws ValueError naming it), else the
// pipelined default where the device has the invocations and shared memory for it, else the
// 64 x 64 kernel ("old").
// Sets (or, with nullopt, clears) the process-wide override; it wins over the variable.
void set_gemm_coop(std::optional<GemmCoopConfig> config);
// "old", "new" (the default tiling) or "bm x bn x bk x fm x fn" → GemmCoopConfig; ValueError
// for anything else or an invalid tiling.
GemmCoopConfig parse_gemm_coop(const std::string& text);
// The kernel float16 products of row-major operands run on `context` ("old" or the tiling,
// as to_string(GemmCoopConfig)); "" when its devices lack cooperative matrices.
std::string gemm_coop_kernel(const std::shared_ptr<Context>& context);
// Tests on devices without cooperative matrices (lavapipe): while on, float16 products there
// run the pipelined cooperative-matrix kernel with emulated fragments (kernels/gen/gemm.h: slow,
// but the kernel's own indexing, synchronization and bindings). Off by default.
void set_gemm_coop_emulation(bool on);

// Counts the changes of the overrides above: products built in different epochs are different
// graph nodes (ir/graph.h: MatmulInfo::epoch), so one built after a change is computed with the
// new tiling instead of reusing a value computed with the old one.
int64_t gemm_config_epoch();

// The tiling of a product of dtype `t` on `context`'s devices, whose A tile loads walk m fastest
// (`a_m_fast`) and B tile loads n (`b_n_fast`): cooperative matrices where
// gemm_uses_cooperative_matrix, else gemm_config's. ShapeError for an override the devices
// cannot run.
GemmSpec gemm_tiling(const std::shared_ptr<Context>& context, DType t, bool a_m_fast,
                     bool b_n_fast);

}  // namespace vka
