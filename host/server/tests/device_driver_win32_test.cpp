// SPDX-License-Identifier: MIT
// A Windows guest's path to the shared-memory device: the virtio-win IVSHMEM driver's
// ioctls (transport/include/neptune/transport/ivshmem_driver.h). No such driver runs here,
// so a stand-in implements the same ioctls the way the driver does (sizes checked, one
// mapping at a time, only the mapping's owner rings or releases) over a file mapping of
// the device file that neptune-server.exe --vm-shm serves. The guest then connects through
// "driver" exactly as it would in a Windows VM.
#include <windows.h>

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../diagnostic_dispatch.h"
#include "neptune/transport/device_layout.h"
#include "neptune/transport/guest_connection.h"
#include "neptune/transport/ivshmem_driver.h"
#include "neptune/transport/wait.h"
#include "server_launch_win32.h"

using namespace npt::transport;
namespace iv = npt::transport::ivshmem;

namespace {

// What the driver's device holds: the BAR (here a file) and who has it mapped.
struct FakeDevice {
  std::string file;              // the device file (a Windows path)
  bool old_driver = false;       // REQUEST_MMAP without the cache-mode input
  HANDLE section = nullptr;
  void* view = nullptr;
  uint64_t size = 0;
  const void* owner = nullptr;   // the port whose mapping it is
  std::vector<iv::Ring> rings;
  int releases = 0;
};
FakeDevice g_device;

class FakePort final : public iv::DriverPort {
public:
  ~FakePort() override {
    // Closing the handle drops the caller's mapping, as the driver's file clean-up does.
    if (g_device.owner == this)
      unmap();
  }
  bool control(uint32_t code, const void* in, uint32_t in_size, void* out, uint32_t out_size, uint32_t* returned,
               uint32_t* error_code) override {
    *returned = 0;
    auto fail = [&](DWORD error) {
      *error_code = error;
      return false;
    };
    *error_code = 0;
    switch (code) {
      case iv::kIoctlRequestMmap: {
        if (g_device.view)
          return fail(548);   // STATUS_DEVICE_ALREADY_ATTACHED
        const uint32_t expected_in = g_device.old_driver ? 0 : sizeof(iv::MmapConfig);
        if (in_size != expected_in || out_size != sizeof(iv::Mmap))
          return fail(ERROR_INVALID_USER_BUFFER);   // STATUS_INVALID_BUFFER_SIZE
        if (!g_device.old_driver && static_cast<const iv::MmapConfig*>(in)->cache_mode > 2)
          return fail(ERROR_INVALID_PARAMETER);
        HANDLE file = CreateFileA(g_device.file.c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                                  nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
        LARGE_INTEGER size = {};
        if (file == INVALID_HANDLE_VALUE || !GetFileSizeEx(file, &size))
          return fail(ERROR_GEN_FAILURE);
        g_device.section = CreateFileMappingA(file, nullptr, PAGE_READWRITE, 0, 0, nullptr);
        CloseHandle(file);
        g_device.view = g_device.section ? MapViewOfFile(g_device.section, FILE_MAP_ALL_ACCESS, 0, 0, 0) : nullptr;
        if (!g_device.view)
          return fail(ERROR_GEN_FAILURE);
        g_device.size = uint64_t(size.QuadPart);
        g_device.owner = this;
        iv::Mmap answer = {};
        answer.peer_id = 3;
        answer.size = g_device.size;
        answer.ptr = g_device.view;
        answer.vectors = 1;
        std::memcpy(out, &answer, sizeof(answer));
        *returned = sizeof(answer);
        return true;
      }
      case iv::kIoctlReleaseMmap:
        if (!g_device.view)
          return fail(ERROR_INVALID_FUNCTION);   // STATUS_INVALID_DEVICE_REQUEST
        if (g_device.owner != this)
          return fail(ERROR_INVALID_HANDLE);
        unmap();
        g_device.releases++;
        return true;
      case iv::kIoctlRingDoorbell:
        if (g_device.owner != this)
          return fail(ERROR_INVALID_HANDLE);
        if (in_size != sizeof(iv::Ring))
          return fail(ERROR_INVALID_USER_BUFFER);
        g_device.rings.push_back(*static_cast<const iv::Ring*>(in));
        return true;
      default:
        return fail(ERROR_INVALID_FUNCTION);
    }
  }

private:
  static void unmap() {
    UnmapViewOfFile(g_device.view);
    CloseHandle(g_device.section);
    g_device.view = nullptr;
    g_device.section = nullptr;
    g_device.owner = nullptr;
  }
};

std::unique_ptr<iv::DriverPort> open_fake(std::string*) { return std::make_unique<FakePort>(); }

// A device file of its own, served by neptune-server.exe --vm-shm (diagnostic dispatch).
class DriverDevice : public ::testing::Test {
protected:
  void SetUp() override {
    char temp[MAX_PATH];
    GetTempPathA(sizeof(temp), temp);
    file = std::string(temp) + "npt-driver-device-" + std::to_string(GetCurrentProcessId());
    const char* bin = std::getenv("NPT_SERVER_BIN");
    ASSERT_NE(bin, nullptr) << "NPT_SERVER_BIN";
    std::string cmd = "\"" + npt::testing::windowsPath(bin) + "\" --vm-shm \"" + file + "\" --size 8M --dispatch diag";
    STARTUPINFOA si = {};
    si.cb = sizeof(si);
    ASSERT_TRUE(CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &si, &server));
    // Serving once the header is there and its heartbeat moves.
    bool serving = false;
    for (int i = 0; i < 600 && !serving; i++) {
      Sleep(50);
      serving = heartbeat_moves();
    }
    ASSERT_TRUE(serving) << "neptune-server.exe did not serve " << file;
    g_device = FakeDevice();
    g_device.file = file;
    iv::set_driver_port_factory(open_fake);
  }
  void TearDown() override {
    iv::set_driver_port_factory(nullptr);
    if (server.hProcess) {
      TerminateProcess(server.hProcess, 0);
      WaitForSingleObject(server.hProcess, 5000);
      CloseHandle(server.hProcess);
      CloseHandle(server.hThread);
    }
    DeleteFileA(file.c_str());
  }
  bool heartbeat_moves() {
    HANDLE f = CreateFileA(file.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0,
                           nullptr);
    if (f == INVALID_HANDLE_VALUE)
      return false;
    device::DeviceHeader a = {}, b = {};
    DWORD got = 0;
    bool ok = ReadFile(f, &a, sizeof(a), &got, nullptr) && got == sizeof(a) && a.magic == device::kDeviceMagic;
    if (ok) {
      Sleep(250);
      SetFilePointer(f, 0, nullptr, FILE_BEGIN);
      ok = ReadFile(f, &b, sizeof(b), &got, nullptr) && got == sizeof(b) && b.heartbeat != a.heartbeat;
    }
    CloseHandle(f);
    return ok;
  }
  static bool echo(GuestConnection& guest, uint32_t seed) {
    uint32_t cmd[4] = { npt::server::kDiagEcho, seed, ~seed, 7 }, reply[4] = {};
    size_t n = 0;
    return guest.call(0, cmd, sizeof(cmd), reply, sizeof(reply), &n) == kOk && n == sizeof(cmd) &&
           std::memcmp(cmd, reply, sizeof(cmd)) == 0;
  }
  static Geometry small() {
    Geometry g;
    g.ring_count = 1;
    g.ring_size = 64 * 1024;
    g.bulk_size = 1 << 20;
    return g;
  }

