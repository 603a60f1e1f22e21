// KernelSpec identity (==, hash, name, text) and the vector width of a launch.
#include "ir/kernel_spec.h"

#include <algorithm>
#include <cstring>

#include "base/errors.h"

namespace vka {
namespace {

void mix(std::size_t& h, std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); }

// "_fma" where the tape may contract multiply-adds, "_ab" for an argument buffer, "_bda" for
// addressed operands: part of every generated name, so the schedule printer shows how a kernel
// rounds and where its arguments and operands come from.
std::string interface_suffix(const KernelSpec& s) {
  std::string out = s.fma ? "_fma" : "";
  if (s.args != ArgBlock::kPush) out += "_ab";
  if (s.addressing == Addressing::kAddresses) out += "_bda";
  return out;
}

// "random_binomial_i64_as": the sampler, the result's dtype, and where each parameter comes
// from (a: an input binding, s: a push-constant slot).
std::string random_name(const char* sampler, const KernelSpec& s) {
  std::string out =
      "random_" + std::string(sampler) + "_" + std::string(short_name(s.outputs[0].dtype)) + "_";
  for (const TapeEntry& e : s.tape) out += e.op == Op::kBuffer ? 'a' : 's';
  return out;
}

}  // namespace

bool any_strided(const KernelSpec& s) {
  for (const Accessor& a : s.inputs) {
    if (a.layout == Layout::kStrided) return true;
  }
  for (const Accessor& a : s.outputs) {
    if (a.layout == Layout::kStrided) return true;
  }
  for (Layout l : s.sources) {
    if (l == Layout::kStrided) return true;
  }
  return false;
}

std::string_view name(Layout l) {
  switch (l) {
    case Layout::kContiguous:
      return "contiguous";
    case Layout::kStrided:
      return "strided";
    case Layout::kScalar:
      return "scalar";
  }
  return "?";
}

std::string_view short_name(DType t) {
  switch (t) {
    case DType::kBool:
      return "b";
    case DType::kInt8:
      return "i8";
    case DType::kUInt8:
      return "u8";
    case DType::kInt16:
      return "i16";
    case DType::kUInt16:
      return "u16";
    case DType::kInt32:
      return "i32";
    case DType::kUInt32:
      return "u32";
    case DType::kInt64:
      return "i64";
    case DType::kUInt64:
      return "u64";
    case DType::kFloat16:
      return "f16";
    case DType::kFloat32:
      return "f32";
    case DType::kFloat64:
      return "f64";
    case DType::kComplex64:
      return "c64";
    case DType::kComplex128:
      return "c128";
  }
  return "?";
}

bool KernelSpec::operator==(const KernelSpec& o) const {
  return kind == o.kind && rank == o.rank && index64 == o.index64 &&
         vector_width == o.vector_width && unroll == o.unroll && inputs == o.inputs &&
         outputs == o.outputs && sources == o.sources && tape == o.tape && results == o.results &&
         slots == o.slots && stride_of == o.stride_of && reduce == o.reduce && gemm == o.gemm &&
         input_bindings == o.input_bindings && args == o.args && addressing == o.addressing &&
         fma == o.fma;
}

int KernelSpec::num_input_bindings() const {
  if (input_bindings.empty()) return static_cast<int>(inputs.size());
  int n = 0;
  for (int32_t b : input_bindings) n = std::max(n, b + 1);
  return n;
}

int KernelSpec::num_storage_bindings() const {
  return (addressing == Addressing::kBindings ? num_operand_bindings() : 0) +
         (args == ArgBlock::kStorage);
}

