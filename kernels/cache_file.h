// The kernel cache's on-disk formats: SPIR-V files and VkPipelineCache blobs, each checked in
// full on read (never trusted) and written atomically (temp file + rename).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vka {

// Bumped whenever either file layout or the meaning of a key changes.
constexpr uint32_t kCacheFormatVersion = 1;

uint64_t fnv1a64(std::string_view bytes);

// FNV-1a 128: names cache files. 64 bits would make accidental collisions between kernels
// plausible over a long-lived cache; the key text stored in the file catches any that remain.
struct Digest {
  uint64_t hi = 0, lo = 0;
  std::string hex() const;  // 32 lowercase hex digits
  bool operator==(const Digest& o) const { return hi == o.hi && lo == o.lo; }
};
Digest digest128(std::string_view text);

// <digest>.spv:
//   "VKAS" | u32 version | u64 digest.hi | u64 digest.lo | u32 key length | key text |
//   u32 SPIR-V word count | SPIR-V words | u64 FNV-1a 64 of every byte before it
// Integers are in host byte order: the cache is local to one machine.
std::string encode_spirv_file(const std::string& key, const std::vector<uint32_t>& spirv);

// Returns the SPIR-V when `bytes` is a complete, uncorrupted file written for exactly `key`;
// otherwise nullopt and `why` says what did not match.
std::optional<std::vector<uint32_t>> decode_spirv_file(const std::string& bytes,
                                                       const std::string& key, std::string* why);

// What a VkPipelineCache blob must have been produced by (VkPipelineCacheHeaderVersionOne).
struct PipelineCacheIdentity {
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint8_t uuid[16] = {};
};

// pipelines-*.bin:
//   "VKAP" | u32 version | u64 data size | u64 FNV-1a 64 of the data | data
// The checksum catches corruption the driver might not: drivers validate only the header.
std::string encode_pipeline_cache_file(const std::vector<uint8_t>& data);
std::optional<std::vector<uint8_t>> decode_pipeline_cache_file(const std::string& bytes,
                                                               const PipelineCacheIdentity& id,
                                                               std::string* why);

// The whole file, or nullopt when it does not exist or cannot be read.
std::optional<std::string> read_whole_file(const std::string& path);

// Writes `dir`/`name` through a uniquely named temp file in `dir` and rename(2), so a
// concurrent reader sees the old file or the new one, never part of one. Returns "" on
// success, else the failed step with errno's text.
std::string write_file_atomically(const std::string& dir, const std::string& name,
                                  const std::string& bytes);

}  // namespace vka