  std::string file;
  PROCESS_INFORMATION server = {};
};

TEST_F(DriverDevice, WithoutTheDriverTheDeviceIsNotFoundAndSaysSo) {
  // The real lookup (setupapi's device interfaces of the IVSHMEM class): Wine has none.
  iv::set_driver_port_factory(nullptr);
  std::string error;
  EXPECT_EQ(iv::open_driver_port(&error), nullptr);
  EXPECT_NE(error.find("IVSHMEM"), std::string::npos) << error;
  std::unique_ptr<GuestConnection> guest;
  EXPECT_NE(GuestConnection::connect_device("driver", small(), &guest, &error), kOk);
  EXPECT_NE(error.find("IVSHMEM driver"), std::string::npos) << error;
}

TEST_F(DriverDevice, AGuestConnectsThroughTheDriverAndIsServed) {
  std::unique_ptr<GuestConnection> guest;
  std::string error;
  ASSERT_EQ(GuestConnection::connect_device("driver", small(), &guest, &error), kOk) << error;
  EXPECT_STREQ(guest->wake_mode(), "poll") << "this server offers no doorbell";
  for (uint32_t i = 0; i < 5; i++)
    EXPECT_TRUE(echo(*guest, i));
  EXPECT_TRUE(g_device.rings.empty()) << "no doorbell peer in the header: nothing to ring";
  guest.reset();
  EXPECT_EQ(g_device.releases, 1) << "the mapping goes back with the connection";
  EXPECT_EQ(g_device.view, nullptr);
}

TEST_F(DriverDevice, TheDriverGrantsOneMappingAtATime) {
  std::unique_ptr<GuestConnection> first, second;
  std::string error;
  ASSERT_EQ(GuestConnection::connect_device("driver", small(), &first, &error), kOk) << error;
  EXPECT_NE(GuestConnection::connect_device("driver", small(), &second, &error), kOk);
  EXPECT_NE(error.find("another process"), std::string::npos) << error;
  EXPECT_TRUE(echo(*first, 1)) << "the first connection is unaffected";
}

TEST_F(DriverDevice, ADriverWithoutTheCacheModeInputStillMaps) {
  g_device.old_driver = true;
  std::unique_ptr<GuestConnection> guest;
  std::string error;
  ASSERT_EQ(GuestConnection::connect_device("driver", small(), &guest, &error), kOk) << error;
  EXPECT_TRUE(echo(*guest, 9));
}

TEST_F(DriverDevice, RingsGoThroughTheDriverToThePeer) {
  std::string error;
  auto mapping = iv::DriverMapping::map(&error);
  ASSERT_NE(mapping, nullptr) << error;
  EXPECT_EQ(mapping->own_peer_id(), 3);
  EXPECT_EQ(mapping->size(), g_device.size);
  ASSERT_TRUE(mapping->ring(0, 0));
  ASSERT_TRUE(mapping->ring(7, 2));
  ASSERT_EQ(g_device.rings.size(), 2u);
  EXPECT_EQ(g_device.rings[0].peer_id, 0);
  EXPECT_EQ(g_device.rings[1].peer_id, 7);
  EXPECT_EQ(g_device.rings[1].vector, 2);
}

}
