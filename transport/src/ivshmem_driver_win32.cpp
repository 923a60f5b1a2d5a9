// SPDX-License-Identifier: MIT
// The virtio-win IVSHMEM driver's user-mode interface (ivshmem_driver.h). setupapi.dll is
// loaded when a device is looked for, so that the guest DLLs import nothing more.
#include "neptune/transport/ivshmem_driver.h"

#include <windows.h>
#include <setupapi.h>

#include <atomic>
#include <vector>

namespace npt::transport::ivshmem {

namespace {

// GUID_DEVINTERFACE_IVSHMEM {df576976-569d-4672-95a0-f57e4ea0b210}
constexpr GUID kInterfaceClass = { 0xdf576976, 0x569d, 0x4672, { 0x95, 0xa0, 0xf5, 0x7e, 0x4e, 0xa0, 0xb2, 0x10 } };

class HandlePort final : public DriverPort {
public:
  explicit HandlePort(HANDLE device) : m_device(device) {}
  ~HandlePort() override { CloseHandle(m_device); }
  bool control(uint32_t code, const void* in, uint32_t in_size, void* out, uint32_t out_size, uint32_t* returned,
               uint32_t* error_code) override {
    DWORD got = 0;
    const BOOL ok = DeviceIoControl(m_device, code, const_cast<void*>(in), in_size, out, out_size, &got, nullptr);
    *returned = got;
    *error_code = ok ? 0 : GetLastError();
    return ok != FALSE;
  }

private:
  HANDLE m_device;
};

std::atomic<DriverPortFactory> g_factory{nullptr};

// ERROR_DEVICE_ALREADY_ATTACHED (STATUS_DEVICE_ALREADY_ATTACHED as Win32 reports it; not
// in every header set).
constexpr DWORD kErrorDeviceAlreadyAttached = 548;

template<typename Function>
Function proc(HMODULE module, const char* name) {
  return reinterpret_cast<Function>(reinterpret_cast<void*>(GetProcAddress(module, name)));
}

std::string with_code(const char* what, DWORD code) { return std::string(what) + " (error " + std::to_string(code) + ")"; }

std::unique_ptr<DriverPort> open_first_device(std::string* error) {
  HMODULE setupapi = LoadLibraryA("setupapi.dll");
  if (!setupapi) {
    *error = "setupapi.dll is missing";
    return nullptr;
  }
  using GetClassDevs = HDEVINFO(WINAPI*)(const GUID*, PCSTR, HWND, DWORD);
  using EnumInterfaces = BOOL(WINAPI*)(HDEVINFO, PSP_DEVINFO_DATA, const GUID*, DWORD, PSP_DEVICE_INTERFACE_DATA);
  using InterfaceDetail = BOOL(WINAPI*)(HDEVINFO, PSP_DEVICE_INTERFACE_DATA, PSP_DEVICE_INTERFACE_DETAIL_DATA_A, DWORD,
                                        PDWORD, PSP_DEVINFO_DATA);
  using DestroyList = BOOL(WINAPI*)(HDEVINFO);
  auto get_class_devs = proc<GetClassDevs>(setupapi, "SetupDiGetClassDevsA");
  auto enum_interfaces = proc<EnumInterfaces>(setupapi, "SetupDiEnumDeviceInterfaces");
  auto interface_detail = proc<InterfaceDetail>(setupapi, "SetupDiGetDeviceInterfaceDetailA");
  auto destroy_list = proc<DestroyList>(setupapi, "SetupDiDestroyDeviceInfoList");
  std::unique_ptr<DriverPort> port;
  if (get_class_devs && enum_interfaces && interface_detail && destroy_list) {
    HDEVINFO list = get_class_devs(&kInterfaceClass, nullptr, nullptr, DIGCF_PRESENT | DIGCF_DEVICEINTERFACE);
    if (list != INVALID_HANDLE_VALUE) {
      SP_DEVICE_INTERFACE_DATA data = {};
      data.cbSize = sizeof(data);
      if (enum_interfaces(list, nullptr, &kInterfaceClass, 0, &data)) {
        DWORD needed = 0;
        interface_detail(list, &data, nullptr, 0, &needed, nullptr);
        std::vector<uint8_t> buffer(needed > sizeof(SP_DEVICE_INTERFACE_DETAIL_DATA_A) ? needed
                                                                                      : sizeof(SP_DEVICE_INTERFACE_DETAIL_DATA_A));
        auto* detail = reinterpret_cast<PSP_DEVICE_INTERFACE_DETAIL_DATA_A>(buffer.data());
        detail->cbSize = sizeof(SP_DEVICE_INTERFACE_DETAIL_DATA_A);
        if (interface_detail(list, &data, detail, DWORD(buffer.size()), nullptr, nullptr)) {
          HANDLE device = CreateFileA(detail->DevicePath, GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING, 0,
                                      nullptr);
          if (device != INVALID_HANDLE_VALUE)
            port = std::make_unique<HandlePort>(device);
          else
            *error = with_code("cannot open the IVSHMEM device", GetLastError());
        } else {
          *error = with_code("cannot read the IVSHMEM device's path", GetLastError());
        }
      } else {
        *error = "no IVSHMEM device (virtio-win's ivshmem driver, PCI 1af4:1110)";
      }
      destroy_list(list);
    } else {
      *error = with_code("cannot list IVSHMEM devices", GetLastError());
    }
  } else {
    *error = "setupapi.dll lacks the device-interface functions";
  }
  FreeLibrary(setupapi);
  return port;
}

}

void set_driver_port_factory(DriverPortFactory factory) { g_factory.store(factory); }

std::unique_ptr<DriverPort> open_driver_port(std::string* error) {
  if (DriverPortFactory factory = g_factory.load())
    return factory(error);
  return open_first_device(error);
}

std::unique_ptr<DriverMapping> DriverMapping::map(std::string* error) {
  std::unique_ptr<DriverPort> port = open_driver_port(error);
  if (!port)
    return nullptr;
  Mmap mmap = {};
  uint32_t returned = 0, code = 0;
  const MmapConfig config = { kCacheCached };
  bool mapped = port->control(kIoctlRequestMmap, &config, sizeof(config), &mmap, sizeof(mmap), &returned, &code);
  if (!mapped && code == ERROR_INVALID_USER_BUFFER) {
    // A driver from before the cache mode takes no input.
    mapped = port->control(kIoctlRequestMmap, nullptr, 0, &mmap, sizeof(mmap), &returned, &code);
  }
  if (!mapped) {
    *error = code == kErrorDeviceAlreadyAttached
                 ? "the IVSHMEM device is mapped by another process (the driver grants one mapping at a time)"
                 : with_code("the IVSHMEM driver refused the mapping", code);
    return nullptr;
  }
  if (returned != sizeof(mmap) || !mmap.ptr || !mmap.size) {
    *error = "the IVSHMEM driver answered the mapping with " + std::to_string(returned) + " bytes";
    if (mmap.ptr)
      port->control(kIoctlReleaseMmap, nullptr, 0, nullptr, 0, &returned, &code);
    return nullptr;
  }
  return std::unique_ptr<DriverMapping>(new DriverMapping(std::move(port), mmap));
}

DriverMapping::~DriverMapping() {
  uint32_t returned = 0, code = 0;
  m_port->control(kIoctlReleaseMmap, nullptr, 0, nullptr, 0, &returned, &code);
}

bool DriverMapping::ring(uint16_t peer, uint16_t vector) {
  const Ring ring = { peer, vector };
  uint32_t returned = 0, code = 0;
  return m_port->control(kIoctlRingDoorbell, &ring, sizeof(ring), nullptr, 0, &returned, &code);
}

}
