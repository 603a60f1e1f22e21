// vka::random: SeedSequence, the Generator's draws and their transforms (array/random/random.h).
#include "array/random/random.h"

#include <cmath>
#include <random>

#include "array/write.h"
#include "base/errors.h"
#include "runtime/device_support.h"

namespace vka::random {
namespace {

// numpy's SeedSequence constants (Melissa O'Neill's seed_seq_fe).
constexpr uint32_t kInitA = 0x43b0d7e5, kMultA = 0x931e8875;
constexpr uint32_t kInitB = 0x8b51f9dd, kMultB = 0x58f38ded;
constexpr uint32_t kMixL = 0xca01f9dd, kMixR = 0x4973f715;
constexpr int kPoolSize = 4;

uint32_t hashmix(uint32_t value, uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= kMultA;
  value *= hash_const;
  return value ^ (value >> 16);
}

uint32_t mix(uint32_t x, uint32_t y) {
  uint32_t r = kMixL * x - kMixR * y;
  return r ^ (r >> 16);
}

// Where a per-replica generator's replica r draws: a Weyl step of the key per replica.
constexpr uint64_t kReplicaStep = 0x9E3779B97F4A7C15ull;
constexpr double kTwoPi = 6.283185307179586;

void check_float_dtype(const char* op, DType dtype) {
  if (dtype != DType::kFloat32 && dtype != DType::kFloat64) {
    throw DTypeError("[" + std::string(op) + "] Unsupported dtype " + std::string(name(dtype)) +
                     " for " + op + " (float32 or float64)");
  }
}

uint64_t blocks_for(int64_t n, uint64_t words_per_value) {
  return (static_cast<uint64_t>(n) * words_per_value + 3) / 4;
}

}  // namespace

std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> c, std::array<uint32_t, 2> k) {
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k[0] += 0x9E3779B9u;
      k[1] += 0xBB67AE85u;
    }
    const uint64_t p0 = uint64_t{0xD2511F53u} * c[0], p1 = uint64_t{0xCD9E8D57u} * c[2];
    c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(p0)};
  }
  return c;
}

SeedSequence::SeedSequence(std::vector<uint32_t> entropy, std::vector<uint32_t> spawn_key)
    : entropy_(std::move(entropy)), spawn_key_(std::move(spawn_key)) {
  if (entropy_.empty()) {
    std::random_device rd;
    for (int i = 0; i < 4; ++i) entropy_.push_back(rd());
  }
  std::vector<uint32_t> words = entropy_;
  if (!spawn_key_.empty() && words.size() < kPoolSize) words.resize(kPoolSize, 0);
  words.insert(words.end(), spawn_key_.begin(), spawn_key_.end());
  pool_.assign(kPoolSize, 0);
  uint32_t hc = kInitA;
  for (int i = 0; i < kPoolSize; ++i) {
    pool_[i] = hashmix(i < static_cast<int>(words.size()) ? words[i] : 0, hc);
  }
  for (int src = 0; src < kPoolSize; ++src) {
    for (int dst = 0; dst < kPoolSize; ++dst) {
      if (src != dst) pool_[dst] = mix(pool_[dst], hashmix(pool_[src], hc));
    }
  }
  for (size_t src = kPoolSize; src < words.size(); ++src) {
    for (int dst = 0; dst < kPoolSize; ++dst) pool_[dst] = mix(pool_[dst], hashmix(words[src], hc));
  }
}

std::vector<uint32_t> SeedSequence::generate_state(int n_words) const {
  std::vector<uint32_t> out;
  uint32_t hc = kInitB;
  for (int i = 0; i < n_words; ++i) {
    uint32_t v = pool_[i % kPoolSize];
    v ^= hc;
    hc *= kMultB;
    v *= hc;
    out.push_back(v ^ (v >> 16));
  }
  return out;
}

std::vector<SeedSequence> SeedSequence::spawn(int n) {
  if (n < 0) throw ShapeError("[spawn] n_children must be non-negative, got " + std::to_string(n));
  std::vector<SeedSequence> children;
  for (int i = 0; i < n; ++i) {
    std::vector<uint32_t> key = spawn_key_;
    key.push_back(spawned_++);
    children.emplace_back(entropy_, std::move(key));
  }
  return children;
}