std::size_t KernelSpec::hash() const {
  std::size_t h = static_cast<std::size_t>(kind);
  mix(h, rank);
  mix(h, index64);
  mix(h, vector_width);
  mix(h, static_cast<std::size_t>(unroll) + 17);
  for (const Accessor& a : inputs) mix(h, static_cast<int>(a.dtype) * 8 + int(a.layout));
  mix(h, 0xfeed);
  for (const Accessor& a : outputs) mix(h, static_cast<int>(a.dtype) * 8 + int(a.layout));
  mix(h, 0xbeef);
  for (Layout l : sources) mix(h, static_cast<int>(l));
  for (const TapeEntry& e : tape) {
    mix(h, static_cast<std::size_t>(e.op) * 64 + static_cast<std::size_t>(e.dtype));
    for (int32_t a : e.args) mix(h, static_cast<std::size_t>(a + 1));
    mix(h, static_cast<std::size_t>(e.accessor + 1));
    mix(h, static_cast<std::size_t>(e.slot + 1));
  }
  for (int32_t r : results) mix(h, static_cast<std::size_t>(r));
  for (DType t : slots) mix(h, static_cast<std::size_t>(t));
  for (int32_t a : stride_of) mix(h, static_cast<std::size_t>(a + 7));
  for (int32_t b : input_bindings) mix(h, static_cast<std::size_t>(b + 11));
  mix(h, static_cast<std::size_t>(args) * 4 + static_cast<std::size_t>(addressing) + 13);
  mix(h, fma ? 0xf3a : 0x5e9);
  if (kind == KernelKind::kReduce) {
    mix(h, static_cast<std::size_t>(reduce.op) * 64 + static_cast<std::size_t>(reduce.acc));
    mix(h, static_cast<std::size_t>(reduce.kept) * 8 +
               static_cast<std::size_t>(reduce.strategy) * 4 + reduce.partial * 2 + reduce.combine);
    mix(h, static_cast<std::size_t>(reduce.divisor_slot + 1));
  }
  if (kind == KernelKind::kGemm) {
    for (int v : {gemm.bm, gemm.bn, gemm.bk, gemm.tm, gemm.tn}) mix(h, static_cast<std::size_t>(v));
    mix(h, static_cast<std::size_t>(gemm.coop * 8 + gemm.vec4 * 4 + gemm.a_m_fast * 2 +
                                    gemm.b_n_fast));
    mix(h, static_cast<std::size_t>(gemm.split) + 3);
  }
  return h;
}

