// vka::random: numpy's Generator API on a counter-based generator, Philox-4x32-10.
//
// A Generator holds a 64-bit Philox key and a 64-bit block counter. A draw of n values is a
// lazy source op (ir/ops.def: random_bits, random_below) whose element i reads the
// stream at its own position, so it fuses with what follows (`rng.random(n) * 2 + 1` and
// `rng.standard_normal(n).sum()` are one kernel) and gives the same values however the
// launch is split, on any device and any replica count. Each draw advances the counter past
// the 128-bit blocks it used. Keys come from a SeedSequence with numpy's algorithm, so
// default_rng(seed) keys equal np.random.SeedSequence(seed).generate_state(2) (as uint32
// words x, y).
//
// Transforms (documented, not numpy's; values differ from numpy's for the same seed):
//   random:      float64 = (u64 >> 11) * 2^-53 from one 64-bit unit; float32 = (u32 >> 8) *
//                2^-24 from one 32-bit word. Values in [0, 1).
//   standard_normal: Box-Muller on two uniforms (u1, u2) of the element's own units,
//                z = sqrt(-2 log(1 - u1)) * cos(2 pi u2) (one normal per pair; float32 uses 2
//                words, float64 one block per value). NOT numpy's ziggurat.
//   standard_exponential: -log1p(-u).
//   integers:    low + floor(x * r / 2^128), x the element's 128-bit block, r = high - low
//                (+1 with endpoint): bias below r / 2^128 < 2^-64; r = 2^64 is x's high 64
//                bits. One block per value.
//   permutation/shuffle: a stable argsort of random 64-bit keys (ties have probability
//                below n^2 / 2^65 and then keep index order).
//   choice:      with replacement, integers(0, n) or, with p, numpy's inverse CDF
//                (searchsorted(cumsum(p) / sum, random(), side='right')); without, the first
//                `size` of a permutation, or with p the `size` smallest exponential(1) / p
//                (Efraimidis-Spirakis, the same law as numpy's sequential draws).
//   distributions: those with a closed form (docs/user_guide.md, "Random numbers", lists each
//                transform) are elementwise expressions of the stream and fuse like random;
//                gamma, Poisson, binomial, hypergeometric, Zipf, von Mises and logarithmic
//                series loop (rejection, or a sequential search) in kernels of their own
//                (kernels/lib/random_draw.h), each element on a stream of its own; the others
//                combine those.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "array/array.h"
#include "ir/kernel_spec.h"

namespace vka::random {

// numpy's SeedSequence (the seed_seq_fe hash of entropy words and a spawn key): the same
// entropy gives the same keys as numpy's.
class SeedSequence {
 public:
  // `entropy`: the seed as 32-bit words, least significant first (numpy's coercion of a
  // non-negative int); empty: fresh entropy from the operating system.
  explicit SeedSequence(std::vector<uint32_t> entropy = {}, std::vector<uint32_t> spawn_key = {});
  std::vector<uint32_t> generate_state(int n_words) const;
  // Children with spawn keys spawn_key + (k,), k counting every child spawned so far.
  std::vector<SeedSequence> spawn(int n);
  const std::vector<uint32_t>& entropy() const { return entropy_; }
  const std::vector<uint32_t>& spawn_key() const { return spawn_key_; }

 private:
  std::vector<uint32_t> entropy_, spawn_key_;
  std::vector<uint32_t> pool_;
  uint32_t spawned_ = 0;
};

// A distribution's parameter as numpy takes it: a number, or an array that broadcasts with the
// other parameters (and must fit `size` when one is given).
class Param {
 public:
  Param(double v) : value_(v) {}       // NOLINT: implicit, like numpy's operands
  Param(int v) : Param(int64_t{v}) {}  // NOLINT
  Param(int64_t v) : value_(static_cast<double>(v)), int_(v), is_int_(true) {}  // NOLINT
  Param(Array a) : array_(std::move(a)) {}                                      // NOLINT
  bool is_array() const { return array_.has_value(); }
  bool is_int() const { return is_int_; }  // given as an integer number
  const Array& array() const { return *array_; }
  double value() const { return value_; }
  int64_t int_value() const { return is_int_ ? int_ : static_cast<int64_t>(value_); }
  Shape shape() const { return array_ ? array_->shape() : Shape{}; }
  // As an operand of elementwise arithmetic: the array, or the number as a weak scalar.
  Arg arg() const { return array_ ? Arg(*array_) : Arg(value_); }

