// Copies between devices through pinned host memory: staging slots per device pair (cached on
// the context), chunks pipelined across the two devices' streams.
#include "device/cross_device.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/debug.h"
#include "base/errors.h"
#include "device/context.h"
#include "device/host_import.h"
#include "device/memory.h"
#include "device/stream.h"
#include "device/vk_check.h"

namespace vka {
namespace {

std::mutex options_mutex;
CrossDeviceOptions& options_slot() {
  static CrossDeviceOptions options;
  return options;
}

uint64_t round_up(uint64_t x, uint64_t m) { return (x + m - 1) / m * m; }

// One staging slot of a device pair: what the source device copies chunk i into and the
// destination device copies it out of.
struct Slot {
  bool shared = false;
  uint64_t capacity = 0;
  std::unique_ptr<SharedHostBuffer> both;    // kSharedHost: [0] the source's, [1] the destination's
  Allocation source_side, destination_side;  // kStagedHost: pinned memory of each device
  Stream* reader = nullptr;  // the destination stream whose copy out of the slot is the last
  uint64_t read_value = 0;   // ... and the timeline value that copy signals

  VkBuffer source_buffer() const { return shared ? both->vk_buffer(0) : source_side.buffer.get(); }
  VkBuffer destination_buffer() const {
    return shared ? both->vk_buffer(1) : destination_side.buffer.get();
  }
  // Waits until the destination device has read what the slot holds.
  void wait_read() {
    if (reader) reader->wait(read_value);
    reader = nullptr;
  }
};

struct PairStaging {
  std::vector<Slot> slots;
  bool import_failed = false;  // kSharedHost was refused once: kStagedHost from then on
};

// The context's staging, per (source, destination) device pair; destroyed with the context
// after its streams have finished.
struct CrossDeviceStaging {
  std::map<std::pair<const Device*, const Device*>, PairStaging> pairs;
};

// Slots of `capacity` bytes (at least) on every used slot of `pair`, of the path's kind.
void prepare_slots(PairStaging& pair, int used, bool shared, uint64_t capacity,
                   uint64_t max_capacity, Device& a, Device& b) {
  if (static_cast<int>(pair.slots.size()) < used) pair.slots.resize(used);
  for (int i = 0; i < used; ++i) {
    Slot& s = pair.slots[i];
    if (s.capacity >= capacity && s.capacity <= max_capacity && s.shared == shared) continue;
    s.wait_read();
    s.both.reset();
    s.source_side = Allocation();
    s.destination_side = Allocation();
    s.capacity = 0;
    if (shared) {
      s.both = std::make_unique<SharedHostBuffer>(std::vector<Device*>{&a, &b}, capacity);
    } else {
      s.source_side = allocate(a, capacity, MemoryUse::kStaging);
      s.destination_side = allocate(b, capacity, MemoryUse::kStaging);
      VKA_ASSERT(s.source_side.mapped && s.destination_side.mapped);
    }
    s.shared = shared;
    s.capacity = capacity;
  }
}

}  // namespace

const char* name(CrossDevicePath path) {
  switch (path) {
    case CrossDevicePath::kSharedHost:
      return "device to device through shared pinned host memory (VK_EXT_external_memory_host)";
    case CrossDevicePath::kStagedHost:
      return "device to device through pinned host memory of each device and a host copy";
  }
  return "?";
}

void set_cross_device_options(const CrossDeviceOptions& options) {
  if (options.chunk_bytes == 0 || options.slots < 2 || options.slots > 16) {
    throw ShapeError(
        "[cross_device_options] chunk_bytes must be positive and slots in [2, 16], "
        "got chunk_bytes=" +
        std::to_string(options.chunk_bytes) + " and slots=" + std::to_string(options.slots));
  }
  std::lock_guard<std::mutex> lock(options_mutex);
  options_slot() = options;
}

CrossDeviceOptions cross_device_options() {
  std::lock_guard<std::mutex> lock(options_mutex);
  return options_slot();
}

CrossDevicePath cross_device_path(Context& context, Device& a, Device& b) {
  const bool possible = cross_device_options().shared_host && a.caps().external_memory_host &&
                        b.caps().external_memory_host;
  if (!possible) return CrossDevicePath::kStagedHost;
  const auto& pairs = context.attachment<CrossDeviceStaging>().pairs;
  auto it = pairs.find({&a, &b});
  return it != pairs.end() && it->second.import_failed ? CrossDevicePath::kStagedHost
                                                       : CrossDevicePath::kSharedHost;
}

PeerInfo peer_info(Context& context, int device_a, int device_b) {
  Device& a = context.device(device_a);
  Device& b = context.device(device_b);
  PeerInfo info;
  info.external_memory_host = a.caps().external_memory_host && b.caps().external_memory_host;
  info.same_uuid = std::memcmp(a.caps().device_uuid, b.caps().device_uuid, VK_UUID_SIZE) == 0;
  VkInstance instance = context.instance().get();
  uint32_t n = 0;
  VK_CHECK(vkEnumeratePhysicalDeviceGroups(instance, &n, nullptr));
  std::vector<VkPhysicalDeviceGroupProperties> groups(
      n, VkPhysicalDeviceGroupProperties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES});
  VK_CHECK(vkEnumeratePhysicalDeviceGroups(instance, &n, groups.data()));
  for (uint32_t g = 0; g < n; ++g) {
    const VkPhysicalDeviceGroupProperties& group = groups[g];
    if (group.physicalDeviceCount < 2) continue;
    const VkPhysicalDevice* begin = group.physicalDevices;
    const VkPhysicalDevice* end = begin + group.physicalDeviceCount;
    if (std::find(begin, end, a.physical()) != end && std::find(begin, end, b.physical()) != end) {
      info.device_group = true;
    }
  }
  info.path = cross_device_path(context, a, b);
  return info;
}

