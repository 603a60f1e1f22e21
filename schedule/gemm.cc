// GEMM kernels and their epilogues (schedule/gemm.h).
#include "schedule/gemm.h"

#include <algorithm>
#include <unordered_set>

#include "base/errors.h"

namespace vka {

uint32_t gemm_shared_bytes(const KernelSpec& spec) {
  VKA_ASSERT(spec.kind == KernelKind::kGemm && !spec.gemm.coop);
  const GemmSpec& g = spec.gemm;
  const DType t = spec.inputs[0].dtype;
  const uint32_t word = std::max<uint32_t>(4, static_cast<uint32_t>(itemsize(t)));
  const int pad = g.vec4 ? 4 : 1;
  uint32_t bytes = static_cast<uint32_t>(g.bk * (g.bm + pad + g.bn + pad)) * word;
  if (!spec.tape.empty()) bytes += static_cast<uint32_t>(g.bm / g.tm * g.bn) * word;
  return bytes;
}

ScheduledKernel gemm_kernel(const NodePtr& product, const GemmSpec& tiling) {
  const NodePtr& a = product->inputs()[0];
  const NodePtr& b = product->inputs()[1];
  auto view_of = [](const NodePtr& x) {
    return x->is_leaf() ? x->view() : View::contiguous(x->shape());
  };
  const View va = view_of(a), vb = view_of(b);
  const DType t = a->dtype();
  const int64_t batch = a->shape()[0], m = a->shape()[1], k = a->shape()[2];
  const int64_t n = b->shape()[2];
  ScheduledKernel sk;
  KernelSpec& s = sk.spec;
  s.kind = KernelKind::kGemm;
  s.rank = 1;
  s.inputs = {Accessor{t, Layout::kContiguous}, Accessor{t, Layout::kContiguous}};
  s.outputs = {Accessor{t, Layout::kContiguous}};
  s.results = {0};
  const MatmulInfo layout = matmul_info(*product);
  VKA_ASSERT(tiling.a_m_fast == layout.a_m_fast && tiling.b_n_fast == layout.b_n_fast);
  s.gemm = tiling;
  sk.inputs = {a, b};
  sk.outputs = {product};
  sk.params.shape = {batch * m * n};
  sk.params.inputs = {View::contiguous({1}, va.offset), View::contiguous({1}, vb.offset)};
  sk.params.outputs = {View::contiguous({1}, 0)};
  // Broadcast batch dims read with stride 0; a batch of one reads no stride at all. Two int32
  // values a slot (kernels/gen/gemm.h); matmul keeps every count and stride below 2^31.
  const int64_t values[10] = {m,
                              n,
                              k,
                              batch,
                              batch == 1 ? 0 : va.strides[0],
                              va.strides[1],
                              va.strides[2],
                              batch == 1 ? 0 : vb.strides[0],
                              vb.strides[1],
                              vb.strides[2]};
  for (int i = 0; i < 10; i += 2) {
    const uint64_t lo = static_cast<uint32_t>(static_cast<int32_t>(values[i]));
    const uint64_t hi = static_cast<uint32_t>(static_cast<int32_t>(values[i + 1]));
    s.slots.push_back(DType::kInt64);
    sk.params.slots.push_back(Scalar::of_int(static_cast<int64_t>(lo | hi << 32), DType::kInt64));
  }
  return sk;
}

ScheduledKernel fuse_epilogue(const ScheduledKernel& gemm, const ScheduledKernel& consumer,
                              int input) {
  const KernelSpec& g = consumer.spec;
  VKA_ASSERT(g.kind == KernelKind::kElementwise && g.vector_width == 1 &&
             g.inputs[input].layout == Layout::kContiguous && gemm.spec.tape.empty());
  const int n_slots = static_cast<int>(gemm.spec.slots.size());
  // Accessors (inputs, outputs, sources) of the consumer after A and B take the first two
  // bindings and the product's binding goes.
  auto moved = [input](int a) { return a < input ? a + 2 : a + 1; };
  ScheduledKernel k;
  KernelSpec& s = k.spec;
  s = g;
  s.kind = KernelKind::kGemm;
  s.gemm = gemm.spec.gemm;
  s.input_bindings.clear();  // GEMM kernels bind each operand: A and B take bindings 0 and 1
  s.inputs = {gemm.spec.inputs[0], gemm.spec.inputs[1]};
  k.inputs = {gemm.inputs[0], gemm.inputs[1]};
  k.params = consumer.params;
  k.params.inputs = {gemm.params.inputs[0], gemm.params.inputs[1]};
  for (std::size_t a = 0; a < g.inputs.size(); ++a) {
    if (static_cast<int>(a) == input) continue;
    s.inputs.push_back(g.inputs[a]);
    k.inputs.push_back(consumer.inputs[a]);
    k.params.inputs.push_back(consumer.params.inputs[a]);
  }
  for (TapeEntry& e : s.tape) {
    if (e.op == Op::kBuffer && e.accessor == input) {
      e = TapeEntry{Op::kMatmul, e.dtype};
      continue;
    }
    if (e.op == Op::kBuffer || e.op == Op::kGather) e.accessor = moved(e.accessor);
    if (e.slot >= 0) e.slot += n_slots;
  }
  if (!g.stride_of.empty()) {
    s.stride_of = {0, 1};
    for (std::size_t a = 0; a < g.stride_of.size(); ++a) {
      if (static_cast<int>(a) == input) continue;
      VKA_ASSERT(g.stride_of[a] != input);
      s.stride_of.push_back(moved(g.stride_of[a]));
    }
  }
  s.slots = gemm.spec.slots;
  s.slots.insert(s.slots.end(), g.slots.begin(), g.slots.end());
  k.params.slots = gemm.params.slots;
  k.params.slots.insert(k.params.slots.end(), consumer.params.slots.begin(),
                        consumer.params.slots.end());
  if (consumer.slot_nodes.size() == consumer.params.slots.size()) {
    k.slot_nodes.assign(gemm.params.slots.size(), nullptr);
    k.slot_nodes.insert(k.slot_nodes.end(), consumer.slot_nodes.begin(), consumer.slot_nodes.end());
  }
  k.outputs = consumer.outputs;
  k.reason = consumer.reason;
  return k;
}

void fuse_epilogues(Schedule& s, const std::vector<NodePtr>& targets,
                    const std::unordered_map<const Node*, NodePtr>& destinations,
                    const std::function<bool(const KernelSpec&)>& fits) {
  std::unordered_set<const Node*> requested;
  for (const NodePtr& t : targets) requested.insert(t.get());
  for (std::size_t c = 0; c < s.kernels.size(); ++c) {
    const ScheduledKernel& kc = s.kernels[c];
    const Node* p = kc.outputs[0].get();
    if (kc.spec.kind != KernelKind::kGemm || !kc.spec.tape.empty() || kc.spec.gemm.coop ||
        requested.count(p) || destinations.count(p)) {
      continue;
    }
    int reader = -1, uses = 0, input = -1;
    for (std::size_t r = 0; r < s.kernels.size(); ++r) {
      const std::vector<NodePtr>& ins = s.kernels[r].inputs;
      for (std::size_t i = 0; i < ins.size(); ++i) {
        if (ins[i].get() != p) continue;
        ++uses;
        reader = static_cast<int>(r);
        input = static_cast<int>(i);
      }
    }
    if (uses != 1) continue;
    const ScheduledKernel& kg = s.kernels[reader];
    if (kg.spec.kind != KernelKind::kElementwise || kg.outputs[0]->shape() != p->shape() ||
        kg.spec.inputs[input].layout != Layout::kContiguous) {
      continue;
    }
    bool ok = true;
    // A broadcast destination (kScalar: a bool "any") needs the elementwise kernel's loop.
    for (const Accessor& o : kg.spec.outputs) ok = ok && o.layout != Layout::kScalar;
    for (const TapeEntry& e : kg.spec.tape) {
      ok = ok && (e.op != Op::kGather || e.accessor != input);
    }
    if (!ok) continue;
    ScheduledKernel fused = fuse_epilogue(kc, kg, input);
    if (!fits(fused.spec)) continue;
    s.kernels[reader] = std::move(fused);
    s.kernels.erase(s.kernels.begin() + static_cast<std::ptrdiff_t>(c));
    --c;
  }
}

}  // namespace vka
