// SPDX-License-Identifier: MIT
#pragma once

#include <windows.h>

#include <cstdint>
#include <cstring>

// The kernel object behind an NT shared handle (IDXGIResource1::CreateSharedHandle,
// ID3D11Fence::CreateSharedHandle). On Windows such a handle is a real handle
// to a kernel object: CloseHandle and DuplicateHandle work on it, it can be inherited,
// and a name given at creation lives in the object namespace. Ours is a small
// pagefile-backed section whose bytes name the host registry entry (the value the host
// answered CreateSharedHandle with); OpenSharedResource1 / OpenSharedFence /
// OpenSharedResourceByName read the value back from whichever handle or name they get.
//
// Header-only (Win32 only) so that tests can resolve a handle the same way.
namespace npt::guest {

// A runtime process that keeps the object's resource alive (shared_handle.cpp): it holds
// one private handle to the object. Any live keeper computes the handles the applications
// hold as the object's handle count minus one per live keeper.
struct SharedHandleKeeperSlot {
  volatile LONG pid;               // 0: free
  LONG reserved;
  volatile LONGLONG created;       // the process's creation time (a later process with the pid is another)
};

inline constexpr unsigned kSharedHandleKeeperSlots = 64;

struct SharedHandleContents {
  char magic[8];          // kSharedHandleMagic
  uint64_t registryValue;  // the host registry's handle (host/sharing/README.md)
  uint32_t creatorPid;     // for diagnostics only
  uint32_t reserved;
  // Set once, by the keeper that saw the applications' last handle closed (it tells the
  // host, whose entry then goes with the last resource): from then on the object names
  // nothing, and a lookup by name that raced the close answers "not found".
  volatile LONG closed;
  LONG reserved2;
  SharedHandleKeeperSlot keepers[kSharedHandleKeeperSlots];
};
static_assert(sizeof(SharedHandleContents) <= 4096, "one page");

inline constexpr char kSharedHandleMagic[8] = {'N', 'P', 'T', 'S', 'H', 'R', 'D', '2'};
inline constexpr DWORD kSharedHandleObjectBytes = 4096;

// The registry value the section behind `handle` names; 0 when `handle` is no handle of
// this process, not a section, not one of ours, or closed (its applications' handles
// were all closed: only a handle that raced that close, by name, can still see it). The handle may carry any access (the
// application chose it at CreateSharedHandle or DuplicateHandle): a handle that cannot
// be mapped is duplicated for reading, which the object manager checks against the
// section's security descriptor, as Windows' runtime is allowed what the creator allowed.
inline uint64_t registryValueOfSharedHandle(HANDLE handle, bool* closedOut = nullptr) {
  if (closedOut)
    *closedOut = false;
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
  char magic[sizeof(kSharedHandleMagic)];
  uint64_t registryValue = 0;
  LONG closed = 0;
  const auto* contents = static_cast<const SharedHandleContents*>(view);
  std::memcpy(magic, contents->magic, sizeof(magic));
  registryValue = contents->registryValue;
  closed = contents->closed;
  UnmapViewOfFile(view);
  if (std::memcmp(magic, kSharedHandleMagic, sizeof(kSharedHandleMagic)) != 0)
    return 0;
  if (closed) {
    if (closedOut)
      *closedOut = true;
    return 0;
  }
  return registryValue;
}

}  // namespace npt::guest