CrossDeviceCopy copy_across_devices(Context& context, Stream& from, VkBuffer src,
                                    uint64_t src_offset, Stream& to, VkBuffer dst,
                                    uint64_t dst_offset, uint64_t size) {
  Device& a = from.device();
  Device& b = to.device();
  VKA_ASSERT(&a != &b);
  CrossDeviceCopy out;
  out.path = cross_device_path(context, a, b);
  if (size == 0) return out;
  const CrossDeviceOptions options = cross_device_options();
  PairStaging& pair = context.attachment<CrossDeviceStaging>().pairs[{&a, &b}];
  const uint64_t chunk = std::min(options.chunk_bytes, size);
  const uint64_t n = (size + chunk - 1) / chunk;
  const int used = static_cast<int>(std::min<uint64_t>(options.slots, n));
  // Slots grow in powers of two (from 64 KiB) up to a whole chunk, so that small copies keep
  // small staging and a run of growing sizes remakes it rarely.
  const uint64_t max_capacity = round_up(options.chunk_bytes, 4096);
  uint64_t capacity = 64 << 10;
  while (capacity < chunk) capacity <<= 1;
  capacity = std::max(chunk, std::min(capacity, max_capacity));
  if (out.path == CrossDevicePath::kSharedHost) {
    // A refused import (or no host memory to import) leaves the staged path, which allocates
    // from each device instead.
    auto give_up = [&](const Error& e) {
      if (debug_level() >= 1) {
        std::fprintf(stderr, "[vkarray] cross-device copy: shared host memory unavailable (%s)\n",
                     e.what());
      }
      pair.import_failed = true;
      out.path = CrossDevicePath::kStagedHost;
    };
    try {
      prepare_slots(pair, used, true, capacity, max_capacity, a, b);
    } catch (const DeviceError& e) {
      give_up(e);
    } catch (const OutOfMemory& e) {
      give_up(e);
    }
  }
  const bool shared = out.path == CrossDevicePath::kSharedHost;
  if (!shared) prepare_slots(pair, used, false, capacity, max_capacity, a, b);

  std::vector<uint64_t> written(n);  // `from`'s timeline value once chunk i is in its slot
  for (uint64_t i = 0; i <= n; ++i) {
    if (i < n) {  // the source device copies chunk i into its slot
      Slot& s = pair.slots[i % used];
      const uint64_t pos = i * chunk, len = std::min(chunk, size - pos);
      if (shared) s.wait_read();  // the destination has read the slot's previous chunk
      from.copy(src, src_offset + pos, s.source_buffer(), 0, len);
      written[i] = from.submit();
    }
    if (i > 0) {  // meanwhile the destination device copies chunk i - 1 out of its slot
      const uint64_t j = i - 1;
      Slot& s = pair.slots[j % used];
      const uint64_t pos = j * chunk, len = std::min(chunk, size - pos);
      from.wait(written[j]);
      if (!shared) {
        s.wait_read();
        std::memcpy(s.destination_side.mapped, s.source_side.mapped, len);
      }
      to.copy(s.destination_buffer(), 0, dst, dst_offset + pos, len);
      s.reader = &to;
      s.read_value = to.submit();
    }
  }
  out.chunks = n;
  return out;
}

}  // namespace vka
