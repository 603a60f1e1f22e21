// Cuts a graph of elementwise nodes into kernels (KernelSpec + LaunchParams each).
//
// The rules, in order:
//  1. Every requested node (target) that is not a leaf is written by some kernel.
//  2. Materialized nodes (targets, and the nodes rule 3 or a limit adds) are grouped into
//     one kernel per (stage, shape): all outputs of a kernel share its iteration shape, and a
//     kernel only reads values materialized by kernels of an earlier stage.
//  3. Shared values: inside a kernel every node is computed once (the graph hash-conses, the
//     tape has one entry per node). A non-target node that two kernels would both compute is
//     materialized instead (written by the kernel of its own shape, read by the others).
//     A node used by one kernel is fused into it even across a broadcast (recomputed per
//     output element, which is cheaper than a round trip through memory for elementwise ops).
//  4. Leaves (buffers) are read in place through their views: broadcasting and strides cost
//     no copy. Constants (full) are push constants, never buffers.
//  5. Limits: a kernel over a limit materializes one of its interior nodes as an earlier
//     kernel and tries again; each split records why (ScheduledKernel::reason). The number of
//     constants, views and inputs is no limit: arguments travel in an argument buffer when
//     they outgrow push constants, views of one storage share its binding, and operands past
//     the device's descriptors are addressed (runtime/launch.h: choose_interface).
//  6. A matrix product (kMatmul) is a GEMM kernel of its own over its materialized operands.
//     When one elementwise kernel over the product's shape is its only reader (the product is
//     no target and no other kernel reads it), that kernel's tape runs as the GEMM's epilogue
//     and the product is never written (schedule/gemm.h).
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"
#include "ir/kernel_spec.h"

namespace vka {

// The limits that stop fusion. Defaults are Vulkan's guaranteed minimums where one exists.
struct Limits {
  // SSA values per kernel: generated shaders grow with the tape, and with them compile time
  // and register pressure (docs/DESIGN.md, "Fusion limits", has the measurements).
  int max_tape = kMaxTape;
  uint32_t max_shared_bytes = 16384;  // maxComputeSharedMemorySize (minimum 16384): GEMMs
  // Descriptors a GEMM kernel may bind (its operands are never addressed), counting an argument
  // buffer when its block exceeds push constants: an epilogue that would need more stays a
  // kernel of its own. The least of maxPerStageDescriptorStorageBuffers and maxPushDescriptors,
  // and maxPushConstantsSize.
  int max_gemm_bindings = 4;
  int max_push_constant_bytes = 128;
  // Transcendental functions per kernel, weighted by transcendental_weight (schedule.h): each
  // is a routine of tens of lines, and compilers' time grows faster than linearly with them
  // (docs/DESIGN.md, "Fusion limits"). Lower on CPU devices (limits_of).
  int max_transcendental = kMaxTranscendental;
  // The same for a kernel of one element (a 0-d value), which one invocation runs: its code is
  // fetched once, by one subgroup, and past a size it is fetched at the instruction cache's
  // miss rate. Measured on NVIDIA H100 and H200: 12 float64 tanh in a 0-d kernel 11.5 us of
  // GPU time, 16 in 17, 24 in 22.5, 32 in 118, 48 in 135-163 (docs/DESIGN.md, "Fusion limits").
  int max_scalar_transcendental = kMaxScalarTranscendental;
  // Every kernel's KernelSpec::fma: its tape's multiply-adds may be contracted (VKA_FMA=1).
  bool fma = false;
  // The tiling of a product of dtype t whose operands' stride-1 axes are `layout`: the
  // device's (runtime/gemm.h: gemm_tiling; realize sets it). Needed only to schedule a product.
  std::function<GemmSpec(DType t, MatmulInfo layout)> gemm_tiling;
  static constexpr int kMaxTape = 4096;
  static constexpr int kMaxTranscendental = 64;
  static constexpr int kMaxCpuTranscendental = 16;
  static constexpr int kMaxScalarTranscendental = 16;
};

// A tape entry's weight against Limits::max_transcendental, from its op's cost (ops.def): 0 for
// arithmetic, 1 for an exponential, logarithm or hyperbolic function, 4 for a trigonometric one
// in float64 or any transcendental function of a complex value (a float64 sine reduces its
// argument with Payne-Hanek).
int transcendental_weight(const TapeEntry& e);

struct ScheduledKernel {
  KernelSpec spec;
  LaunchParams params;
  std::vector<NodePtr> inputs;   // bound as inputs, in binding order (leaves or materialized)
  std::vector<NodePtr> outputs;  // the nodes this kernel writes, in binding order
  // Per params.slots value, the constant (full) node it holds, or null (a gather's strides, a
  // mean's divisor, a GEMM's layout); empty when not known. Plans reused by structure put the
  // new graph's constants there (plan_cache.h).
  std::vector<const Node*> slot_nodes;
  std::string reason;  // why this kernel was split off; empty when it wasn't
};

struct Schedule {
  std::vector<ScheduledKernel> kernels;  // in execution order
  // One line per kernel: "ew_f32_2in_1out_contig shape=(1000,) writes %7 [split: ...]".
  std::string to_string() const;
};

// `destinations`: targets written into an existing buffer through the leaf's view (same
// shape and dtype) instead of a fresh contiguous buffer.
Schedule schedule(const std::vector<NodePtr>& targets, const Limits& limits = Limits(),
                  const std::unordered_map<const Node*, NodePtr>& destinations = {});

}  // namespace vka
