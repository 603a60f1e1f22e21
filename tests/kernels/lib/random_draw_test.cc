// The random samplers' kernels, GPU-free: every sampler, result dtype and mix of array and
// push-constant parameters compiles, each mix is its own spec, and no value enters the code.
#include "kernels/lib/random_draw.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/kernels/shader_compiler.h"

namespace vka {
namespace {

struct Sampler {
  KernelKind kind;
  DType out;
};

const Sampler kSamplers[] = {
    {KernelKind::kRandomGamma, DType::kFloat32},
    {KernelKind::kRandomGamma, DType::kFloat64},
    {KernelKind::kRandomPoisson, DType::kInt64},
    {KernelKind::kRandomBinomial, DType::kInt64},
    {KernelKind::kRandomHypergeometric, DType::kInt64},
    {KernelKind::kRandomZipf, DType::kInt64},
    {KernelKind::kRandomVonmises, DType::kFloat64},
    {KernelKind::kRandomLogseries, DType::kInt64},
};

// Every subset of the parameters as arrays (bit k: parameter k is an input binding).
std::vector<KernelSpec> every_mix(const Sampler& s) {
  const std::vector<DType> types = random_draw_params(s.kind, s.out);
  std::vector<KernelSpec> out;
  for (unsigned mask = 0; mask < (1u << types.size()); ++mask) {
    std::vector<DrawParam> params;
    for (std::size_t k = 0; k < types.size(); ++k)
      params.push_back({types[k], (mask >> k & 1) != 0});
    out.push_back(random_draw_spec(s.kind, s.out, params));
  }
  return out;
}

TEST(RandomDraw, EverySamplerAndParameterMixCompiles) {
  for (const Sampler& s : kSamplers) {
    for (KernelSpec spec : every_mix(s)) {
      EXPECT_EQ(compile_error(emit_random_draw(spec), spec.name()), "");
      // The other interface a launch may choose: addressed operands, arguments in a buffer.
      spec.addressing = Addressing::kAddresses;
      spec.args = ArgBlock::kStorage;
      EXPECT_EQ(compile_error(emit_random_draw(spec), spec.name()), "");
    }
  }
}

TEST(RandomDraw, SpecsNameTheirSamplerAndParameterSources) {
  std::set<std::size_t> hashes;
  std::size_t count = 0;
  for (const Sampler& s : kSamplers) {
    for (const KernelSpec& spec : every_mix(s)) {
      hashes.insert(spec.hash());
      ++count;
      EXPECT_EQ(spec.inputs.size() + spec.slots.size(), spec.tape.size() + 4) << spec.name();
    }
  }
  EXPECT_EQ(hashes.size(), count);  // every sampler and mix is its own pipeline
  const KernelSpec b = random_draw_spec(KernelKind::kRandomBinomial, DType::kInt64,
                                        {{DType::kInt64, true}, {DType::kFloat64, false}});
  EXPECT_EQ(b.name(), "random_binomial_i64_as");
  EXPECT_EQ(b.inputs.size(), 1u);
  EXPECT_EQ(b.slots.back(), DType::kFloat64);
  // Parameters reach the code through bindings and push constants only: no literal depends on
  // a value, so every parameter value shares one pipeline.
  const std::string glsl = emit_random_draw(b);
  EXPECT_NE(glsl.find("packDouble2x32(pc.c4)"), std::string::npos);
  EXPECT_NE(glsl.find("in0.v[pc.off0 + int(i)]"), std::string::npos);
}

}  // namespace
}  // namespace vka
