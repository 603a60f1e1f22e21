// User kernels: reflection-checked construction, argument binding, dispatch, write-back.
#include "array/user_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "array/write.h"
#include "base/errors.h"
#include "device/stream.h"
#include "kernels/cache.h"
#include "kernels/cache_file.h"
#include "runtime/library.h"
#include "runtime/realize.h"

namespace vka {

struct UserKernel::Prepared {
  std::shared_ptr<Context> ctx;
  std::vector<std::shared_ptr<ReplicatedBuffer>> buffers;
  std::vector<uint64_t> offsets, ranges;
  std::vector<bool> writes;
  std::vector<uint8_t> push;
  std::array<uint32_t, 3> groups{0, 0, 0};
  // A written argument: written in place (its buffer's version moves on afterwards), or
  // through a contiguous copy `tmp` that is written back into `dest` (strided views).
  struct WriteBack {
    std::shared_ptr<BufferRef> in_place;
    NodePtr dest, tmp;
  };
  std::vector<WriteBack> write_backs;
  std::vector<int> written;
};

namespace {

std::string ids_of(const std::map<uint32_t, SpecConstantInfo>& m) {
  std::string s;
  for (const auto& [id, info] : m) s += (s.empty() ? "" : ", ") + std::to_string(id);
  return s.empty() ? "none" : s;
}

// The bits of `v` as the shader's constant `id` of type `info` reads them.
uint64_t spec_bits(const std::string& op, uint32_t id, const SpecConstantInfo& info,
                   const SpecValue& v) {
  const std::string which = op + "specialization constant " + std::to_string(id);
  switch (info.kind) {
    case SpecConstantInfo::kBool:
      return (v.is_float ? v.f != 0 : v.i != 0) ? 1 : 0;
    case SpecConstantInfo::kFloat: {
      const double d = v.is_float ? v.f : static_cast<double>(v.i);
      if (info.bytes == 8) {
        uint64_t b;
        std::memcpy(&b, &d, 8);
        return b;
      }
      const float f = static_cast<float>(d);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      return b;
    }
    case SpecConstantInfo::kInt:
    case SpecConstantInfo::kUInt: {
      if (v.is_float) {
        throw DTypeError(which + " is an integer in the shader, got the float " +
                         std::to_string(v.f));
      }
      const bool is_signed = info.kind == SpecConstantInfo::kInt;
      const int64_t lo = info.bytes == 8 ? (is_signed ? INT64_MIN : 0)
                                         : (is_signed ? INT32_MIN : 0);
      const int64_t hi = info.bytes == 8 ? INT64_MAX : (is_signed ? INT32_MAX : UINT32_MAX);
      if (v.i < lo || v.i > hi) {
        throw OverflowError(which + ": " + std::to_string(v.i) + " does not fit its " +
                            (is_signed ? "int" : "uint") + std::to_string(info.bytes * 8));
      }
      return info.bytes == 8 ? static_cast<uint64_t>(v.i)
                             : static_cast<uint64_t>(static_cast<uint32_t>(v.i));
    }
  }
  return 0;
}

std::string dims(const std::array<uint32_t, 3>& d) {
  return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) +
         ")";
}

}  // namespace

UserKernel UserKernel::from_glsl(const std::string& source, UserKernelOptions options) {
  auto spirv = std::make_shared<const std::vector<uint32_t>>(
      KernelCache::instance().compile_user(source, options.name));
  return UserKernel(std::move(spirv), std::move(options));
}

UserKernel UserKernel::from_spirv(std::vector<uint32_t> spirv, UserKernelOptions options) {
  return UserKernel(std::make_shared<const std::vector<uint32_t>>(std::move(spirv)),
                    std::move(options));
}

