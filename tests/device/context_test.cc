// Context: device choice, logical devices, replicas, caps, and their errors.
#include "device/context.h"

#include <cstdlib>

#include <gtest/gtest.h>

#include "base/errors.h"
#include "device/stream.h"
#include "device/vk_check.h"

namespace vka {
namespace {

TEST(ContextTest, DefaultContextHasOneReplicaWithSaneCaps) {
  auto ctx = Context::create();
  ASSERT_EQ(ctx->num_replicas(), 1);
  const Caps& c = ctx->replica(0).device->caps();
  EXPECT_FALSE(c.device_name.empty());
  EXPECT_GE(c.max_storage_buffer_range, 1u << 27);
  EXPECT_GE(c.max_push_constants_size, 128u);
  EXPECT_GT(c.max_compute_work_group_count[0], 0u);
  EXPECT_GT(c.device_local_bytes, 0u);
  EXPECT_NE(ctx->describe().find(c.device_name), std::string::npos);
}

TEST(ContextTest, DefaultContextIsSharedAndReplaceable) {
  auto a = Context::default_context();
  EXPECT_EQ(a, Context::default_context());
  auto b = Context::create();
  Context::set_default(b);
  EXPECT_EQ(Context::default_context(), b);
  Context::set_default(nullptr);  // the next use creates a fresh one
  EXPECT_NE(Context::default_context(), nullptr);
}

TEST(ContextTest, SeveralLogicalDevicesOnOnePhysicalDevice) {
  ContextOptions o;
  o.devices = {0, 0, 0};
  auto ctx = Context::create(o);
  EXPECT_EQ(ctx->num_devices(), 3);
  ASSERT_EQ(ctx->num_replicas(), 3);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(ctx->replica(r).index, r);
    EXPECT_EQ(ctx->replica(r).device_index, r);
    EXPECT_NE(ctx->replica(r).label().find("replica " + std::to_string(r)), std::string::npos);
  }
  EXPECT_NE(ctx->device(0).get(), ctx->device(1).get());
}

TEST(ContextTest, ReplicaIndexOutOfRangeIsIndexError) {
  auto ctx = Context::create();
  try {
    ctx->replica(1);
    FAIL() << "no exception";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("index 1 is out of range"), std::string::npos);
  }
  EXPECT_THROW(ctx->replica(-1), IndexError);
}

TEST(ContextTest, BadDeviceIndexAndQueueCountAreClearErrors) {
  ContextOptions o;
  o.devices = {57};
  EXPECT_THROW(Context::create(o), IndexError);
  ContextOptions q;
  q.queues_per_device = 4096;
  try {
    Context::create(q);
    FAIL() << "no exception";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("queues_per_device=4096"), std::string::npos);
  }
  ContextOptions z;
  z.queues_per_device = 0;
  EXPECT_THROW(Context::create(z), ShapeError);
}

TEST(ContextTest, VkaDeviceSelectsByIndexAndName) {
  auto devices = list_physical_devices();
  ASSERT_FALSE(devices.empty());
  setenv("VKA_DEVICE", "0", 1);
  EXPECT_EQ(Context::create()->device(0).physical_index(), 0);
  setenv("VKA_DEVICE", devices[0].name.substr(0, 4).c_str(), 1);
  EXPECT_EQ(Context::create()->device(0).caps().device_name, devices[0].name);
  setenv("VKA_DEVICE", "no-such-device-name", 1);
  try {
    Context::create();
    FAIL() << "no exception";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-device-name"), std::string::npos);
  }
  setenv("VKA_DEVICE", "99", 1);
  EXPECT_THROW(Context::create(), IndexError);
  unsetenv("VKA_DEVICE");
}

TEST(ContextTest, MaxStorageBufferRangeLowersTheDevicesRange) {
  const uint64_t device_range = Context::create()->device(0).caps().max_storage_buffer_range;
  ContextOptions o;
  o.max_storage_buffer_range = 4096;
  EXPECT_EQ(Context::create(o)->device(0).caps().max_storage_buffer_range, 4096u);
  o.max_storage_buffer_range = device_range * 2;  // never above the device's own
  EXPECT_EQ(Context::create(o)->device(0).caps().max_storage_buffer_range, device_range);
  o.max_storage_buffer_range = 1000;
  EXPECT_THROW(Context::create(o), ShapeError);
  setenv("VKA_MAX_STORAGE_BUFFER_RANGE", "8K", 1);
  EXPECT_EQ(Context::create()->device(0).caps().max_storage_buffer_range, 8192u);
  o.max_storage_buffer_range = 65536;  // the option wins over the variable
  EXPECT_EQ(Context::create(o)->device(0).caps().max_storage_buffer_range, 65536u);
  setenv("VKA_MAX_STORAGE_BUFFER_RANGE", "lots", 1);
  EXPECT_THROW(Context::create(), ShapeError);
  unsetenv("VKA_MAX_STORAGE_BUFFER_RANGE");
}

TEST(ContextTest, VkCheckNamesTheCallAndMapsOutOfMemory) {
  try {
    VK_CHECK(VK_ERROR_OUT_OF_DEVICE_MEMORY);
    FAIL() << "no exception";
  } catch (const OutOfMemory& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("VK_ERROR_OUT_OF_DEVICE_MEMORY"), std::string::npos);
    EXPECT_NE(m.find("context_test.cc"), std::string::npos);
  }
  EXPECT_THROW(VK_CHECK(VK_ERROR_DEVICE_LOST), DeviceError);
  EXPECT_NO_THROW(VK_CHECK(VK_SUCCESS));
}

TEST(ContextTest, ValidationErrorsBecomeExceptions) {
  if (!validation_layer_available()) GTEST_SKIP() << "VK_LAYER_KHRONOS_validation not installed";
  ContextOptions o;
  o.validate = true;
  auto ctx = Context::create(o);
  EXPECT_TRUE(ctx->validating());
  // Misuse on purpose: a buffer with size 0 is invalid usage the layer reports.
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 0;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer b = VK_NULL_HANDLE;
  VkResult r = vkCreateBuffer(ctx->device(0).get(), &bci, nullptr, &b);
  if (b) vkDestroyBuffer(ctx->device(0).get(), b, nullptr);
  try {
    VK_CHECK(r);
    FAIL() << "no exception";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("[validation]"), std::string::npos);
  }
}

}  // namespace
}  // namespace vka
