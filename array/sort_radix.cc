// The radix sort's host side: key phases (complex values: imaginary part, real part, NaN
// class), passes over the digits that vary (8 bits where the device ranks with subgroup
// ballots, else 4), then passes over the row index; a sort of values that moves keys alone;
// and a sort of 8-byte values by integer keys that moves the values with the keys.
#include "array/sort_radix.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "array/functions.h"
#include "array/views.h"
#include "base/errors.h"
#include "device/stream.h"
#include "kernels/cache.h"
#include "kernels/lib/scan.h"
#include "kernels/lib/sort.h"
#include "kernels/lib/sort_pass.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka {
namespace {

std::shared_ptr<BufferRef> alloc(const std::shared_ptr<Context>& ctx, DType t, int64_t n) {
  return allocate_for(ctx, t, {std::max<int64_t>(n, 1)});  // a binding may not be empty
}

Scalar slot(int64_t v) { return Scalar::of_int(v, DType::kInt64); }

// A zeroed uint32 x 3 buffer: the key kernels' varying bits (words 0, 1) and flag (word 2).
std::shared_ptr<ReplicatedBuffer> zeroed_words(const std::shared_ptr<Context>& ctx) {
  auto bits = device_buffer(*alloc(ctx, DType::kUInt32, 3));
  zero_fill(ctx, *bits);
  return bits;
}

// Words 0 and 1 of `words` (zeroed_words, written by a key kernel): the key bits that differ
// between elements. `flag`, when given, receives word 2. ORed over all replicas.
uint64_t varying_bits(const std::shared_ptr<Context>& ctx,
                      const std::shared_ptr<ReplicatedBuffer>& words, bool* flag = nullptr) {
  uint64_t mask = 0;
  if (flag) *flag = false;
  for (int r = 0; r < ctx->num_replicas(); ++r) {
    uint32_t w[3] = {0, 0, 0};
    words->read(w, 0, sizeof(w), r);
    mask |= uint64_t{w[0]} | (uint64_t{w[1]} << 32);
    if (flag) *flag = *flag || w[2] != 0;
  }
  return mask;
}

// sort_permutation and its relatives sort at most 2^31 - 1 elements (uint32 positions).
void check_size(int64_t n, std::string_view op) {
  if (n >= (int64_t{1} << 31)) {
    throw ShapeError("[" + std::string(op) +
                     "] sorting 2^31 elements or more is not supported "
                     "yet (got " +
                     std::to_string(n) + ")");
  }
}

// The pass geometry every replica can run: the 8-bit form where all replicas agree on it.
SortGeometry geometry(const std::shared_ptr<Context>& ctx, DType key, int payload_bytes) {
  const SortGeometry g =
      sort_geometry(key, emit_options(ctx->replica(0).device->caps()), payload_bytes);
  for (int r = 1; r < ctx->num_replicas(); ++r) {
    const SortGeometry o =
        sort_geometry(key, emit_options(ctx->replica(r).device->caps()), payload_bytes);
    if (o.threads != g.threads || o.per_thread != g.per_thread || o.digit_bits != g.digit_bits) {
      return sort_geometry_portable();
    }
  }
  return g;
}

// One LSD pass of `g`: keys (and their payload, when given) from slot `cur` to slot 1 - cur.
struct Passes {
  std::shared_ptr<Context> ctx;
  DType key;
  int64_t n;
  SortGeometry g;
  std::shared_ptr<ReplicatedBuffer>* keys;  // [2]
  std::shared_ptr<ReplicatedBuffer>* idx;   // [2], or null: keys alone
  int payload_bytes = 4;                    // of idx: uint32 indices, or 64-bit values
  // Read by the first pass instead of idx[0] (the caller's values, left as they are).
  std::shared_ptr<ReplicatedBuffer> first_idx;
  // A sort of values of this dtype (sorts_as_values) reads them from `first_keys` in its first
  // pass and, moving keys alone, writes them back in its last (sort_value_scatter_spec); moving
  // indices, its first pass makes them (sort_position_scatter_spec). kBool: keys throughout.
  DType values = DType::kBool;
  std::shared_ptr<ReplicatedBuffer> first_keys;
  // Digit 0's counts, found by read_values, for the first pass if it is digit 0's.
  std::shared_ptr<ReplicatedBuffer> first_counts;
  int cur = 0;
  int done = 0;  // passes run

