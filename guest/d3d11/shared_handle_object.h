#pragma once

#include <windows.h>

#include <cstdint>
#include <cstring>

// The kernel object behind an NT shared handle (IDXGIResource1::CreateSharedHandle,
// ID3D11Fence::CreateSharedHandle; issue 10). On Windows such a handle is a real handle
// to a kernel object: CloseHandle and DuplicateHandle work on it, it can be inherited,
// and a name given at creation lives in the object namespace. Ours is a small
// pagefile-backed section whose bytes name the host registry entry (the value the host
// answered CreateSharedHandle with); OpenSharedResource1 / OpenSharedFence /
// OpenSharedResourceByName read the value back from whichever handle or name they get.
//
// Header-only (Win32 only) so that tests can resolve a handle the same way.
namespace npt::guest {

struct SharedHandleContents {
  char magic[8];          // kSharedHandleMagic
  uint64_t registryValue;  // the host registry's handle (host/sharing/README.md)
  uint32_t creatorPid;     // for diagnostics only
  uint32_t reserved;
};

inline constexpr char kSharedHandleMagic[8] = {'N', 'P', 'T', 'S', 'H', 'R', 'D', '1'};
inline constexpr DWORD kSharedHandleObjectBytes = 4096;

// The registry value the section behind `handle` names; 0 when `handle` is no handle of
// this process, not a section, or not one of ours. The handle may carry any access (the
// application chose it at CreateSharedHandle or DuplicateHandle): a handle that cannot
// be mapped is duplicated for reading, which the object manager checks against the
// section's security descriptor, as Windows' runtime is allowed what the creator allowed.
inline uint64_t registryValueOfSharedHandle(HANDLE handle) {
  if (!handle || handle == INVALID_HANDLE_VALUE)
    return 0;
  void* view = MapViewOfFile(handle, FILE_MAP_READ, 0, 0, sizeof(SharedHandleContents));
  if (!view) {
    HANDLE readable = nullptr;
    if (!DuplicateHandle(GetCurrentProcess(), handle, GetCurrentProcess(), &readable, FILE_MAP_READ, FALSE, 0))
      return 0;
    view = MapViewOfFile(readable, FILE_MAP_READ, 0, 0, sizeof(SharedHandleContents));
    CloseHandle(readable);
    if (!view)
      return 0;
  }
  SharedHandleContents contents;
  std::memcpy(&contents, view, sizeof(contents));
  UnmapViewOfFile(view);
  if (std::memcmp(contents.magic, kSharedHandleMagic, sizeof(kSharedHandleMagic)) != 0)
    return 0;
  return contents.registryValue;
}

}  // namespace npt::guest
