// SPDX-License-Identifier: MIT
#include "shared_handle.h"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "log.h"

namespace npt::guest {

namespace {

constexpr HRESULT kNameAlreadyExists = HRESULT(0x887A002C);   // DXGI_ERROR_NAME_ALREADY_EXISTS
constexpr HRESULT kFileNotFound = HRESULT(0x80070002);        // HRESULT_FROM_WIN32(ERROR_FILE_NOT_FOUND)
constexpr DWORD kKeeperPeriodMs = 50;

// NtQueryObject(ObjectBasicInformation): the object's handle count over every process.
// Looked up in ntdll at run time (the DLLs import only KERNEL32, msvcrt, ws2_32, USER32).
struct ObjectBasicInformation {
  ULONG attributes;
  ACCESS_MASK grantedAccess;
  ULONG handleCount;
  ULONG pointerCount;
  ULONG reserved[10];
};
using NtQueryObjectFn = LONG(WINAPI*)(HANDLE, int, void*, ULONG, ULONG*);

// 0 when the count cannot be read: the object is then kept (a leak, never a resource
// released under an open handle).
ULONG handleCountOf(HANDLE object) {
  static const NtQueryObjectFn query = reinterpret_cast<NtQueryObjectFn>(
      reinterpret_cast<void*>(GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "NtQueryObject")));
  ObjectBasicInformation info{};
  if (!query || query(object, 0, &info, sizeof(info), nullptr) < 0)
    return 0;
  return info.handleCount;
}

// Whether the keeper in `slot` runs: the process with that id exists, was created at the
// recorded time and has not ended (a process that ended has no handles left).
bool keeperRuns(const SharedHandleKeeperSlot& slot, DWORD self) {
  const DWORD pid = DWORD(slot.pid);
  if (!pid)
    return false;
  if (pid == self)
    return true;
  HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE, FALSE, pid);
  if (!process)
    return false;
  FILETIME created, exited, kernel, user;
  bool runs = GetProcessTimes(process, &created, &exited, &kernel, &user) &&
              ((LONGLONG(created.dwHighDateTime) << 32) | created.dwLowDateTime) == slot.created &&
              WaitForSingleObject(process, 0) == WAIT_TIMEOUT;
  CloseHandle(process);
  return runs;
}

LONGLONG thisProcessCreated() {
  FILETIME created, exited, kernel, user;
  if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
    return 0;
  return (LONGLONG(created.dwHighDateTime) << 32) | created.dwLowDateTime;
}

// The objects whose resources this process keeps alive: its own handle to each, a view of
// the object (its keeper table) and what to do once the applications' last handle is gone.
// A keeper slot is taken when the object is added and given back when it is let go, so
// any live keeper can tell the applications' handles from the keepers'.
class Keeper {
public:
  // False (nothing kept) when the object has no free keeper slot or cannot be mapped.
  bool add(HANDLE object, KeepCallbacks callbacks) {
    auto* view = static_cast<SharedHandleContents*>(
        MapViewOfFile(object, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, sizeof(SharedHandleContents)));
    if (!view)
      return false;
    const DWORD self = GetCurrentProcessId();
    int slot = -1;
    for (unsigned i = 0; i < kSharedHandleKeeperSlots && slot < 0; i++) {
      const LONG pid = view->keepers[i].pid;
      // A free slot, or one of a keeper that no longer runs (its handle is gone with it).
      if ((!pid || !keeperRuns(view->keepers[i], self)) &&
          InterlockedCompareExchange(&view->keepers[i].pid, LONG(self), pid) == pid)
        slot = int(i);
    }
    if (slot < 0) {
      UnmapViewOfFile(view);
      return false;
    }
    // Until the creation time is written, others count this slot as not running: its
    // handle counts as an application's, which keeps the resource (never the other way).
    InterlockedExchange64(&view->keepers[slot].created, thisProcessCreated());
    std::lock_guard<std::mutex> lock(m_mutex);
    m_kept.push_back({object, view, slot, 0, std::move(callbacks)});
    if (!m_started) {
      m_started = true;
      // The thread runs this module's code for as long as something is kept, which may
      // outlive the application's FreeLibrary of d3d11.dll: the module stays loaded until
      // the process ends (as a DLL that keeps resources alive must). Under Wine the C
      // runtime's thread start already holds a reference on the thread's module (the
      // FreeLibrary test passes without the pin, a plain LoadLibrary/FreeLibrary unloads);
      // the pin does not depend on how the C runtime starts threads.
      HMODULE pinned = nullptr;
      GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                         reinterpret_cast<LPCWSTR>(&keeperRuns), &pinned);
      std::thread([this] { run(); }).detach();
    }
    m_wake.notify_all();
    return true;
  }