  int64_t parts() const {
    const int64_t tiles = (n + g.block() - 1) / g.block();
    return std::min<int64_t>(tiles, kSortParts);  // partitions, a workgroup each
  }
  // The pass specs' slots (sort_pass.h).
  std::vector<Scalar> slots(int shift, int64_t row_length) const {
    std::vector<Scalar> s = {slot(shift), slot(row_length), slot(parts())};
    if (g.digit_bits == 8) s.push_back(slot(g.block()));
    return s;
  }
  const std::shared_ptr<ReplicatedBuffer>& source() const {
    return done == 0 && first_keys ? first_keys : keys[cur];
  }

  // Starts a sort of t's values, read from `data` by the first pass: digit 0's counts (kept for
  // that pass) and the key bits that vary, read back (varying_bits; `lossy` its flag).
  uint64_t read_values(DType t, std::shared_ptr<ReplicatedBuffer> data, bool* lossy = nullptr) {
    values = t;
    first_keys = std::move(data);
    auto words = zeroed_words(ctx);
    first_counts = value_counts(0, words);
    return varying_bits(ctx, words, lossy);
  }

  // The counts of the digits at `shift` of the values (sort_value_histogram_spec, which also
  // writes `words`) before the first pass.
  std::shared_ptr<ReplicatedBuffer> value_counts(int shift,
                                                 const std::shared_ptr<ReplicatedBuffer>& words) {
    auto counts = scratch_buffer(ctx, DType::kUInt32, g.digits() * parts());
    dispatch_library(ctx, sort_value_histogram_spec(values), {first_keys, counts, words}, n,
                     static_cast<uint64_t>(parts()), slots(shift, 0));
    return counts;
  }

  // A pass; in a sort of values, the first reads values and the last writes them
  // (sort_value_scatter_spec).
  void run(int shift, int64_t row_length, bool last = false) {
    const int64_t nb = parts();
    const bool reads_values = values != DType::kBool && done == 0;
    std::shared_ptr<ReplicatedBuffer> counts;
    if (reads_values) {
      counts = shift == 0 && first_counts ? std::move(first_counts)
                                          : value_counts(shift, zeroed_words(ctx));
    } else {
      counts = scratch_buffer(ctx, DType::kUInt32, g.digits() * nb);
      const bool rows = row_length > 0;
      std::vector<std::shared_ptr<ReplicatedBuffer>> hist_args = {source()};
      if (rows) hist_args.push_back(idx[cur]);
      hist_args.push_back(counts);
      dispatch_library(ctx, sort_histogram_spec(key, rows, g.digit_bits), hist_args, n,
                       static_cast<uint64_t>(nb), slots(shift, row_length));
    }
    // The 8-bit form: offsets within each digit and the digits' starts (sort_offsets_spec);
    // the 4-bit form: the prefix sum over every count.
    std::shared_ptr<ReplicatedBuffer> offsets, starts;
    if (g.digit_bits == 8) {
      offsets = scratch_buffer(ctx, DType::kUInt32, g.digits() * nb);
      auto totals = scratch_buffer(ctx, DType::kUInt32, g.digits());
      starts = scratch_buffer(ctx, DType::kUInt32, g.digits());
      dispatch_library(ctx, sort_offsets_spec(false), {counts, offsets, totals}, nb,
                       static_cast<uint64_t>(g.digits()));
      dispatch_library(ctx, sort_offsets_spec(true), {totals, starts}, g.digits(), 1);
    } else {
      offsets = exclusive_sums(ctx, counts, DType::kUInt32, g.digits() * nb);
    }
    submit_large();
    std::vector<std::shared_ptr<ReplicatedBuffer>> args = {source()};
    if (idx && !reads_values) args.push_back(done == 0 && first_idx ? first_idx : idx[cur]);
    args.push_back(offsets);
    if (starts) args.push_back(starts);
    args.push_back(keys[1 - cur]);
    if (idx) args.push_back(idx[1 - cur]);
    const KernelSpec spec =
        values != DType::kBool && !idx ? sort_value_scatter_spec(values, reads_values, last)
        : reads_values                 ? sort_position_scatter_spec(values)
                                       : sort_scatter_spec(key, idx ? payload_bytes : 0, g.digit_bits);
    dispatch_library(ctx, spec, args, n, static_cast<uint64_t>(nb), slots(shift, row_length));
    submit_large();
    cur = 1 - cur;
    ++done;
  }

  // A large pass's work goes to the device as soon as it is recorded, so that the device runs
  // it while the next is recorded (the stream's own policy waits for eight dispatches first,
  // which after the read of the varying bits left an H200 idle for the first pass's
  // recording). Small sorts, whose time is the host's, keep the stream's batching.
  void submit_large() const {
    if (n < (int64_t{1} << 20)) return;
    for (int r = 0; r < ctx->num_replicas(); ++r) ctx->replica(r).stream->submit();
  }