UserKernel::UserKernel(std::shared_ptr<const std::vector<uint32_t>> spirv,
                       UserKernelOptions options)
    : name_(std::move(options.name)), spirv_(std::move(spirv)), groups_(options.groups) {
  const std::string op = "[Kernel " + name_ + "] ";
  info_ = reflect_spirv(*spirv_, name_);
  std::map<uint32_t, SpecValue> values = std::move(options.spec_consts);
  for (const auto& [id, v] : values) {
    if (info_.spec_constants.count(id) == 0) {
      throw ShapeError(op + "specialization constant " + std::to_string(id) +
                       " is not declared by the shader (it declares " +
                       ids_of(info_.spec_constants) + ")");
    }
  }
  for (int k = 0; k < 3; ++k) {
    const int64_t id = info_.local_size_id[k];
    if (id < 0) {
      local_size_[k] = info_.local_size[k];
      if (options.local_size && (*options.local_size)[k] != local_size_[k]) {
        std::array<uint32_t, 3> declared = info_.local_size;
        throw ShapeError(op + "local_size " + dims(*options.local_size) +
                         " does not match the shader's local_size " + dims(declared) +
                         " (declare local_size_" + "xyz"[k] + "_id to set it)");
      }
      continue;
    }
    const uint32_t uid = static_cast<uint32_t>(id);
    if (options.local_size) {
      const int64_t want = (*options.local_size)[k];
      auto given = values.find(uid);
      if (given != values.end() && (given->second.is_float || given->second.i != want)) {
        throw ShapeError(op + "local_size " + dims(*options.local_size) +
                         " disagrees with specialization constant " + std::to_string(uid));
      }
      values[uid] = SpecValue::of_int(want);
    }
    auto it = values.find(uid);
    local_size_[k] = it != values.end() ? static_cast<uint32_t>(it->second.i)
                                       : static_cast<uint32_t>(info_.local_size[k]);
  }
  for (uint32_t w : local_size_) {
    if (w == 0) throw ShapeError(op + "local_size " + dims(local_size_) + " has a zero dimension");
  }
  for (const auto& [id, v] : values) {
    const SpecConstantInfo& info = info_.spec_constants.at(id);
    const uint64_t bits = spec_bits(op, id, info, v);
    VkSpecializationMapEntry e{id, static_cast<uint32_t>(spec_.data.size()), info.bytes};
    spec_.entries.push_back(e);
    spec_.data.resize(spec_.data.size() + info.bytes);
    std::memcpy(spec_.data.data() + e.offset, &bits, info.bytes);  // little-endian hosts
  }
  default_push_ = push_bytes(options.push_consts.empty()
                                 ? std::optional<std::vector<uint8_t>>()
                                 : std::optional<std::vector<uint8_t>>(options.push_consts));
  std::string spec_text;
  for (const auto& e : spec_.entries) spec_text += std::to_string(e.constantID) + ",";
  cache_key_ = name_ + "\n" +
               digest128(std::string_view(reinterpret_cast<const char*>(spirv_->data()),
                                          spirv_->size() * 4))
                   .hex() +
               "\n" + spec_text + "\n" +
               digest128(std::string_view(reinterpret_cast<const char*>(spec_.data.data()),
                                          spec_.data.size()))
                   .hex() +
               "\n" + std::to_string(num_bindings());
}

std::vector<uint8_t> UserKernel::push_bytes(
    const std::optional<std::vector<uint8_t>>& given) const {
  const uint32_t want = info_.push_constant_bytes, padded = (want + 3) / 4 * 4;
  if (!given) return default_push_.empty() ? std::vector<uint8_t>(padded, 0) : default_push_;
  if (given->size() < want || given->size() > padded) {
    throw ShapeError("[Kernel " + name_ + "] push constants of " + std::to_string(given->size()) +
                     " bytes do not match the shader's push-constant block of " +
                     std::to_string(want) + " bytes");
  }
  std::vector<uint8_t> out = *given;
  out.resize(padded, 0);
  return out;
}

