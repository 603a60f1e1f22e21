// The plain-data contract between the scheduler and kernel generation: structure only.
// Sizes, strides, offsets and scalar values travel in LaunchParams, so a kernel cache keyed on
// KernelSpec compiles `a*b+c` once for every size and every constant.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/dtype.h"
#include "ir/ops.h"
#include "ir/scalar.h"
#include "ir/view.h"

namespace vka {

// kElementwise: generated from the tape (kernels/gen/elementwise.h). The others are fixed library
// kernels (kernels/lib/scan.h) whose spec only carries their accessors' dtypes: prefix sums of
// flags for compaction (nonzero, boolean-mask reads), and scatters (assignment through index
// arrays).
enum class KernelKind : uint8_t {
  kElementwise,
  kScanBlocks,
  kScanAdd,
  kCompact,
  kScatterClaim,
  kScatterWrite,
  kSearchSorted,
  // The radix sort's kernels and bincount's ordered sums (kernels/lib/sort.h).
  kSortKeys,
  kSortHistogram,
  kSortScatter,
  kSortOffsets,
  kSegmentSum,
  kBincount,
  kCumulativeReduce,  // scans (kernels/lib/cumulative.h)
  kCumulativeRows,
  kCumulativeLines,
  kReduce,  // generated: a reduction of the tape's value (kernels/gen/reduce.h)
  kGemm,    // generated: batched matrix products (kernels/gen/gemm.h)
  // Batched matrix factorizations (kernels/lib/linalg.h).
  kLuFactor,
  kLuSolve,
  kLuPanel,   // LU panels by tournament pivoting
  kLuChunks,  // blocked triangular solves of a few right-hand sides
  kCholesky,
  kQr,
  kSvdJacobi,
  kEighJacobi,
  kSvdJacobiWide,  // one phase of the wide (whole-device) Jacobi solvers
  kEighJacobiWide,
  // vka::random's rejection and sequential samplers (kernels/lib/random_draw.h).
  kRandomGamma,
  kRandomPoisson,
  kRandomBinomial,
  kRandomHypergeometric,
  kRandomZipf,
  kRandomVonmises,
  kRandomLogseries,
};

// How a reduction kernel maps its work to invocations (kernels/gen/reduce.h), chosen per launch
// from the layout: kSerial, one invocation per (output, split) walking its slice of the
// reduced elements in order (the kept index is the fast one, so neighbouring invocations read
// neighbouring elements when the kept axis is the contiguous one); kCooperative, one
// workgroup per (output, split), its invocations striding through the slice and combining
// in shared memory (the reduced index is the fast one).
enum class ReduceStrategy : uint8_t { kSerial, kCooperative };

// The reduction of a KernelKind::kReduce spec. The iteration space is the input's, permuted so the
// `kept` leading dims are the result's and the rest are reduced. Results are deterministic:
// every combination happens in a fixed order for a given launch shape.
struct ReduceSpec {
  Op op = Op::kBuffer;          // a kReduce row of ops.def
  DType acc = DType::kFloat32;  // accumulation dtype: the tape result's
  int kept = 0;
  ReduceStrategy strategy = ReduceStrategy::kSerial;
  // Splits: a launch may divide each output's reduced elements between several invocations
  // or workgroups. The partial pass writes one state per (output, split): out0 values in
  // `acc` (and out1 int64 indices for arg ops); the combining pass reads them (in0, in1) in
  // place of a tape and writes the result.
  bool partial = false;
  bool combine = false;
  int32_t divisor_slot = -1;  // kMean: the slot holding the divisor (real dtype of acc)
  bool operator==(const ReduceSpec& o) const {
    return op == o.op && acc == o.acc && kept == o.kept && strategy == o.strategy &&
           partial == o.partial && combine == o.combine && divisor_slot == o.divisor_slot;
  }
};

// The tiling of a KernelKind::kGemm spec (kernels/gen/gemm.h): each workgroup computes bm x bn
// results of one matrix, stepping through K in slices of bk held in shared memory; each
// invocation keeps tm x tn accumulators in registers, so a workgroup has (bm/tm)*(bn/tn)
// invocations. a_m_fast / b_n_fast: the order in which a workgroup's invocations load the A
// (B) tile, chosen so that neighbouring invocations read neighbouring elements (the operand's
// stride 1 axis). vec4: shared memory is read as 4-vectors (tm and tn multiples of 4, real
// dtypes), each invocation owning runs of 4 adjacent rows and columns. coop: float16 through
// the device's cooperative matrices (tm: the device's subgroup size, tn: which kernel; with
// vec4, cooperative matrices emulated for tests; see kernels/gen/gemm.h).
// split: the passes of a split-K product (kernels/gen/gemm.h), chosen at launch: kWhole, one
// kernel; kPartial, the product of each K range written in the accumulator dtype; kCombine,
// the ranges' partial products summed in order, rounded, and stored or fed to the epilogue.
enum class GemmSplit : uint8_t { kWhole, kPartial, kCombine };
struct GemmSpec {
  int16_t bm = 0, bn = 0, bk = 0, tm = 0, tn = 0;
  bool a_m_fast = false;
  bool b_n_fast = true;
  bool vec4 = false;
  bool coop = false;
  GemmSplit split = GemmSplit::kWhole;
  bool operator==(const GemmSpec& o) const {
    return bm == o.bm && bn == o.bn && bk == o.bk && tm == o.tm && tn == o.tn &&
           a_m_fast == o.a_m_fast && b_n_fast == o.b_n_fast && vec4 == o.vec4 && coop == o.coop &&
           split == o.split;
  }
};

// How a kernel addresses one operand (an "accessor"): decided from the actual view, but only
// its class enters the spec.
enum class Layout : uint8_t {
  kContiguous,  // element i of the iteration space is buffer element offset + i
  kStrided,     // offset + Σ index_d * stride_d, strides from push constants (may be 0 or < 0)
  kScalar,      // every element reads buffer element `offset` (a broadcast 0-d array)
};
std::string_view name(Layout l);

struct Accessor {
  DType dtype;
  Layout layout;
  bool operator==(const Accessor& o) const { return dtype == o.dtype && layout == o.layout; }
};

// One SSA value of the kernel body.
struct TapeEntry {
  Op op;
  DType dtype;                                // the value's dtype
  std::array<int32_t, 3> args{{-1, -1, -1}};  // earlier tape entries (elementwise operands)
  int32_t accessor = -1;  // kBuffer: input index; arange/linspace/eye: source accessor index
  int32_t slot = -1;      // sources: first push-constant slot of the parameters
  bool operator==(const TapeEntry& o) const {
    return op == o.op && dtype == o.dtype && args == o.args && accessor == o.accessor &&
           slot == o.slot;
  }
};

// Where a launch's arguments (the fields of push_layout: counts, dims, offsets, strides,
// scalars, addresses) travel. Chosen per launch from the block's size and the device's limits
// (runtime/launch.h: finish_spec), so no number of constants or views splits a kernel.
enum class ArgBlock : uint8_t {
  kPush,     // push constants: the block fits maxPushConstantsSize
  kUniform,  // a uniform buffer bound after the operands, sub-allocated per launch from a ring
  kStorage,  // the same in a storage buffer, for a block larger than maxUniformBufferRange
};

// How a kernel reaches its operands' memory.
enum class Addressing : uint8_t {
  kBindings,   // one storage-buffer descriptor per binding (bindings below)
  kAddresses,  // each binding's buffer device address in the argument block: no limit on the
               // number of storages per kernel nor on an operand's size (maxStorageBufferRange)
};

struct KernelSpec {
  KernelKind kind = KernelKind::kElementwise;
  int rank = 0;          // dimensions of the (collapsed) iteration space
  bool index64 = false;  // 64-bit index math: some count or offset exceeds 2^31 - 1
  // 4 or 2: each invocation loads and stores whole vectors of that many elements (every operand
  // contiguous or a broadcast scalar in a 1-d iteration space, contiguous offsets divisible by
  // the width; 2 where an output has 8-byte elements); the tape runs once per lane and a
  // scalar loop does the tail. Row mode's vectors (rank >= 2) are 4. 1: one element at a time.
  int vector_width = 1;
  // Flat strided kernels (rank >= 2, not in row mode, vector_width 1): elements each
  // invocation computes per step as independent copies of the tape (kernels/glsl/indexing.h:
  // flat_unroll); chosen per launch (runtime/launch.cc) like vector_width.
  int unroll = 1;
  std::vector<Accessor> inputs;   // read through binding input_binding(i)
  std::vector<Accessor> outputs;  // binding num_input_bindings() + j
  // Per input accessor: its binding. Views of one storage (of one dtype) share a binding, so a
  // kernel binds each storage once and reads any number of views of it. Empty: input i is
  // binding i.
  std::vector<int32_t> input_bindings;
  std::vector<Layout> sources;    // index layouts of arange/linspace/eye values
  std::vector<TapeEntry> tape;
  std::vector<int32_t> results;  // tape entry written to each output
  std::vector<DType> slots;      // dtype of each 8-byte push-constant scalar slot
  // Per accessor (inputs, outputs, sources): the accessor whose stride fields it reads.
  // Strided accessors with equal strides (slices of one array) share one set, which keeps
  // stencils with many views inside small push-constant limits. Empty: each its own.
  std::vector<int32_t> stride_of;
  ReduceSpec reduce;  // kReduce only
  GemmSpec gemm;      // kGemm only
  ArgBlock args = ArgBlock::kPush;
  Addressing addressing = Addressing::kBindings;
  // The tape's arithmetic may be contracted (a * b + c into one fused multiply-add, rounded
  // once), as CuPy's and XLA's kernels are by default: opt in with VKA_FMA=1. Otherwise every
  // op rounds on its own, as numpy's do.
  bool fma = false;
  int32_t stride_owner(int accessor) const {
    return stride_of.empty() ? accessor : stride_of[static_cast<size_t>(accessor)];
  }