  // The passes over the key digits that `mask` (varying_bits) says differ between elements; a
  // sort of values reads them in the first and writes them in the last.
  void run_varying(uint64_t mask) {
    const int bits = static_cast<int>(itemsize(key)) * 8;
    std::vector<int> shifts;
    for (int shift = 0; shift < bits; shift += g.digit_bits) {
      if ((mask >> shift) & (g.digits() - 1)) shifts.push_back(shift);
    }
    for (size_t i = 0; i < shifts.size(); ++i) {
      run(shifts[i], 0, i + 1 == shifts.size());
    }
  }
};

// The order-preserving keys of `a`'s values (sort_value_keys_spec: a real dtype, taken flat)
// into `keys`, and the key bits that vary between them; `lossy` as varying_bits' flag.
uint64_t value_keys(const Array& a, const std::shared_ptr<ReplicatedBuffer>& keys,
                    bool* lossy = nullptr) {
  const std::shared_ptr<Context>& ctx = a.context();
  const Array data = flat_buffer(a, a.dtype());
  auto words = zeroed_words(ctx);
  dispatch_library(ctx, sort_value_keys_spec(a.dtype()),
                   {device_buffer(*data.node()->buffer()), keys, words}, a.size(),
                   sort_groups(a.size(), kSortThreads));
  return varying_bits(ctx, words, lossy);
}

// Values of dtype t from their keys (sort_value_keys_spec): the encoding undone. A float key
// with the top bit set was a value >= +0.0 (the largest key: the quiet NaN).
Array from_value_keys(const Array& k, DType t) {
  const int bits = static_cast<int>(itemsize(t)) * 8;
  const uint64_t sign = uint64_t{1} << (bits - 1);
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const DType raw = bits == 8    ? DType::kUInt8
                    : bits == 16 ? DType::kUInt16
                    : bits == 32 ? DType::kUInt32
                                 : DType::kUInt64;
  if (is_bool(t)) return not_equal(k, Arg(uint64_t{0}));
  if (is_unsigned_integer(t)) return k.astype(t);
  if (is_signed_integer(t)) return view_dtype((k ^ Arg(sign)).astype(raw), t);
  const uint64_t quiet = bits == 16 ? 0x7E00u : bits == 32 ? 0x7FC00000u : 0x7FF8000000000000ull;
  Array value = where(not_equal(k & Arg(sign), Arg(uint64_t{0})), k ^ Arg(sign), ~k & Arg(mask));
  value = where(equal(k, Arg(mask)), Arg(quiet), value);
  return view_dtype(value.astype(raw), t);
}

}  // namespace

uint64_t sort_groups(int64_t items, int64_t per_group) {
  return static_cast<uint64_t>(std::clamp<int64_t>((items + per_group - 1) / per_group, 1, 65535));
}

Array sort_permutation(const Array& a, int64_t rowlen, std::string_view op) {
  const std::shared_ptr<Context>& ctx = a.context();
  const int64_t n = a.size();
  const DType t = a.dtype();
  VKA_ASSERT(rowlen > 0 && n % rowlen == 0);
  check_size(n, op);
  const Array data = flat_buffer(a, t);
  const DType key = sort_key_dtype(t);
  std::shared_ptr<BufferRef> idx_ref[2] = {alloc(ctx, DType::kUInt32, n),
                                           alloc(ctx, DType::kUInt32, n)};
  std::shared_ptr<ReplicatedBuffer> keys[2] = {device_buffer(*alloc(ctx, key, n)),
                                               device_buffer(*alloc(ctx, key, n))};
  std::shared_ptr<ReplicatedBuffer> idx[2] = {device_buffer(*idx_ref[0]),
                                              device_buffer(*idx_ref[1])};
  Passes passes{ctx, key, n, geometry(ctx, key, 4), keys, idx};
  if (sorts_as_values(t) && passes.g.digit_bits == 8) {
    // The first pass makes the keys as it reads the values, and the positions it moves. An
    // argsort loses nothing to the keys (-0.0 ties with 0.0, and NaNs with each other, as in
    // numpy's order); one pass at least runs, even where no digit varies, to write them.
    const uint64_t mask = passes.read_values(t, device_buffer(*data.node()->buffer()));
    passes.run_varying(std::max<uint64_t>(mask, 1));
  } else {
    // Least significant key first: a complex number orders by (NaN class, real, imaginary).
    const std::vector<int> parts = is_complex(t) ? std::vector<int>{1, 0, 2} : std::vector<int>{0};
    for (size_t p = 0; p < parts.size(); ++p) {
      const int cur = passes.cur;
      auto words = zeroed_words(ctx);
      dispatch_library(ctx, sort_keys_spec(t),
                       {device_buffer(*data.node()->buffer()), keys[cur], idx[cur], words}, n,
                       sort_groups(n, kSortThreads), {slot(parts[p]), slot(p == 0 ? 1 : 0)});
      passes.run_varying(varying_bits(ctx, words));
    }
  }
  // Rows last: the most significant digits (the sort within each row is already done).
  const int64_t rows = n / rowlen;
  for (int shift = 0; rows > 1 && ((rows - 1) >> shift) != 0; shift += passes.g.digit_bits) {
    passes.run(shift, rowlen);
  }
  return Array(default_graph().buffer(idx_ref[passes.cur], DType::kUInt32, View::contiguous({n})),
               ctx);
}