Generator::Generator(SeedSequence seq, std::shared_ptr<Context> context, bool per_replica)
    : seq_(std::move(seq)), context_(std::move(context)), per_replica_(per_replica) {
  const std::vector<uint32_t> k = seq_.generate_state(2);
  key_ = uint64_t{k[0]} | uint64_t{k[1]} << 32;
}

Generator default_rng(std::optional<uint64_t> seed, std::shared_ptr<Context> context) {
  std::vector<uint32_t> words;
  if (seed) {
    words.push_back(static_cast<uint32_t>(*seed));
    if (*seed >> 32) words.push_back(static_cast<uint32_t>(*seed >> 32));
  }
  return Generator(SeedSequence(std::move(words)), std::move(context));
}

std::vector<Generator> Generator::spawn(int n) {
  std::vector<Generator> out;
  for (SeedSequence& s : seq_.spawn(n)) out.emplace_back(std::move(s), context_, per_replica_);
  return out;
}

Array Generator::bits(const Shape& size, DType dtype, uint32_t stride, uint32_t offset,
                      uint64_t key, uint64_t counter) const {
  VKA_ASSERT(dtype == DType::kUInt32 || dtype == DType::kUInt64);
  return source(Op::kRandomBits, dtype, size, key, counter,
                uint64_t{stride} | uint64_t{offset} << 32);
}

Array Generator::below_with(const Shape& size, uint64_t bound, uint64_t key,
                            uint64_t counter) const {
  return source(Op::kRandomBelow, DType::kUInt64, size, key, counter, bound);
}

Array Generator::source(Op op, DType dtype, const Shape& size, uint64_t key, uint64_t counter,
                        uint64_t param) const {
  std::vector<Scalar> params = {Scalar::of_uint(key), Scalar::of_uint(counter),
                                Scalar::of_uint(param)};
  return Array(default_graph().source(op, dtype, size, std::move(params)), context_);
}

Array Generator::draw(const char* op, const Shape& size, DType dtype, uint64_t blocks,
                      const std::function<Array(uint64_t, uint64_t)>& build) {
  for (int64_t d : size) {
    if (d < 0) throw ShapeError(std::string("[") + op + "] negative dimensions are not allowed");
  }
  require_dtype(*context_, dtype, op);
  const uint64_t counter = counter_;
  counter_ += blocks;
  if (!per_replica_) return build(key_, counter);
  if (context_->num_replicas() == 1) return build(key_ + kReplicaStep, counter);
  // Each replica computes its own stream into one storage buffer, now.
  Array out = zeros(size, dtype, context_);
  const NodePtr& dest = out.storage();
  for (int r = 0; r < context_->num_replicas(); ++r) {
    write_into(context_, dest, build(key_ + (r + 1) * kReplicaStep, counter).node(), r);
  }
  return out;
}

Array Generator::random_with(const Shape& size, DType dtype, uint64_t key, uint64_t counter) const {
  if (dtype == DType::kFloat32) {
    Array b = bits(size, DType::kUInt32, 1, 0, key, counter);
    return (b >> 8).astype(DType::kFloat32) * Arg(std::ldexp(1.0, -24));
  }
  Array b = bits(size, DType::kUInt64, 1, 0, key, counter);
  return (b >> 11).astype(DType::kFloat64) * Arg(std::ldexp(1.0, -53));
}

Array Generator::random(const Shape& size, DType dtype) {
  check_float_dtype("random", dtype);
  const uint64_t words = dtype == DType::kFloat32 ? 1 : 2;
  return draw("random", size, dtype, blocks_for(vka::size(size), words),
              [&](uint64_t k, uint64_t c) { return random_with(size, dtype, k, c); });
}

Array Generator::uniform(double low, double high, const Shape& size, DType dtype) {
  check_float_dtype("uniform", dtype);
  if (!std::isfinite(high - low)) {
    throw OverflowError("[uniform] high - low range exceeds valid bounds");
  }
  Array u = random(size, dtype);
  return Arg(low) + Arg(high - low) * u;
}