  bool operator==(const KernelSpec& o) const;
  bool operator!=(const KernelSpec& o) const { return !(*this == o); }
  std::size_t hash() const;
  // "ew_f32_3in_1out_contig"; "_strided" when any accessor is strided; "_i64" for 64-bit
  // index math. Readable, not unique: the cache key is hash() + ==.
  std::string name() const;
  // Multi-line dump of everything above (VKA_DEBUG=1 and test messages).
  std::string to_string() const;
  int input_binding(int accessor) const {
    return input_bindings.empty() ? accessor : input_bindings[static_cast<size_t>(accessor)];
  }
  int num_input_bindings() const;
  // Storage buffers a launch binds: the operands' (none when addressed), then the argument
  // block when it is a storage buffer.
  int num_storage_bindings() const;
  // Every descriptor a launch binds: the storage bindings, then a uniform argument block.
  int num_bindings() const { return num_storage_bindings() + (args == ArgBlock::kUniform); }
  // The operand bindings (inputs', then outputs'), whatever the addressing.
  int num_operand_bindings() const {
    return num_input_bindings() + static_cast<int>(outputs.size());
  }
};

// Some accessor (input, output or source) is strided: the kernel reads dims and strides.
bool any_strided(const KernelSpec& spec);

// Short dtype tags used in kernel names: b i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64 c64 c128.
std::string_view short_name(DType t);

// The values of one launch of a spec. Views are over the iteration shape: view.shape == shape.
struct LaunchParams {
  Shape shape;                // iteration shape, rank == spec.rank
  std::vector<View> inputs;   // one per spec input
  std::vector<View> outputs;  // one per spec output
  std::vector<View> sources;  // one per spec source (offset 0, the source's own strides)
  std::vector<Scalar> slots;  // one per slot-using parameter, in slot order (complex128 = 2)
  // Reductions: outputs × reduced elements per output (count() = reduce_m * reduce_k), and
  // the split of each output's elements: `splits` slices of `chunk` elements.
  int64_t reduce_m = 0, reduce_k = 0, chunk = 0, splits = 1;
  // The splits one dispatch runs: [split_base, split_base + split_count) (a launch over an
  // input larger than maxStorageBufferRange binds a window of it per dispatch).
  int64_t split_base = 0, split_count = 1;
  int64_t count() const { return size(shape); }
};

// The push-constant block, laid out once for both the GLSL emitter and the host packer so
// they cannot disagree. Every field is 4 bytes (int/uint) or 8 bytes (int64_t with index64;
// uvec2 for scalar slots) and aligned to its size (std430 rules for push constants).
// The argument block, laid out once for both the GLSL emitter and the host packer so they
// cannot disagree. Every field is 4 bytes (int/uint) or 8 bytes (int64_t with index64; uvec2
// for scalar slots; uint64_t addresses) and aligned to its size, which std430 (push constants,
// storage buffers) and std140 (uniform buffers) lay out alike.
struct PushField {
  enum Kind {
    kCount,    // n: elements of the iteration space
    kReduce,   // rm, rk, rchunk, rsplit, rsbase, rscount (index: 0..5)
    kDim,      // dim{index}
    kOffset,   // off{index}: an accessor's offset in elements
    kStride,   // st{index}_{dim}
    kSlot,     // c{index}: a scalar slot
    kAddress,  // a{index}: a binding's buffer device address (Addressing::kAddresses)
  } kind;
  int32_t index = 0;
  int32_t dim = 0;
  uint32_t offset;  // bytes
  uint32_t bytes;
  std::string name() const;  // the GLSL member name: "n", "dim0", "off1", "st1_0", "c0", "a2"
};
struct PushLayout {
  std::vector<PushField> fields;
  uint32_t size = 0;  // bytes, multiple of 4
};
// Fields: n; for reductions rm, rk, rchunk, rsplit, rsbase, rscount (LaunchParams);
// dim0..dim{rank-1} (only when some accessor is strided); for every accessor in the order inputs,
// outputs, sources: off{a} and, when strided and owning its strides (stride_owner(a) == a),
// st{a}_{d}; then c{s} per slot; then, when addressed, a{b} per operand binding.
PushLayout push_layout(const KernelSpec& spec);

// Tapes longer than this run one element at a time (choose_vector_width).
inline constexpr int kMaxVectorTape = 256;
// Strided kernels of rank >= 2 with tapes longer than this run flat, not in row mode
// (kernels/glsl/indexing.h: uses_rows).
inline constexpr int kMaxRowModeTape = 64;
// The widest vector_width a launch allows (see KernelSpec::vector_width): 4, 2 or 1. Decided per
// launch because offsets are launch values; it enters the spec, so both variants are cached.
int choose_vector_width(const KernelSpec& spec, const LaunchParams& params);
// The argument block's bytes for `p`; address fields are left 0 (a launch writes each replica's
// addresses: write_addresses).
std::vector<uint8_t> pack_push_constants(const KernelSpec& spec, const PushLayout& layout,
                                         const LaunchParams& p);
// Writes binding b's buffer device address addresses[b] into `block` (Addressing::kAddresses).
void write_addresses(const PushLayout& layout, const std::vector<uint64_t>& addresses,
                     std::vector<uint8_t>& block);

}  // namespace vka