std::shared_ptr<UserKernel::Prepared> UserKernel::prepare(std::vector<Array>& args,
                                                          const UserCall& call) const {
  const std::string op = "[Kernel " + name_ + "] ";
  const size_t n = info_.declared.size();
  if (args.size() != n) {
    throw ShapeError(op + "takes " + std::to_string(n) + " arrays (bindings 0.." +
                     std::to_string(static_cast<int64_t>(n) - 1) + "), got " +
                     std::to_string(args.size()));
  }
  auto p = std::make_shared<Prepared>();
  p->ctx = n ? args[0].context() : Context::default_context();
  for (const Array& a : args) {
    if (a.context() != p->ctx) throw ShapeError(op + "arrays from different contexts");
  }
  if (call.index) p->ctx->replica(*call.index);  // IndexError naming the range
  p->writes = call.writes ? *call.writes : std::vector<bool>(n);
  if (call.writes && call.writes->size() != n) {
    throw ShapeError(op + "writes= names " + std::to_string(call.writes->size()) +
                     " arguments, the kernel takes " + std::to_string(n));
  }
  if (!call.writes) {
    for (size_t i = 0; i < n; ++i) p->writes[i] = !info_.readonly[i];
  }
  for (size_t i = 0; i < n; ++i) {
    if (p->writes[i] && !args[i].is_writeable()) {
      throw ShapeError(op + "argument " + std::to_string(i) +
                       " is written by the kernel but is a read-only view");
    }
  }
  p->push = push_bytes(call.push_consts);
  if (call.groups || groups_) {
    p->groups = call.groups ? *call.groups : *groups_;
  } else {
    int64_t count = 1;
    int first = -1;
    for (size_t i = 0; i < n && first < 0; ++i) {
      if (p->writes[i]) first = static_cast<int>(i);
    }
    if (n) count = args[first < 0 ? 0 : first].size();
    p->groups = {static_cast<uint32_t>((count + local_size_[0] - 1) / local_size_[0]), 1, 1};
  }
  uint64_t align = 4;
  for (int d = 0; d < p->ctx->num_devices(); ++d) {
    align = std::max<uint64_t>(align, p->ctx->device(d).caps().min_storage_buffer_offset_alignment);
  }
  auto bindable = [align](const NodePtr& leaf) {
    return leaf->view().is_contiguous() &&
           (leaf->view().offset * static_cast<int64_t>(itemsize(leaf->dtype()))) % align == 0;
  };
  auto copy_of = [&](const NodePtr& leaf) {
    return realize(p->ctx, {default_graph().elementwise(Op::kAstype, leaf->dtype(), {leaf})},
                   call.index)[0];
  };
  std::vector<NodePtr> leaves(n);
  for (size_t i = 0; i < n; ++i) {
    if (p->writes[i]) {
      const NodePtr dest = args[i].storage();
      if (bindable(dest)) {
        pin_readers(p->ctx, *dest->buffer(), nullptr, &dest->view());
        leaves[i] = dest;
        p->write_backs.push_back({dest->buffer(), nullptr, nullptr});
      } else {
        leaves[i] = copy_of(dest);
        p->write_backs.push_back({nullptr, dest, leaves[i]});
      }
      p->written.push_back(static_cast<int>(i));
    } else {
      NodePtr leaf = args[i].node();
      if (!leaf->is_leaf()) leaf = realize(p->ctx, {leaf}, call.index)[0];
      leaves[i] = bindable(leaf) ? leaf : copy_of(leaf);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const NodePtr& leaf = leaves[i];
    const uint64_t nbytes = static_cast<uint64_t>(size(leaf->shape())) * itemsize(leaf->dtype());
    if (nbytes == 0) {  // a binding may not be empty: a small scratch buffer stands in
      p->buffers.push_back(scratch_buffer(p->ctx, DType::kUInt32, 1));
      p->offsets.push_back(0);
      p->ranges.push_back(4);
      continue;
    }
    p->buffers.push_back(device_buffer(*leaf->buffer()));
    p->offsets.push_back(static_cast<uint64_t>(leaf->view().offset) * itemsize(leaf->dtype()));
    p->ranges.push_back(nbytes);
  }
  return p;
}

void UserKernel::record(const Prepared& p, int replica, Stream& stream) const {
  if (static_cast<uint64_t>(p.groups[0]) * p.groups[1] * p.groups[2] == 0) return;
  Device& device = *p.ctx->replica(replica).device;
  const Caps& caps = device.caps();
  const uint64_t invocations = uint64_t{local_size_[0]} * local_size_[1] * local_size_[2];
  if (local_size_[0] > caps.max_compute_work_group_size[0] ||
      local_size_[1] > caps.max_compute_work_group_size[1] ||
      local_size_[2] > caps.max_compute_work_group_size[2] ||
      invocations > caps.max_compute_work_group_invocations) {
    throw ShapeError("[Kernel " + name_ + "] local_size " + dims(local_size_) +
                     " exceeds the device limits: size (" +
                     std::to_string(caps.max_compute_work_group_size[0]) + ", " +
                     std::to_string(caps.max_compute_work_group_size[1]) + ", " +
                     std::to_string(caps.max_compute_work_group_size[2]) + "), " +
                     std::to_string(caps.max_compute_work_group_invocations) + " invocations");
  }
  auto pipeline = KernelCache::instance().get_user(device, cache_key_, *spirv_,
                                                   static_cast<uint32_t>(num_bindings()),
                                                   static_cast<uint32_t>(p.push.size()), spec_,
                                                   name_);
  std::vector<Binding> bindings;
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    bindings.push_back({p.buffers[i]->vk_buffer(replica), p.offsets[i], p.ranges[i]});
  }
  stream.dispatch(*pipeline, bindings, p.writes, p.push.empty() ? nullptr : p.push.data(),
                  p.groups[0], p.groups[1], p.groups[2]);
}

void UserKernel::finish(const Prepared& p, std::optional<int> index) const {
  for (const auto& w : p.write_backs) {
    if (w.in_place) {
      w.in_place->bump_version();
    } else {
      write_into(p.ctx, w.dest, w.tmp, index);
    }
  }
}

std::vector<int> UserKernel::operator()(std::vector<Array>& args, const UserCall& call) const {
  std::shared_ptr<Prepared> p = prepare(args, call);
  for (int r = 0; r < p->ctx->num_replicas(); ++r) {
    if (call.index && *call.index != r) continue;
    record(*p, r, *p->ctx->replica(r).stream);
  }
  finish(*p, call.index);
  return p->written;
}

}  // namespace vka