std::optional<Array> sort_values(const Array& a, std::string_view op) {
  const std::shared_ptr<Context>& ctx = a.context();
  const int64_t n = a.size();
  const DType t = a.dtype();
  if (is_complex(t) || n == 0) return std::nullopt;
  const DType key = sort_key_dtype(t);
  const SortGeometry g = geometry(ctx, key, 0);
  if (g.digit_bits != 8) return std::nullopt;
  check_size(n, op);
  const bool as_values = sorts_as_values(t);
  const DType slot_type = as_values ? t : key;
  std::shared_ptr<BufferRef> key_ref[2] = {alloc(ctx, slot_type, n), alloc(ctx, slot_type, n)};
  std::shared_ptr<ReplicatedBuffer> keys[2] = {device_buffer(*key_ref[0]),
                                               device_buffer(*key_ref[1])};
  Passes passes{ctx, key, n, g, keys, nullptr, 0};
  bool lossy = false;
  if (as_values) {
    // The passes read the values and write them back: the first histogram also finds the
    // key bits that vary.
    const Array data = flat_buffer(a, t);
    const uint64_t mask = passes.read_values(t, device_buffer(*data.node()->buffer()), &lossy);
    // Every value alike, or values whose bits their keys lose: the permutation's way.
    if (lossy || mask == 0) return std::nullopt;
    passes.run_varying(mask);
    return Array(default_graph().buffer(key_ref[passes.cur], t, View::contiguous({n})), ctx);
  }
  const uint64_t mask = value_keys(a, keys[0], &lossy);
  if (lossy) return std::nullopt;
  passes.run_varying(mask);
  Array sorted_keys(default_graph().buffer(key_ref[passes.cur], key, View::contiguous({n})), ctx);
  return from_value_keys(sorted_keys, t);
}

std::optional<Array> sort_by_key(const Array& keys, const Array& values, std::string_view op) {
  const std::shared_ptr<Context>& ctx = keys.context();
  const int64_t n = keys.size();
  const DType t = keys.dtype();
  VKA_ASSERT(is_integer(t) && values.size() == n && itemsize(values.dtype()) == 8);
  const DType key = sort_key_dtype(t);
  const SortGeometry g = geometry(ctx, key, 8);
  if (g.digit_bits != 8 || n == 0) return std::nullopt;
  check_size(n, op);
  std::shared_ptr<ReplicatedBuffer> key_buf[2] = {device_buffer(*alloc(ctx, key, n)),
                                                  device_buffer(*alloc(ctx, key, n))};
  const uint64_t mask = value_keys(keys, key_buf[0]);
  // The first pass reads the values where they are; the passes after it move them between
  // two buffers of their own.
  const Array flat_values = flat_buffer(values, values.dtype());
  std::shared_ptr<BufferRef> value_ref[2] = {alloc(ctx, values.dtype(), n),
                                             alloc(ctx, values.dtype(), n)};
  std::shared_ptr<ReplicatedBuffer> value_buf[2] = {device_buffer(*value_ref[0]),
                                                    device_buffer(*value_ref[1])};
  Passes passes{ctx, key, n, g, key_buf, value_buf, 8};
  passes.first_idx = device_buffer(*flat_values.node()->buffer());
  passes.run_varying(mask);
  if (passes.done == 0) return flat_values;  // every key equal: the values are in order
  return Array(default_graph().buffer(value_ref[passes.cur], values.dtype(), View::contiguous({n})),
               ctx);
}

}  // namespace vka
