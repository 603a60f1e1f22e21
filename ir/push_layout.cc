// The argument block of a kernel (push constants, or an argument buffer): its layout, which
// the emitters declare and launch fills, and its packing.
#include <algorithm>
#include <cstring>

#include "base/errors.h"
#include "ir/kernel_spec.h"  // declares the layout (push_layout, pack_push_constants)

namespace vka {
namespace {

std::vector<Layout> accessor_layouts(const KernelSpec& s) {
  std::vector<Layout> v;
  for (const Accessor& a : s.inputs) v.push_back(a.layout);
  for (const Accessor& a : s.outputs) v.push_back(a.layout);
  for (Layout l : s.sources) v.push_back(l);
  return v;
}

}  // namespace

std::string PushField::name() const {
  static const char* const kReduceNames[] = {"rm", "rk", "rchunk", "rsplit", "rsbase", "rscount"};
  switch (kind) {
    case kCount:
      return "n";
    case kReduce:
      return kReduceNames[index];
    case kDim:
      return "dim" + std::to_string(index);
    case kOffset:
      return "off" + std::to_string(index);
    case kStride:
      return "st" + std::to_string(index) + "_" + std::to_string(dim);
    case kSlot:
      return "c" + std::to_string(index);
    case kAddress:
      return "a" + std::to_string(index);
  }
  return "?";
}

PushLayout push_layout(const KernelSpec& spec) {
  PushLayout L;
  const uint32_t isz = spec.index64 ? 8 : 4;
  auto add = [&L](PushField::Kind kind, int32_t index, int32_t dim, uint32_t bytes) {
    L.size = (L.size + bytes - 1) / bytes * bytes;
    L.fields.push_back(PushField{kind, index, dim, L.size, bytes});
    L.size += bytes;
  };
  add(PushField::kCount, 0, 0, isz);
  if (spec.kind == KernelKind::kReduce) {
    for (int i = 0; i < 6; ++i) add(PushField::kReduce, i, 0, isz);
  }
  if (any_strided(spec)) {
    for (int d = 0; d < spec.rank; ++d) add(PushField::kDim, d, 0, isz);
  }
  const std::vector<Layout> layouts = accessor_layouts(spec);
  for (std::size_t a = 0; a < layouts.size(); ++a) {
    const int32_t ai = static_cast<int32_t>(a);
    add(PushField::kOffset, ai, 0, isz);
    if (layouts[a] != Layout::kStrided || spec.stride_owner(ai) != ai) continue;
    for (int d = 0; d < spec.rank; ++d) add(PushField::kStride, ai, d, isz);
  }
  for (std::size_t c = 0; c < spec.slots.size(); ++c) {
    add(PushField::kSlot, static_cast<int32_t>(c), 0, 8);
  }
  if (spec.addressing == Addressing::kAddresses) {
    for (int b = 0; b < spec.num_operand_bindings(); ++b) add(PushField::kAddress, b, 0, 8);
  }
  return L;
}

std::vector<uint8_t> pack_push_constants(const KernelSpec& spec, const PushLayout& layout,
                                         const LaunchParams& p) {
  VKA_ASSERT(p.inputs.size() == spec.inputs.size() && p.outputs.size() == spec.outputs.size() &&
             p.sources.size() == spec.sources.size());
  VKA_ASSERT(static_cast<int>(p.shape.size()) == spec.rank);
  const size_t n_in = p.inputs.size(), n_out = p.outputs.size();
  auto view = [&](int32_t a) -> const View& {
    const size_t i = static_cast<size_t>(a);
    return i < n_in           ? p.inputs[i]
           : i < n_in + n_out ? p.outputs[i - n_in]
                              : p.sources[i - n_in - n_out];
  };
  // Slot s's 64 bits: the scalars' words in slot order (a complex128 fills two slots).
  std::vector<uint64_t> slots;
  slots.reserve(spec.slots.size());
  for (const Scalar& c : p.slots) {
    const std::array<uint32_t, 4> w = c.words();
    for (int i = 0; i < Scalar::slot_count(c.dtype()); ++i) {
      slots.push_back(w[2 * i] | (uint64_t{w[2 * i + 1]} << 32));
    }
  }
  VKA_ASSERT(slots.size() == spec.slots.size());

  std::vector<uint8_t> bytes(layout.size, 0);
  for (const PushField& f : layout.fields) {
    int64_t v = 0;
    switch (f.kind) {
      case PushField::kCount:
        v = p.count();
        break;
      case PushField::kReduce: {
        const int64_t r[] = {p.reduce_m, p.reduce_k,   p.chunk,
                             p.splits,   p.split_base, p.split_count};
        v = r[f.index];
        break;
      }
      case PushField::kDim:
        v = p.shape[static_cast<size_t>(f.index)];
        break;
      case PushField::kOffset:
        v = view(f.index).offset;
        break;
      case PushField::kStride:
        v = view(f.index).strides[static_cast<size_t>(f.dim)];
        break;
      case PushField::kSlot:
        v = static_cast<int64_t>(slots[static_cast<size_t>(f.index)]);
        break;
      case PushField::kAddress:
        continue;  // write_addresses, per replica
    }
    // Little-endian hosts and devices (all Vulkan targets here): low bytes first.
    if (f.bytes == 4) {
      VKA_ASSERT(f.kind == PushField::kSlot || (v >= INT32_MIN && v <= INT32_MAX));
      const uint32_t w = static_cast<uint32_t>(v);
      std::memcpy(bytes.data() + f.offset, &w, 4);
    } else {
      std::memcpy(bytes.data() + f.offset, &v, 8);
    }
  }
  return bytes;
}

void write_addresses(const PushLayout& layout, const std::vector<uint64_t>& addresses,
                     std::vector<uint8_t>& block) {
  for (const PushField& f : layout.fields) {
    if (f.kind != PushField::kAddress) continue;
    std::memcpy(block.data() + f.offset, &addresses.at(static_cast<size_t>(f.index)), 8);
  }
}

}  // namespace vka
