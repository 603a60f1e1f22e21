// The radix sort's pass kernels, GPU-free: the geometry each device gets (8-bit passes with
// subgroup ballots and shared memory for them, else the portable 4-bit form), and every form,
// key width and operand mix compiles.
#include "kernels/lib/sort_pass.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "tests/kernels/shader_compiler.h"

namespace vka {
namespace {

EmitOptions device(uint32_t subgroup, bool ballot, uint32_t shared) {
  EmitOptions o;
  o.subgroup_size = subgroup;
  o.subgroup_ballot = ballot;
  o.max_shared_bytes = shared;
  return o;
}

TEST(SortPassTest, GeometryFollowsTheDevice) {
  // NVIDIA: 32-lane subgroups, 48 KiB: 8 subgroups of 32, 16 keys each for 32-bit keys.
  SortGeometry g = sort_geometry(DType::kUInt32, device(32, true, 49152), 4);
  EXPECT_EQ(g.digit_bits, 8);
  EXPECT_EQ(g.threads, 256);
  EXPECT_EQ(g.subgroups, 8);
  EXPECT_EQ(g.per_thread, 16);
  // 64-bit keys need more shared memory per key: 8 each, or 16 moving alone (a sort of values).
  EXPECT_EQ(sort_geometry(DType::kUInt64, device(32, true, 49152), 4).per_thread, 8);
  EXPECT_EQ(sort_geometry(DType::kUInt64, device(32, true, 49152), 0).per_thread, 16);
  EXPECT_EQ(sort_geometry(DType::kUInt32, device(32, true, 49152), 0).threads, 256);
  // 32-bit keys with 64-bit values (bincount's weights): the values stage as 4-byte places.
  EXPECT_EQ(sort_geometry(DType::kUInt32, device(32, true, 49152), 8).per_thread, 16);
  // lavapipe: 8-lane subgroups, 32 KiB: 16 subgroups of 8 (128 invocations), 8 keys each.
  g = sort_geometry(DType::kUInt32, device(8, true, 32768), 4);
  EXPECT_EQ(g.threads, 128);
  EXPECT_EQ(g.subgroups, 16);
  EXPECT_EQ(g.per_thread, 8);
  // Every block fits the device's shared memory (keys, indices, histograms, offsets, scan).
  for (uint32_t sg : {4u, 8u, 16u, 32u, 64u, 128u}) {
    for (uint32_t shared : {16384u, 32768u, 49152u, 65536u}) {
      for (DType key : {DType::kUInt32, DType::kUInt64}) {
        for (int payload : {0, 4, 8}) {
          g = sort_geometry(key, device(sg, true, shared), payload);
          if (g.digit_bits != 8) continue;
          const int bytes = g.subgroups * 1024 + 2048 + g.threads * 4 +
                            g.block() * ((key == DType::kUInt64 ? 8 : 4) + std::min(payload, 4));
          EXPECT_LE(bytes, static_cast<int>(shared)) << sg << " " << shared;
          EXPECT_EQ(g.threads, g.subgroups * static_cast<int>(sg));
          EXPECT_EQ(256 % g.threads, 0);
          // Every payload keeps the threads (a histogram serves every form).
          EXPECT_EQ(g.threads, sort_geometry(key, device(sg, true, shared), 0).threads);
        }
      }
    }
  }
  // No ballots, an odd subgroup size or too little shared memory: the portable form.
  for (const EmitOptions& o : {device(32, false, 49152), device(24, true, 49152),
                               device(0, true, 49152), device(8, true, 8192)}) {
    g = sort_geometry(DType::kUInt32, o, 4);
    EXPECT_EQ(g.digit_bits, 4);
    EXPECT_EQ(g.block(), 1024);
  }
}

TEST(SortPassTest, EveryFormCompiles) {
  const EmitOptions nvidia = device(32, true, 49152);
  for (const EmitOptions& o : {nvidia, device(8, true, 32768)}) {
    for (DType key : {DType::kUInt32, DType::kUInt64}) {
      for (int bits : {4, 8}) {
        for (bool rows : {false, true}) {
          const KernelSpec h = sort_histogram_spec(key, rows, bits);
          EXPECT_EQ(compile_error(emit_sort_pass(h, o), h.name()), "");
        }
        for (int payload : {0, 4, 8}) {
          if (payload != 4 && bits == 4) continue;  // keys alone, 64-bit values: 8-bit only
          const KernelSpec s = sort_scatter_spec(key, payload, bits);
          const std::string glsl = emit_sort_pass(s, o);
          EXPECT_EQ(compile_error(glsl, s.name()), "");
          EXPECT_EQ(glsl.find("subgroupBallot") != std::string::npos, bits == 8);
        }
      }
    }
  }
  // A sort of values: the passes that read and write the values themselves, for every dtype
  // as wide as its keys (8-bit form only).
  for (const EmitOptions& o : {nvidia, device(8, true, 32768)}) {
    for (DType t : {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kUInt32, DType::kInt64,
                    DType::kUInt64}) {
      ASSERT_TRUE(sorts_as_values(t));
      for (const KernelSpec& s :
           {sort_value_histogram_spec(t), sort_value_scatter_spec(t, true, false),
            sort_value_scatter_spec(t, false, true), sort_value_scatter_spec(t, true, true),
            sort_position_scatter_spec(t)}) {
        const std::string glsl = emit_sort_pass(s, o);
        EXPECT_EQ(compile_error(glsl, s.name()), "");
        // Unsigned values are their own keys.
        const bool histogram = s.kind == KernelKind::kSortHistogram;
        EXPECT_EQ(glsl.find("_value(") != std::string::npos,
                  !is_unsigned_integer(t) || histogram);
        // Positions: each element's index, read from no buffer.
        EXPECT_EQ(glsl.find("mi[r] = i < n ? i :") != std::string::npos,
                  !histogram && s.outputs.size() == 2);
      }
    }
  }
  for (bool starts : {false, true}) {
    const KernelSpec offsets = sort_offsets_spec(starts);
    EXPECT_EQ(compile_error(emit_sort_pass(offsets, nvidia), offsets.name()), "");
  }
  for (DType t : {DType::kFloat16, DType::kInt16, DType::kBool, DType::kComplex64}) {
    EXPECT_FALSE(sorts_as_values(t));
  }
  // The value forms are distinct specs, and between them (and for unsigned values) the key
  // scatter.
  EXPECT_EQ(sort_value_scatter_spec(DType::kInt32, false, false),
            sort_scatter_spec(DType::kUInt32, 0, 8));
  EXPECT_EQ(sort_value_scatter_spec(DType::kUInt64, true, true),
            sort_scatter_spec(DType::kUInt64, 0, 8));
  EXPECT_NE(sort_value_scatter_spec(DType::kInt32, true, false),
            sort_value_scatter_spec(DType::kInt32, false, true));
  EXPECT_NE(sort_value_scatter_spec(DType::kInt32, true, true),
            sort_value_scatter_spec(DType::kFloat32, true, true));
  // The forms and operand mixes are distinct specs (the cache tells them apart).
  EXPECT_NE(sort_scatter_spec(DType::kUInt32, 4, 8), sort_scatter_spec(DType::kUInt32, 4, 4));
  EXPECT_NE(sort_scatter_spec(DType::kUInt32, 4, 8), sort_scatter_spec(DType::kUInt32, 0, 8));
  EXPECT_NE(sort_scatter_spec(DType::kUInt32, 4, 8), sort_scatter_spec(DType::kUInt32, 8, 8));
  EXPECT_NE(sort_histogram_spec(DType::kUInt32, true, 8),
            sort_histogram_spec(DType::kUInt32, false, 8));
}

}  // namespace
}  // namespace vka