std::string KernelSpec::name() const {
  switch (kind) {
    case KernelKind::kElementwise:
      break;
    case KernelKind::kScanBlocks:
      return "scan_blocks_" + std::string(short_name(inputs[0].dtype));
    case KernelKind::kScanAdd:
      return "scan_add";
    case KernelKind::kCompact:
      return "compact_" + std::string(short_name(inputs[0].dtype));
    case KernelKind::kScatterClaim:
      return "scatter_claim";
    case KernelKind::kScatterWrite:
      return "scatter_write_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kSearchSorted:
      return "searchsorted_" + std::string(short_name(inputs[0].dtype));
    case KernelKind::kReduce: {
      // "red_sum_f32_coop_partial_2in_strided"
      std::string s =
          "red_" + std::string(vka::name(reduce.op)) + "_" + std::string(short_name(reduce.acc));
      s += reduce.strategy == ReduceStrategy::kCooperative ? "_coop" : "_serial";
      if (reduce.partial) s += "_partial";
      if (reduce.combine) s += "_combine";
      s += "_" + std::to_string(inputs.size()) + "in";
      s += any_strided(*this) ? "_strided" : "_contig";
      if (index64) s += "_i64";
      return s + interface_suffix(*this);
    }
    case KernelKind::kGemm: {
      // "gemm_f32_128x128x8_8x8_tn": the tile, then t/n per operand (A's m index fast, B's n).
      const GemmSpec& g = gemm;
      // B's dtype: a split-K product's combining pass reads the partial products as input 0.
      std::string s = "gemm_" + std::string(short_name(inputs[1].dtype)) + "_" +
                      std::to_string(g.bm) + "x" + std::to_string(g.bn) + "x" +
                      std::to_string(g.bk) + "_" + std::to_string(g.tm) + "x" +
                      std::to_string(g.tn) + "_" + (g.a_m_fast ? "t" : "n") +
                      (g.b_n_fast ? "n" : "t");
      if (g.vec4) s += g.coop ? "_emulated" : "_v4";  // (cooperative: kernels/gen/gemm.h)
      if (g.coop) s += "_coop";
      if (g.split == GemmSplit::kPartial) s += "_partial";
      if (g.split == GemmSplit::kCombine) s += "_combine";
      if (tape.size() > 0) s += "_ep" + std::to_string(tape.size());
      return s;
    }
    case KernelKind::kSortKeys:
      return "sort_keys_" + std::string(short_name(inputs[0].dtype));
    case KernelKind::kSortHistogram:
      return "sort_histogram_" + std::string(short_name(inputs[0].dtype));
    case KernelKind::kSortScatter:
      return "sort_scatter_" + std::string(short_name(inputs[0].dtype));
    case KernelKind::kSortOffsets:
      return outputs.size() == 1 ? "sort_starts" : "sort_offsets";
    case KernelKind::kSegmentSum:
      return "segment_sum";
    case KernelKind::kBincount:
      return "bincount";
    case KernelKind::kCumulativeReduce:
    case KernelKind::kCumulativeRows:
    case KernelKind::kCumulativeLines: {
      const char* part = kind == KernelKind::kCumulativeReduce ? "reduce"
                         : kind == KernelKind::kCumulativeRows ? "rows"
                                                               : "lines";
      return "cumulative_" + std::string(part) + "_" + std::string(vka::name(tape[0].op)) + "_" +
             std::string(short_name(outputs[0].dtype));
    }
    case KernelKind::kLuFactor:
      return "lu_factor_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kLuChunks:
      return "lu_chunks_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kLuPanel:
      return "lu_panel_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kLuSolve:
      return "lu_solve_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kCholesky:
      return "cholesky_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kQr:
      return "qr_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kSvdJacobi:
      return "svd_jacobi_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kEighJacobi:
      return "eigh_jacobi_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kSvdJacobiWide:
      return "svd_jacobi_wide_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kEighJacobiWide:
      return "eigh_jacobi_wide_" + std::string(short_name(outputs[0].dtype));
    case KernelKind::kRandomGamma:
      return random_name("gamma", *this);
    case KernelKind::kRandomPoisson:
      return random_name("poisson", *this);
    case KernelKind::kRandomBinomial:
      return random_name("binomial", *this);
    case KernelKind::kRandomHypergeometric:
      return random_name("hypergeometric", *this);
    case KernelKind::kRandomZipf:
      return random_name("zipf", *this);
    case KernelKind::kRandomVonmises:
      return random_name("vonmises", *this);
    case KernelKind::kRandomLogseries:
      return random_name("logseries", *this);
  }
  std::string s = "ew_";
  s += outputs.empty() ? "none" : std::string(short_name(outputs[0].dtype));
  s += "_" + std::to_string(inputs.size()) + "in_" + std::to_string(outputs.size()) + "out";
  s += any_strided(*this) ? "_strided" : "_contig";
  if (index64) s += "_i64";
  if (vector_width > 1) s += "_v" + std::to_string(vector_width);
  if (unroll > 1) s += "_u" + std::to_string(unroll);
  return s + interface_suffix(*this);
}

