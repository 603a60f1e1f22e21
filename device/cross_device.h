// Copies between two logical devices of a context (VkDevices that share no memory): chunked
// and pipelined through pinned host memory, the source device's copies of chunk i overlapping
// the destination device's copies of chunk i-1. And what the two devices could do besides
// (device groups, external memory by deviceUUID), probed for reporting.
#pragma once

#include <cstdint>
#include <string>

#include <vulkan/vulkan.h>

namespace vka {

class Context;
class Device;
class Stream;

enum class CrossDevicePath {
  // One host allocation imported into both devices (VK_EXT_external_memory_host): the source
  // copies into it, the destination copies out of it; no host copy.
  kSharedHost,
  // Where a device lacks that extension (or its import fails): a pinned host buffer of each
  // device, the source copies into its own, the host copies it into the destination's, the
  // destination copies out of that.
  kStagedHost,
};
const char* name(CrossDevicePath path);

struct CrossDeviceOptions {
  uint64_t chunk_bytes = 32ull << 20;  // bytes per chunk (and per staging slot)
  int slots = 3;                       // staging slots per device pair, in flight at once
  bool shared_host = true;             // false: kStagedHost even where kSharedHost is possible
};
// Process-wide. ShapeError (ValueError) for chunk_bytes 0 or slots outside [2, 16]; the
// options are then unchanged. Staging made with other sizes is remade on next use.
void set_cross_device_options(const CrossDeviceOptions& options);
CrossDeviceOptions cross_device_options();

// What two devices of a context offer for copies between them.
struct PeerInfo {
  bool external_memory_host = false;  // both devices import host memory
  // Both physical devices are in one Vulkan device group of more than one device: one VkDevice
  // over both could copy peer to peer (vkarray makes one VkDevice per GPU, so does not use it).
  bool device_group = false;
  // Same deviceUUID: opaque-fd external memory could be shared (which is only possible when
  // they are the same physical device; vkarray's copies between them do not need it).
  bool same_uuid = false;
  CrossDevicePath path = CrossDevicePath::kStagedHost;  // what copies between them use now
};
PeerInfo peer_info(Context& context, int device_a, int device_b);

// The path a copy from device `a` to device `b` takes now (options, extension, import).
CrossDevicePath cross_device_path(Context& context, Device& a, Device& b);

struct CrossDeviceCopy {
  CrossDevicePath path = CrossDevicePath::kStagedHost;
  uint64_t chunks = 0;
};

// Copies `size` bytes of `src` (a buffer of `from`'s device, recorded on `from` after its
// earlier work) to `dst` (a buffer of `to`'s device, on another VkDevice). Returns once every
// chunk's destination copy is submitted on `to`: later work there sees the bytes, `from` is
// done reading `src`. The host waits on `from`'s timeline before each chunk's destination copy
// is submitted, and on `to`'s before a staging slot is overwritten.
CrossDeviceCopy copy_across_devices(Context& context, Stream& from, VkBuffer src,
                                    uint64_t src_offset, Stream& to, VkBuffer dst,
                                    uint64_t dst_offset, uint64_t size);

}  // namespace vka
