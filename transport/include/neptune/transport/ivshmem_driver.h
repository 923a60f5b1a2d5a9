// SPDX-License-Identifier: MIT
#pragma once

// A Windows guest reaches the shared-memory device (QEMU ivshmem) through the virtio-win
// package's IVSHMEM driver: a device interface of class GUID_DEVINTERFACE_IVSHMEM whose
// ioctls map the BAR into the calling process and ring doorbells (virtio-win's
// ivshmem/Public.h; the values below are that interface's). GuestConnection::connect_device
// takes the address "driver" for it (find_ivshmem_device() answers it where such a device
// exists and no Linux sysfs is visible).
//
// The driver grants one mapping per device at a time (a second process is refused with
// STATUS_DEVICE_ALREADY_ATTACHED): in a Windows guest one process renders through a device.
//
// DriverPort is the seam: the real one is DeviceIoControl on the device's handle; tests
// install a stand-in (set_driver_port_factory) that implements the same ioctls.
#if defined(_WIN32)

#include <cstdint>
#include <memory>
#include <string>

namespace npt::transport::ivshmem {

constexpr uint32_t ctl_code(uint32_t function) {
  // CTL_CODE(FILE_DEVICE_UNKNOWN, function, METHOD_BUFFERED, FILE_ANY_ACCESS)
  return (0x22u << 16) | (function << 2);
}
constexpr uint32_t kIoctlRequestPeerId = ctl_code(0x800);
constexpr uint32_t kIoctlRequestSize = ctl_code(0x801);
constexpr uint32_t kIoctlRequestMmap = ctl_code(0x802);
constexpr uint32_t kIoctlReleaseMmap = ctl_code(0x803);
constexpr uint32_t kIoctlRingDoorbell = ctl_code(0x804);

// IVSHMEM_MMAP_CONFIG (the input of REQUEST_MMAP since the driver takes a cache mode; older
// drivers take no input).
struct MmapConfig {
  uint8_t cache_mode;
};
constexpr uint8_t kCacheCached = 1;

// IVSHMEM_MMAP (64-bit layout: natural alignment).
struct Mmap {
  uint16_t peer_id;
  uint64_t size;
  void* ptr;
  uint16_t vectors;
};
static_assert(sizeof(Mmap) == 32);

// IVSHMEM_RING
struct Ring {
  uint16_t peer_id;
  uint16_t vector;
};
static_assert(sizeof(Ring) == 4);

class DriverPort {
public:
  virtual ~DriverPort() = default;
  // DeviceIoControl: false with GetLastError()'s code in *error_code when the driver fails it.
  virtual bool control(uint32_t code, const void* in, uint32_t in_size, void* out, uint32_t out_size,
                       uint32_t* returned, uint32_t* error_code) = 0;
};

// The first device of the IVSHMEM interface class, opened; null (and *error) when there is none.
std::unique_ptr<DriverPort> open_driver_port(std::string* error);

// Tests: replaces open_driver_port (null restores it).
using DriverPortFactory = std::unique_ptr<DriverPort> (*)(std::string* error);
void set_driver_port_factory(DriverPortFactory factory);

// The device's memory as the driver mapped it into this process, and its doorbell.
class DriverMapping {
public:
  // Opens the device and asks for the mapping; null (and *error) when refused.
  static std::unique_ptr<DriverMapping> map(std::string* error);
  ~DriverMapping();
  uint8_t* data() const { return static_cast<uint8_t*>(m_mmap.ptr); }
  uint64_t size() const { return m_mmap.size; }
  uint16_t own_peer_id() const { return m_mmap.peer_id; }
  // Asks the device to signal peer's vector (IOCTL_IVSHMEM_RING_DOORBELL).
  bool ring(uint16_t peer, uint16_t vector);

private:
  DriverMapping(std::unique_ptr<DriverPort> port, const Mmap& mmap) : m_port(std::move(port)), m_mmap(mmap) {}
  std::unique_ptr<DriverPort> m_port;
  Mmap m_mmap;
};

}

#endif