 private:
  std::optional<Array> array_;
  double value_ = 0;
  int64_t int_ = 0;
  bool is_int_ = false;
};

class Generator {
 public:
  // `per_replica`: each replica of the context draws from its own stream (key + (r + 1) *
  // 0x9E3779B97F4A7C15); draws are then computed at once, one kernel per replica.
  explicit Generator(SeedSequence seq,
                     std::shared_ptr<Context> context = Context::default_context(),
                     bool per_replica = false);

  Array random(const Shape& size, DType dtype = DType::kFloat64);
  Array uniform(double low, double high, const Shape& size, DType dtype = DType::kFloat64);
  Array standard_normal(const Shape& size, DType dtype = DType::kFloat64);
  Array normal(double loc, double scale, const Shape& size, DType dtype = DType::kFloat64);
  Array standard_exponential(const Shape& size, DType dtype = DType::kFloat64);
  Array exponential(double scale, const Shape& size, DType dtype = DType::kFloat64);
  // Values in [low, high) (or [low, high] with endpoint); low/high as numpy's Python ints,
  // given as int64 or, for uint64 bounds above 2^63 - 1, through integers_u64.
  Array integers(int64_t low, int64_t high, const Shape& size, DType dtype = DType::kInt64,
                 bool endpoint = false);
  // The general form: bounds as (negative flag, magnitude) pairs cover every int64/uint64.
  Array integers_wide(bool low_negative, uint64_t low_magnitude, bool high_negative,
                      uint64_t high_magnitude, const Shape& size, DType dtype, bool endpoint);
  // Array-valued bounds (integer or bool arrays), broadcast together (or to `size`): the same
  // values as the scalar form for equal bounds (floor(x * r / 2^128), computed here with 32-bit
  // limb products of uint64 elementwise ops, fused into one kernel). Bounds are checked on the
  // device first (ShapeError as numpy's: "low is out of bounds for int8", "low >= high").
  Array integers(const Array& low, const Array& high, std::optional<Shape> size,
                 DType dtype = DType::kInt64, bool endpoint = false);
  // numpy's distributions (their argument checks and errors too). `size`: the result's shape,
  // which every parameter must broadcast to; nullopt (numpy's None): the parameters'
  // broadcast shape. Results are float64 (int64 for the discrete ones) unless a dtype is taken.
  Array standard_gamma(const Param& shape, std::optional<Shape> size,
                       DType dtype = DType::kFloat64);
  Array gamma(const Param& shape, const Param& scale, std::optional<Shape> size);
  Array beta(const Param& a, const Param& b, std::optional<Shape> size);
  Array chisquare(const Param& df, std::optional<Shape> size);
  Array noncentral_chisquare(const Param& df, const Param& nonc, std::optional<Shape> size);
  Array f(const Param& dfnum, const Param& dfden, std::optional<Shape> size);
  Array noncentral_f(const Param& dfnum, const Param& dfden, const Param& nonc,
                     std::optional<Shape> size);
  Array standard_t(const Param& df, std::optional<Shape> size);
  Array standard_cauchy(const Shape& size);
  Array laplace(const Param& loc, const Param& scale, std::optional<Shape> size);
  Array logistic(const Param& loc, const Param& scale, std::optional<Shape> size);
  Array gumbel(const Param& loc, const Param& scale, std::optional<Shape> size);
  Array lognormal(const Param& mean, const Param& sigma, std::optional<Shape> size);
  Array pareto(const Param& a, std::optional<Shape> size);
  Array power(const Param& a, std::optional<Shape> size);
  Array rayleigh(const Param& scale, std::optional<Shape> size);
  Array weibull(const Param& a, std::optional<Shape> size);
  Array wald(const Param& mean, const Param& scale, std::optional<Shape> size);
  Array triangular(const Param& left, const Param& mode, const Param& right,
                   std::optional<Shape> size);
  Array vonmises(const Param& mu, const Param& kappa, std::optional<Shape> size);
  Array poisson(const Param& lam, std::optional<Shape> size);
  Array binomial(const Param& n, const Param& p, std::optional<Shape> size);
  Array negative_binomial(const Param& n, const Param& p, std::optional<Shape> size);
  Array geometric(const Param& p, std::optional<Shape> size);
  Array hypergeometric(const Param& ngood, const Param& nbad, const Param& nsample,
                       std::optional<Shape> size);
  Array zipf(const Param& a, std::optional<Shape> size);
  Array logseries(const Param& p, std::optional<Shape> size);
  // Multivariate: the categories are the result's last axis (size + (k,)).
  Array dirichlet(const Array& alpha, std::optional<Shape> size);
  Array multinomial(const Param& n, const Array& pvals, std::optional<Shape> size);
  Array multivariate_hypergeometric(const std::vector<int64_t>& colors, const Param& nsample,
                                    std::optional<Shape> size);
  // x with every 1-d slice along `axis` permuted independently (nullopt: the flattened x).
  Array permuted(const Array& x, std::optional<int64_t> axis);