Array Generator::normal_with(const Shape& size, DType dtype, uint64_t key, uint64_t counter) const {
  if (dtype == DType::kFloat32) {
    // Elements 2j and 2j + 1 are both of Box-Muller's normals, r cos and r sin, from unit j
    // (kernels/glsl/random.cc, kNormal32): stride 1, offset 0.
    return source(Op::kRandomNormal, dtype, size, key, counter, 1);
  }
  auto uniform01 = [&](uint32_t offset) {
    Array b = bits(size, DType::kUInt64, 2, offset, key, counter);
    return (b >> 11).astype(DType::kFloat64) * Arg(std::ldexp(1.0, -53));
  };
  Array u1 = uniform01(0), u2 = uniform01(1);
  return sqrt(Arg(-2.0) * log1p(-u1)) * cos(Arg(kTwoPi) * u2);
}

Array Generator::standard_normal(const Shape& size, DType dtype) {
  check_float_dtype("standard_normal", dtype);
  // float32: a 64-bit unit per pair of elements; float64: two units per element.
  const uint64_t words = dtype == DType::kFloat32 ? 1 : 4;
  return draw("standard_normal", size, dtype, blocks_for(vka::size(size), words),
              [&](uint64_t k, uint64_t c) { return normal_with(size, dtype, k, c); });
}

Array Generator::normal(double loc, double scale, const Shape& size, DType dtype) {
  check_float_dtype("normal", dtype);
  if (scale < 0) throw ShapeError("[normal] scale < 0");
  return Arg(loc) + Arg(scale) * standard_normal(size, dtype);
}

Array Generator::standard_exponential(const Shape& size, DType dtype) {
  check_float_dtype("standard_exponential", dtype);
  return -log1p(-random(size, dtype));
}

Array Generator::exponential(double scale, const Shape& size, DType dtype) {
  check_float_dtype("exponential", dtype);
  if (scale < 0) throw ShapeError("[exponential] scale < 0");
  return Arg(scale) * standard_exponential(size, dtype);
}

Array Generator::integers(int64_t low, int64_t high, const Shape& size, DType dtype,
                          bool endpoint) {
  auto mag = [](int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : uint64_t(v); };
  return integers_wide(low < 0, mag(low), high < 0, mag(high), size, dtype, endpoint);
}

Array Generator::integers_wide(bool low_negative, uint64_t low_magnitude, bool high_negative,
                               uint64_t high_magnitude, const Shape& size, DType dtype,
                               bool endpoint) {
  if (!(is_bool(dtype) || is_integer(dtype))) {
    throw DTypeError("[integers] Unsupported dtype " + std::string(name(dtype)) + " for integers");
  }
  using I = __int128;
  const I low = low_negative ? -I(low_magnitude) : I(low_magnitude);
  const I high = high_negative ? -I(high_magnitude) : I(high_magnitude);
  const int bits = static_cast<int>(itemsize(dtype)) * 8;
  const I lo_bound = is_bool(dtype) ? 0 : is_signed_integer(dtype) ? -(I(1) << (bits - 1)) : 0;
  const I hi_bound = is_bool(dtype)             ? 1
                     : is_signed_integer(dtype) ? (I(1) << (bits - 1)) - 1
                                                : (I(1) << bits) - 1;
  const I last = endpoint ? high : high - 1;  // the largest value asked for
  const std::string t(name(dtype));
  if (low < lo_bound) throw ShapeError("[integers] low is out of bounds for " + t);
  if (last > hi_bound) throw ShapeError("[integers] high is out of bounds for " + t);
  if (low > last) throw ShapeError(endpoint ? "[integers] low > high" : "[integers] low >= high");
  const I range = last - low + 1;  // 1 .. 2^64
  const uint64_t bound = range == (I(1) << 64) ? 0 : static_cast<uint64_t>(range);
  const uint64_t low_bits = static_cast<uint64_t>(low);  // two's complement
  require_dtype(*context_, DType::kUInt64, "integers");
  return draw("integers", size, dtype, static_cast<uint64_t>(vka::size(size)),
              [&](uint64_t k, uint64_t c) {
                Array v = below_with(size, bound, k, c);
                if (low_bits != 0) v = v + Arg(low_bits);
                return v.astype(dtype);
              });
}

}  // namespace vka::random