std::string KernelSpec::to_string() const {
  std::string s = name() + " rank=" + std::to_string(rank) + "\n";
  if (kind == KernelKind::kReduce) {
    s += "  reduce kept=" + std::to_string(reduce.kept) +
         " divisor_slot=" + std::to_string(reduce.divisor_slot) + "\n";
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    s += "  in" + std::to_string(i) + ": " + std::string(vka::name(inputs[i].dtype)) + " " +
         std::string(vka::name(inputs[i].layout));
    if (!input_bindings.empty()) s += " binding" + std::to_string(input_bindings[i]);
    s += "\n";
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    s += "  out" + std::to_string(i) + ": " + std::string(vka::name(outputs[i].dtype)) + " " +
         std::string(vka::name(outputs[i].layout)) + " = v" + std::to_string(results[i]) + "\n";
  }
  for (std::size_t i = 0; i < tape.size(); ++i) {
    const TapeEntry& e = tape[i];
    s += "  v" + std::to_string(i) + " = " + std::string(vka::name(e.op)) + " " +
         std::string(vka::name(e.dtype));
    for (int32_t a : e.args) {
      if (a >= 0) s += " v" + std::to_string(a);
    }
    if (e.accessor >= 0) s += " acc" + std::to_string(e.accessor);
    if (e.slot >= 0) s += " slot" + std::to_string(e.slot);
    s += "\n";
  }
  return s;
}

namespace {

// Rank >= 2: vectors along rows (kernels/glsl/indexing.h, row mode) when every operand runs along
// the last index with stride 1, whatever its alignment (inputs are loaded as two aligned
// vectors and shifted), and the outputs share one alignment (their stores are aligned).
bool row_vectors_fit(const KernelSpec& spec, const LaunchParams& p) {
  if (p.shape.back() < 8) return false;
  for (const TapeEntry& e : spec.tape) {
    if (e.op == Op::kGather) return false;
  }
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    const Accessor& a = spec.inputs[i];
    if (is_complex(a.dtype)) return false;
    if (a.layout != Layout::kScalar && p.inputs[i].strides.back() != 1) return false;
  }
  for (std::size_t j = 0; j < spec.outputs.size(); ++j) {
    const Accessor& a = spec.outputs[j];
    const View& v = p.outputs[j];
    if (is_complex(a.dtype) || a.layout == Layout::kScalar || v.strides.back() != 1) return false;
    const View& v0 = p.outputs[0];
    if ((v.offset - v0.offset) % 4 != 0) return false;
    for (int d = 0; d + 1 < spec.rank; ++d) {
      if ((v.strides[d] - v0.strides[d]) % 4 != 0) return false;
    }
  }
  return true;
}

}  // namespace

int choose_vector_width(const KernelSpec& spec, const LaunchParams& params) {
  // The vector variant repeats the tape for 4 lanes and a scalar tail: 5 copies. Long tapes
  // compute more than they load, and 5 copies of them only cost compile time.
  if (static_cast<int>(spec.tape.size()) > kMaxVectorTape) return 1;
  if (spec.rank > 1) {
    const bool rows = any_strided(spec) && static_cast<int>(spec.tape.size()) <= kMaxRowModeTape;
    return rows && row_vectors_fit(spec, params) ? 4 : 1;
  }
  if (params.count() < 4) return 1;
  // A thread stores at most 16 bytes at a time: where each stores 32 (a dvec4 of float64 or
  // int64), a store instruction covers every other 16 bytes of its sectors, and a stream of
  // them, written without being read, ran at half the bandwidth (H100: 1 GiB of dvec4 in
  // 0.671 ms, of dvec2 or double in 0.345 ms). Loads take whole sectors either way.
  int width = 4;
  for (const Accessor& a : spec.outputs) {
    if (itemsize(a.dtype) == 8) width = 2;
  }
  auto fits = [width](const Accessor& a, const View& v) {
    if (is_complex(a.dtype)) return false;
    if (a.layout == Layout::kScalar) return true;
    return a.layout == Layout::kContiguous && v.offset % width == 0;
  };
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    if (!fits(spec.inputs[i], params.inputs[i])) return 1;
  }
  for (std::size_t i = 0; i < spec.outputs.size(); ++i) {
    if (!fits(spec.outputs[i], params.outputs[i]) ||
        spec.outputs[i].layout != Layout::kContiguous) {
      return 1;
    }
  }
  for (Layout l : spec.sources) {
    if (l == Layout::kStrided) return 1;
  }
  return width;
}

}  // namespace vka
