// Encoding, validation and atomic writing of the kernel cache's files.
#include "kernels/cache_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <vulkan/vulkan.h>

namespace vka {
namespace {

constexpr char kSpirvMagic[4] = {'V', 'K', 'A', 'S'};
constexpr char kPipelineMagic[4] = {'V', 'K', 'A', 'P'};
constexpr uint32_t kSpirvWordMagic = 0x07230203;
constexpr uint64_t kFnvOffset64 = 14695981039346656037ull;
constexpr uint64_t kFnvPrime64 = 1099511628211ull;

template <typename T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

// Reads host-order integers and byte ranges from a buffer, failing (not throwing) at its end.
class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  template <typename T>
  bool get(T* v) {
    if (b_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(v, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool bytes(uint64_t n, std::string_view* v) {
    if (b_.size() - pos_ < n) return false;
    *v = b_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  std::size_t pos() const { return pos_; }
  std::size_t remaining() const { return b_.size() - pos_; }

 private:
  std::string_view b_;
  std::size_t pos_ = 0;
};

std::nullopt_t fail(std::string* why, std::string what) {
  if (why) *why = std::move(what);
  return std::nullopt;
}

}  // namespace

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t h = kFnvOffset64;
  for (char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * kFnvPrime64;
  return h;
}

std::string Digest::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof(buf), "%016llx%016llx", static_cast<unsigned long long>(hi),
                static_cast<unsigned long long>(lo));
  return buf;
}

Digest digest128(std::string_view text) {
  // FNV-1a 128: offset basis 0x6c62272e07bb014262b821756295c58d, prime 2^88 + 0x13b.
  using u128 = unsigned __int128;
  u128 h = (u128{0x6c62272e07bb0142ull} << 64) | 0x62b821756295c58dull;
  const u128 prime = (u128{1} << 88) | 0x13b;
  for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * prime;
  return Digest{static_cast<uint64_t>(h >> 64), static_cast<uint64_t>(h)};
}

std::string encode_spirv_file(const std::string& key, const std::vector<uint32_t>& spirv) {
  std::string out(kSpirvMagic, 4);
  put(out, kCacheFormatVersion);
  Digest d = digest128(key);
  put(out, d.hi);
  put(out, d.lo);
  put(out, static_cast<uint32_t>(key.size()));
  out += key;
  put(out, static_cast<uint32_t>(spirv.size()));
  out.append(reinterpret_cast<const char*>(spirv.data()), spirv.size() * sizeof(uint32_t));
  put(out, fnv1a64(out));
  return out;
}

std::optional<std::vector<uint32_t>> decode_spirv_file(const std::string& bytes,
                                                       const std::string& key, std::string* why) {
  Reader r(bytes);
  std::string_view magic, text, words;
  uint32_t version = 0, key_len = 0, word_count = 0;
  uint64_t hi = 0, lo = 0, checksum = 0;
  if (!r.bytes(4, &magic) || magic != std::string_view(kSpirvMagic, 4)) {
    return fail(why, "bad magic");
  }
  if (!r.get(&version) || version != kCacheFormatVersion) {
    return fail(why, "format version " + std::to_string(version) + ", expected " +
                         std::to_string(kCacheFormatVersion));
  }
  if (!r.get(&hi) || !r.get(&lo) || !r.get(&key_len) || !r.bytes(key_len, &text)) {
    return fail(why, "truncated header (" + std::to_string(bytes.size()) + " bytes)");
  }
  if (text != key) return fail(why, "key text differs (a digest collision or a foreign file)");
  if (!(Digest{hi, lo} == digest128(key))) return fail(why, "digest does not match the key");
  if (!r.get(&word_count) || !r.bytes(uint64_t{word_count} * 4, &words)) {
    return fail(why, "truncated SPIR-V (" + std::to_string(bytes.size()) + " bytes)");
  }
  const std::size_t summed = r.pos();
  if (!r.get(&checksum) || r.remaining() != 0) {
    return fail(why, "file is " + std::to_string(bytes.size()) + " bytes, expected " +
                         std::to_string(summed + 8));
  }
  if (checksum != fnv1a64(std::string_view(bytes).substr(0, summed))) {
    return fail(why, "checksum mismatch");
  }
  std::vector<uint32_t> spirv(word_count);
  std::memcpy(spirv.data(), words.data(), words.size());
  // 5 words is the SPIR-V header; anything shorter is not a module.
  if (spirv.size() < 5 || spirv[0] != kSpirvWordMagic) return fail(why, "not SPIR-V");
  return spirv;
}

std::string encode_pipeline_cache_file(const std::vector<uint8_t>& data) {
  std::string out(kPipelineMagic, 4);
  put(out, kCacheFormatVersion);
  const std::string_view view(reinterpret_cast<const char*>(data.data()), data.size());
  put(out, static_cast<uint64_t>(data.size()));
  put(out, fnv1a64(view));
  out += view;
  return out;
}

std::optional<std::vector<uint8_t>> decode_pipeline_cache_file(const std::string& bytes,
                                                               const PipelineCacheIdentity& id,
                                                               std::string* why) {
  Reader r(bytes);
  std::string_view magic, data;
  uint32_t version = 0;
  uint64_t size = 0, checksum = 0;
  if (!r.bytes(4, &magic) || magic != std::string_view(kPipelineMagic, 4)) {
    return fail(why, "bad magic");
  }
  if (!r.get(&version) || version != kCacheFormatVersion) {
    return fail(why, "format version " + std::to_string(version) + ", expected " +
                         std::to_string(kCacheFormatVersion));
  }
  if (!r.get(&size) || !r.get(&checksum) || r.remaining() != size || !r.bytes(size, &data)) {
    return fail(why, "size mismatch (" + std::to_string(bytes.size()) + " bytes in the file)");
  }
  if (checksum != fnv1a64(data)) return fail(why, "checksum mismatch");
  VkPipelineCacheHeaderVersionOne h;
  if (data.size() < sizeof(h)) return fail(why, "shorter than a VkPipelineCache header");
  std::memcpy(&h, data.data(), sizeof(h));
  if (h.headerSize < sizeof(h) || h.headerSize > data.size()) {
    return fail(why, "header size " + std::to_string(h.headerSize));
  }
  if (h.headerVersion != VK_PIPELINE_CACHE_HEADER_VERSION_ONE) {
    return fail(why, "header version " + std::to_string(h.headerVersion));
  }
  if (h.vendorID != id.vendor_id || h.deviceID != id.device_id ||
      std::memcmp(h.pipelineCacheUUID, id.uuid, VK_UUID_SIZE) != 0) {
    return fail(why, "written by another device or driver");
  }
  return std::vector<uint8_t>(data.begin(), data.end());
}

std::optional<std::string> read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return s.str();
}

std::string write_file_atomically(const std::string& dir, const std::string& name,
                                  const std::string& bytes) {
  // Unique per process and per call, so concurrent writers never share a temp file.
  static std::atomic<uint64_t> counter{0};
  const std::string tmp = dir + "/.tmp-" + std::to_string(::getpid()) + "-" +
                          std::to_string(counter.fetch_add(1)) + "-" + name;
  const std::string path = dir + "/" + name;
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return "open " + tmp + ": " + std::strerror(errno);
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::string err = "write " + tmp + ": " + std::strerror(n < 0 ? errno : EIO);
      ::close(fd);
      ::unlink(tmp.c_str());
      return err;
    }
    done += static_cast<std::size_t>(n);
  }
  // No fsync: after a power loss a torn file fails its checksum and is rewritten, which is
  // cheaper than syncing every kernel.
  if (::close(fd) != 0) {
    std::string err = "close " + tmp + ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return err;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string err = "rename " + tmp + " to " + path + ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return err;
  }
  return "";
}

}  // namespace vka