private:
  struct Kept {
    HANDLE object;
    SharedHandleContents* view;
    int slot;
    int quietChecks;   // consecutive checks that saw no application handle
    KeepCallbacks callbacks;
  };

  // Handles the applications hold: every handle of the object but the live keepers' own.
  static LONG applicationHandles(const Kept& kept) {
    const ULONG handles = handleCountOf(kept.object);
    if (!handles)
      return 1;   // unknown: kept
    const DWORD self = GetCurrentProcessId();
    LONG keepers = 0;
    for (const SharedHandleKeeperSlot& slot : kept.view->keepers)
      if (keeperRuns(slot, self))
        keepers++;
    return LONG(handles) - keepers;
  }

  void run() {
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
      if (m_kept.empty()) {
        m_wake.wait(lock);
        continue;
      }
      std::vector<std::pair<bool, KeepCallbacks>> releases;
      for (size_t i = 0; i < m_kept.size();) {
        Kept& kept = m_kept[i];
        // Two checks in a row: a keeper that ends closes its handle a moment before the
        // system reports it ended, when the count would look one too low.
        kept.quietChecks = applicationHandles(kept) <= 0 ? kept.quietChecks + 1 : 0;
        if (kept.quietChecks >= 2 || kept.view->closed) {
          // Exactly one keeper tells the host that this object is gone.
          const bool last = InterlockedCompareExchange(&kept.view->closed, 1, 0) == 0;
          InterlockedExchange(&kept.view->keepers[kept.slot].pid, 0);
          UnmapViewOfFile(kept.view);
          CloseHandle(kept.object);
          releases.emplace_back(last, std::move(kept.callbacks));
          m_kept.erase(m_kept.begin() + long(i));
        } else {
          i++;
        }
      }
      // Releasing may destroy a resource and its device: outside the lock.
      lock.unlock();
      for (auto& [last, callbacks] : releases) {
        if (last)
          callbacks.closed();
        callbacks.release();
      }
      Sleep(kKeeperPeriodMs);
      lock.lock();
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::vector<Kept> m_kept;
  bool m_started = false;
};

Keeper& keeper() {
  // Never destroyed: its thread may still run while the process exits.
  static Keeper* instance = new Keeper;
  return *instance;
}

HRESULT nameError(DWORD error) {
  switch (error) {
    case ERROR_ALREADY_EXISTS:
    case ERROR_INVALID_HANDLE:   // the name belongs to an object of another type
      return kNameAlreadyExists;
    case ERROR_ACCESS_DENIED:
      return E_ACCESSDENIED;
    case ERROR_PATH_NOT_FOUND:   // a backslash the namespace does not know
    case ERROR_BAD_PATHNAME:
    case ERROR_INVALID_NAME:
    case ERROR_FILENAME_EXCED_RANGE:
      return DXGI_ERROR_INVALID_CALL;
    default:
      return E_OUTOFMEMORY;
  }
}

// The section's own rights for generic ones (the file-mapping generic mapping): a handle
// duplicated with rights the runtime's handle holds needs no second access check (Wine
// checks generic bits against the security descriptor again).
DWORD sectionRights(DWORD access) {
  DWORD rights = access & ~(GENERIC_READ | GENERIC_WRITE | GENERIC_EXECUTE | GENERIC_ALL);
  if (access & GENERIC_READ) rights |= STANDARD_RIGHTS_READ | SECTION_QUERY | SECTION_MAP_READ;
  if (access & GENERIC_WRITE) rights |= STANDARD_RIGHTS_WRITE | SECTION_MAP_WRITE;
  if (access & GENERIC_EXECUTE) rights |= STANDARD_RIGHTS_EXECUTE | SECTION_MAP_EXECUTE;
  if (access & GENERIC_ALL) rights |= SECTION_ALL_ACCESS;
  return rights;
}

// The application's security descriptor (its DACL) on the object, through ntdll's
// NtSetSecurityObject (looked up at run time, as NtQueryObject).
bool applySecurity(HANDLE object, PSECURITY_DESCRIPTOR descriptor) {
  using NtSetSecurityObjectFn = LONG(WINAPI*)(HANDLE, SECURITY_INFORMATION, PSECURITY_DESCRIPTOR);
  static const NtSetSecurityObjectFn set = reinterpret_cast<NtSetSecurityObjectFn>(
      reinterpret_cast<void*>(GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "NtSetSecurityObject")));
  return set && set(object, DACL_SECURITY_INFORMATION, descriptor) >= 0;
}

}  // namespace

