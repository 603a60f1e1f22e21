// Scans: the dtype rules of numpy's cumulative functions, the choice of a kernel plan for the
// scanned axis, and the pipelines of kernels/lib/cumulative.h, run by library nodes.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "array/array.h"
#include "array/library_node.h"
#include "base/errors.h"
#include "kernels/lib/cumulative.h"
#include "runtime/launch.h"
#include "runtime/realize.h"

namespace vka {
namespace {

// Lines shorter than this are scanned one invocation per line; so are lines along an outer
// axis when there are at least kManyLines of them (enough to fill a GPU, and each warp reads
// neighbouring elements). Everything else is moved to the last axis and scanned in blocks.
constexpr int64_t kShortLine = 16;
constexpr int64_t kManyLines = 4096;
constexpr uint64_t kMaxGroups = 65535;  // Vulkan's guaranteed maxComputeWorkGroupCount[0]

// A contiguous run of `count` elements of a buffer, starting at element `offset`.
struct Span {
  std::shared_ptr<BufferRef> ref;
  std::shared_ptr<ReplicatedBuffer> buf;
  int64_t offset;
  int64_t count;
};

Span fresh(const std::shared_ptr<Context>& ctx, DType t, int64_t n) {
  // At least one element: a binding may not be empty.
  std::shared_ptr<BufferRef> ref = allocate_for(ctx, t, {std::max<int64_t>(n, 1)});
  return {ref, device_buffer(*ref), 0, n};
}

// The elements of `a` in C order as a span of its (computed) buffer.
Span span_of(const Array& a) {
  NodePtr leaf = Array(a).eval().node();
  if (!leaf->view().is_contiguous()) {
    leaf = realize(a.context(), {default_graph().convert(leaf, a.dtype(), a.shape())})[0];
  }
  return {leaf->buffer(), device_buffer(*leaf->buffer()), leaf->view().offset, a.size()};
}

// One launch of a scan kernel on every replica through the one dispatch path
// (runtime/launch.h): `spans` are the spec's inputs then outputs. A buffer past
// maxStorageBufferRange is addressed, and bound windows cover what each span touches.
void launch(const std::shared_ptr<Context>& ctx, const KernelSpec& spec,
            const std::vector<Span>& spans, int64_t n, uint64_t groups, int64_t c0, int64_t c1) {
  VKA_ASSERT(static_cast<int>(spans.size()) == spec.num_operand_bindings());
  LaunchParams p;
  p.shape = {n};
  BindingBuffers args;
  for (size_t i = 0; i < spans.size(); ++i) {
    const Span& s = spans[i];
    args.push_back(s.buf.get());
    // The elements the kernel reaches: [offset, offset + count) (its index arithmetic adds
    // the view's offset to positions below count).
    View v = View::contiguous({std::max<int64_t>(s.count, 1)}, s.offset);
    if (i < spec.inputs.size()) p.inputs.push_back(v); else p.outputs.push_back(v);
  }
  p.slots = {Scalar::of_int(c0), Scalar::of_int(c1)};
  KernelSpec k = spec;
  choose_interface(ctx, k, args);
  const std::vector<Window> win = windows(ctx, k, args, p);
  p.shape = {n};
  dispatch_spec(ctx, k, args, win, p, std::nullopt, [&](const Caps&) {
    return std::array<uint64_t, 3>{std::max<uint64_t>(1, std::min(groups, kMaxGroups)), 1, 1};
  });
}

// Chunks of a row a long scan is split into: enough workgroups to fill a GPU with several
// waves (so that the last wave's idle share stays small), few enough that each one's fold of
// the chunk totals before it (at most this many values, read from cache) costs little.
constexpr int64_t kTargetChunks = 4096;

// The scan of every row of `in`, a contiguous (rows, len) array of dtype t: each row is cut
// into chunks of whole blocks, one workgroup each. When a row has more than one chunk, the
// chunk totals come first; then each workgroup folds the totals of its row's earlier chunks
// and scans its own blocks in order (kernels/lib/cumulative.h).
Span scan_rows(const std::shared_ptr<Context>& ctx, Op op, DType t, const Span& in, int64_t rows,
               int64_t len) {
  Span out = fresh(ctx, t, rows * len);
  const int64_t block = cumulative_block(t);
  const int64_t nb = (len + block - 1) / block;
  const int64_t per_chunk =
      std::clamp<int64_t>((rows * nb + kTargetChunks - 1) / kTargetChunks, 1, nb);
  const int64_t chunks = rows * ((nb + per_chunk - 1) / per_chunk);
  Span totals = in;  // not read when every row is one chunk
  if (chunks > rows) {
    totals = fresh(ctx, t, chunks);
    launch(ctx, cumulative_reduce_spec(op, t), {in, totals}, chunks, chunks, len, per_chunk);
  }
  launch(ctx, cumulative_rows_spec(op, t), {in, totals, out}, chunks, chunks, len, per_chunk);
  return out;
}

// The scan of every line of `in`, a contiguous (outer, len, inner) array, along len.
Span scan_lines(const std::shared_ptr<Context>& ctx, Op op, DType t, const Span& in,
                int64_t outer, int64_t len, int64_t inner) {
  Span out = fresh(ctx, t, outer * len * inner);
  const int64_t lines = outer * inner;
  launch(ctx, cumulative_lines_spec(op, t), {in, out}, lines,
         static_cast<uint64_t>((lines + kCumThreads - 1) / kCumThreads), len, inner);
  return out;
}

DType accumulate_dtype(DType t) {
  if (is_bool(t) || (is_signed_integer(t) && itemsize(t) < 8)) return DType::kInt64;
  if (is_unsigned_integer(t) && itemsize(t) < 8) return DType::kUInt64;
  return t;
}

// The scan of `x` (already of the result dtype) along axis `ax`, computed now: a new
// C-contiguous array.
Array scan_now(const Array& x, Op op, int ax) {
  const std::shared_ptr<Context>& ctx = x.context();
  const DType t = x.dtype();
  if (x.size() == 0 || x.shape()[ax] == 1) return copy(x);
  if (is_bool(t)) {
    // Logical or (sum, maximum) and logical and (product, minimum) on 0/1 bytes.
    const Op on_bytes = op == Op::kAdd || op == Op::kMaximum ? Op::kMaximum : Op::kMinimum;
    return scan_now(x.astype(DType::kUInt8), on_bytes, ax).astype(DType::kBool);
  }
  const Shape shape = x.shape();  // a copy: evaluating x replaces its node
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < ax; ++d) outer *= shape[d];
  for (int d = ax + 1; d < x.ndim(); ++d) inner *= shape[d];
  const int64_t len = shape[ax];
  if (len <= kShortLine || (inner > 1 && outer * inner >= kManyLines)) {
    Span out = scan_lines(ctx, op, t, span_of(ascontiguousarray(x)), outer, len, inner);
    return Array(default_graph().buffer(out.ref, t, View::contiguous(shape)), ctx);
  }
  Array rows = inner == 1 ? x : moveaxis(x, {ax}, {-1});
  Span out = scan_rows(ctx, op, t, span_of(ascontiguousarray(rows)), outer * inner, len);
  Array y(default_graph().buffer(out.ref, t, View::contiguous(rows.shape())), ctx);
  return inner == 1 ? y : ascontiguousarray(moveaxis(y, {-1}, {ax}));
}

// The scan of `x` seen as `shape` (its own, or its elements in C order as one axis) along `ax`,
// as a library node: lazy, like its input (reshaping a lazy array would compute it).
Array scan(const Array& x, Op op, int ax, const Shape& shape, std::string_view what) {
  if (x.size() >= (int64_t{1} << 31)) {
    throw ShapeError("[" + std::string(what) + "] arrays of 2^31 elements or more are not "
                     "supported yet (got " + std::to_string(x.size()) + ")");
  }
  return library_node(std::string(what), {x}, x.dtype(), shape,
                      [op, ax, shape](const std::vector<Array>& in) {
                        return scan_now(in[0].shape() == shape ? in[0] : reshape(in[0], shape),
                                        op, ax);
                      });
}

// cumsum and its relatives: the flattened array for axis nullopt, numpy's accumulator dtype.
Array accumulate(const Array& a, Op op, std::optional<int64_t> axis, std::optional<DType> dtype,
                 std::string_view what) {
  // numpy accumulates a 0-d array as 1-d.
  const Shape shape = axis && a.ndim() > 0 ? a.shape() : Shape{a.size()};
  const int ax = normalize_axis(what, axis.value_or(0), static_cast<int>(shape.size()));
  const DType t = dtype.value_or(accumulate_dtype(a.dtype()));
  return scan(a.dtype() == t ? a : a.astype(t), op, ax, shape, what);
}

// NaN replaced by `fill` (numpy's _replace_nan): floating and complex arrays only.
Array replace_nan(const Array& a, int fill) {
  if (!is_floating(a.dtype()) && !is_complex(a.dtype())) return a;
  return where(isnan(a), Arg(fill), a);
}

// numpy 2's cumulative_sum / cumulative_prod.
Array cumulative(const Array& a, Op op, std::optional<int64_t> axis, std::optional<DType> dtype,
                 bool include_initial, std::string_view what) {
  if (!axis && a.ndim() > 1) {
    throw ShapeError("[" + std::string(what) + "] for arrays which have more than one "
                     "dimension the axis argument is required (got shape " +
                     to_string(a.shape()) + ")");
  }
  const int ax = normalize_axis(what, axis.value_or(0), std::max(a.ndim(), 1));
  Array r = accumulate(a, op, ax, dtype, what);
  if (!include_initial) return r;
  Shape shape = r.shape();
  shape[ax] += 1;
  Array out = full(shape, Scalar::of_int(op == Op::kAdd ? 0 : 1, r.dtype()), r.context());
  Index at(static_cast<size_t>(ax), all());
  at.push_back(range(1, std::nullopt));
  out.set(at, std::move(r));
  return out;
}

Array running(const Array& a, Op op, int64_t axis, std::string_view what) {
  if (a.ndim() == 0) {
    throw DTypeError("[" + std::string(what) + "] cannot accumulate on a scalar (0-d array)");
  }
  if (is_complex(a.dtype())) {
    throw DTypeError("[" + std::string(what) + "] vkarray does not support " +
                     std::string(name(a.dtype())) + " input yet");
  }
  return scan(a, op, normalize_axis(what, axis, a.ndim()), a.shape(), what);
}

}  // namespace

Array cumsum(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype) {
  return accumulate(a, Op::kAdd, axis, dtype, "cumsum");
}
Array cumprod(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype) {
  return accumulate(a, Op::kMultiply, axis, dtype, "cumprod");
}
Array nancumsum(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype) {
  return accumulate(replace_nan(a, 0), Op::kAdd, axis, dtype, "nancumsum");
}
Array nancumprod(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype) {
  return accumulate(replace_nan(a, 1), Op::kMultiply, axis, dtype, "nancumprod");
}
Array cumulative_sum(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype,
                     bool include_initial) {
  return cumulative(a, Op::kAdd, axis, dtype, include_initial, "cumulative_sum");
}
Array cumulative_prod(const Array& a, std::optional<int64_t> axis, std::optional<DType> dtype,
                      bool include_initial) {
  return cumulative(a, Op::kMultiply, axis, dtype, include_initial, "cumulative_prod");
}
Array cummax(const Array& a, int64_t axis) { return running(a, Op::kMaximum, axis, "cummax"); }
Array cummin(const Array& a, int64_t axis) { return running(a, Op::kMinimum, axis, "cummin"); }

}  // namespace vka