  // A permutation of arange(n), int64.
  Array permutation(int64_t n);
  // x permuted along `axis` (a copy).
  Array permutation(const Array& x, int64_t axis = 0);
  // x permuted in place along `axis` (numpy's shuffle).
  void shuffle(const Array& x, int64_t axis = 0);
  // Samples of arange(n) (choice(n, ...)); p: probabilities of each (1-d, length n).
  Array choice(int64_t n, const Shape& size, bool replace = true,
               const std::optional<Array>& p = std::nullopt);
  // Samples of x along `axis`.
  Array choice(const Array& x, const Shape& size, bool replace = true,
               const std::optional<Array>& p = std::nullopt, int64_t axis = 0, bool shuffle = true);

  std::vector<Generator> spawn(int n);

  // The whole state (numpy's bit_generator.state): a Generator given another's key and
  // counter continues its stream exactly.
  void set_state(uint64_t key, uint64_t counter) {
    key_ = key;
    counter_ = counter;
  }
  uint64_t key() const { return key_; }
  uint64_t counter() const { return counter_; }
  bool per_replica() const { return per_replica_; }
  const std::shared_ptr<Context>& context() const { return context_; }
  SeedSequence& seed_seq() { return seq_; }

  // The raw stream, for tests and composites: 32-bit words (uint32) or 64-bit units (uint64)
  // at flat * stride + offset for the next draw, which uses `blocks` blocks.
  Array bits(const Shape& size, DType dtype, uint32_t stride, uint32_t offset, uint64_t key,
             uint64_t counter) const;

 private:
  // Builds one draw with a key (per replica or not), then advances the counter by `blocks`.
  Array draw(const char* op, const Shape& size, DType dtype, uint64_t blocks,
             const std::function<Array(uint64_t key, uint64_t counter)>& build);
  Array random_with(const Shape& size, DType dtype, uint64_t key, uint64_t counter) const;
  Array normal_with(const Shape& size, DType dtype, uint64_t key, uint64_t counter) const;
  Array below_with(const Shape& size, uint64_t bound, uint64_t key, uint64_t counter) const;
  // The random source op `op` of the stream (key, counter) with its third parameter (ir/ops.def).
  Array source(Op op, DType dtype, const Shape& size, uint64_t key, uint64_t counter,
               uint64_t param) const;
  Array sort_keys(int64_t n);  // random uint64 keys for permutations
  // Uniforms of 64-bit units at flat * stride + offset: [0, 1), or (0, 1) when `open`.
  Array uniform_at(const Shape& size, uint64_t key, uint64_t counter, uint32_t stride,
                   uint32_t offset, bool open = false) const;
  // Box-Muller normals of units offset, offset + 1 of each stride.
  Array normal_at(const Shape& size, uint64_t key, uint64_t counter, uint32_t stride,
                  uint32_t offset) const;
  // One draw of a looping sampler (kernels/lib/random_draw.h) of `kind` with result dtype `out`,
  // `params` converted to its parameter dtypes and broadcast to `size`; `mode` its c3 slot.
  // One element per block of the counter.
  Array sample(const char* op, KernelKind kind, DType out, const std::vector<Param>& params,
               const Shape& size, int64_t mode = 0);
  Array binomial_unchecked(const Param& n, const Param& p, const Shape& size);
  Array hypergeometric_unchecked(const Param& ngood, const Param& nbad, const Param& nsample,
                                 const Shape& size);

  SeedSequence seq_;
  std::shared_ptr<Context> context_;
  bool per_replica_;
  uint64_t key_ = 0;
  uint64_t counter_ = 0;
};

// numpy's default_rng(seed): a Generator over SeedSequence(seed) (nullopt: fresh entropy).
Generator default_rng(std::optional<uint64_t> seed = std::nullopt,
                      std::shared_ptr<Context> context = Context::default_context());

// The most elements one launch of a looping sampler draws (0: the device's binding limit, the
// default). Larger draws are several launches with the same values; tests set a small limit.
void set_max_sample_launch(int64_t elements);

// The host reference: Philox-4x32-10 of one block (Random123's philox4x32_R(10, ctr, key)).
std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key);

}  // namespace vka::random