HRESULT createSharedHandle(uint64_t registryValue, const SECURITY_ATTRIBUTES* attributes, DWORD access, LPCWSTR name,
                           KeepCallbacks keep, HANDLE* handle) {
  *handle = nullptr;
  if (name && wcslen(name) > MAX_PATH)
    return DXGI_ERROR_INVALID_CALL;
  // Created with the default security descriptor, so that the runtime's own handle and
  // the duplicates below are granted whatever the application's descriptor says (Windows
  // grants a creator its access; Wine checks a new object's descriptor); that descriptor is
  // applied once the object is written. Inheritance is the application's handle's.
  SetLastError(ERROR_SUCCESS);
  HANDLE object = CreateFileMappingW(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, 0, kSharedHandleObjectBytes, name);
  const DWORD error = GetLastError();
  if (!object || error == ERROR_ALREADY_EXISTS) {
    if (object)
      CloseHandle(object);
    return nameError(error);
  }
  auto* contents = static_cast<SharedHandleContents*>(MapViewOfFile(object, FILE_MAP_WRITE, 0, 0, sizeof(SharedHandleContents)));
  if (!contents) {
    CloseHandle(object);
    return E_OUTOFMEMORY;
  }
  std::memcpy(contents->magic, kSharedHandleMagic, sizeof(kSharedHandleMagic));
  contents->registryValue = registryValue;
  contents->creatorPid = GetCurrentProcessId();
  UnmapViewOfFile(contents);
  // The application's handle grants what it asked for (DXGI_SHARED_RESOURCE_READ is
  // GENERIC_READ, _WRITE is 1, GENERIC_ALL everything), mapped onto the section's rights.
  const BOOL inherit = attributes && attributes->bInheritHandle;
  if (!DuplicateHandle(GetCurrentProcess(), object, GetCurrentProcess(), handle, sectionRights(access), inherit, 0)) {
    CloseHandle(object);
    *handle = nullptr;
    return E_OUTOFMEMORY;
  }
  if (attributes && attributes->lpSecurityDescriptor && !applySecurity(object, attributes->lpSecurityDescriptor)) {
    CloseHandle(*handle);
    CloseHandle(object);
    *handle = nullptr;
    return DXGI_ERROR_INVALID_CALL;   // a descriptor the object manager refuses
  }
  if (!keeper().add(object, keep)) {
    // Cannot happen for a new object (every slot is free); kept by nobody, the host entry
    // would go with the resource: refuse rather than hand out a handle that dies early.
    CloseHandle(*handle);
    CloseHandle(object);
    *handle = nullptr;
    return E_OUTOFMEMORY;
  }
  return S_OK;
}

bool keepOpenedSharedHandle(HANDLE handle, KeepCallbacks keep) {
  // A handle of our own, with the rights the keeper table needs (the object manager checks
  // them against the object's security descriptor; refused: this process keeps nothing).
  HANDLE object = nullptr;
  if (!DuplicateHandle(GetCurrentProcess(), handle, GetCurrentProcess(), &object, FILE_MAP_READ | FILE_MAP_WRITE, FALSE, 0))
    return false;
  if (!keeper().add(object, std::move(keep))) {
    CloseHandle(object);
    return false;
  }
  return true;
}

HRESULT openSharedName(LPCWSTR name, DWORD access, uint64_t* registryValue, HANDLE* object) {
  *registryValue = 0;
  *object = nullptr;
  if (!name || !*name)
    return E_INVALIDARG;
  HANDLE opened = OpenFileMappingW(access, FALSE, name);
  if (!opened) {
    const DWORD error = GetLastError();
    if (error == ERROR_ACCESS_DENIED)
      return E_ACCESSDENIED;
    if (error == ERROR_INVALID_HANDLE) {   // the name belongs to an object of another type
      NPT_WARN("OpenSharedResourceByName: the object named so is no shared resource");
      return E_INVALIDARG;
    }
    return kFileNotFound;
  }
  bool closed = false;
  *registryValue = registryValueOfSharedHandle(opened, &closed);
  // The name exists from the moment CreateSharedHandle makes the object, a moment before
  // it writes what the object names: a lookup in between waits for it (briefly: an object
  // of someone else's under this name never gets our contents).
  for (int i = 0; i < 50 && !*registryValue && !closed; i++) {
    Sleep(1);
    *registryValue = registryValueOfSharedHandle(opened, &closed);
  }
  if (closed) {
    CloseHandle(opened);
    return kFileNotFound;   // the applications' last handle was closed meanwhile: gone
  }
  if (!*registryValue) {
    CloseHandle(opened);
    return E_INVALIDARG;
  }
  *object = opened;
  return S_OK;
}

}  // namespace npt::guest
