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

// The objects whose resources are kept alive, with the runtime's own handle to each.
class Keeper {
public:
  void add(HANDLE object, std::function<void()> release) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_kept.push_back({object, std::move(release)});
    if (!m_started) {
      m_started = true;
      std::thread([this] { run(); }).detach();
    }
    m_wake.notify_all();
  }

private:
  struct Kept {
    HANDLE object;
    std::function<void()> release;
  };

  void run() {
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
      if (m_kept.empty()) {
        m_wake.wait(lock);
        continue;
      }
      std::vector<std::function<void()>> releases;
      for (size_t i = 0; i < m_kept.size();) {
        if (handleCountOf(m_kept[i].object) == 1) {   // only ours is left
          CloseHandle(m_kept[i].object);
          releases.push_back(std::move(m_kept[i].release));
          m_kept.erase(m_kept.begin() + long(i));
        } else {
          i++;
        }
      }
      // Releasing may destroy a resource and its device: outside the lock.
      lock.unlock();
      for (auto& release : releases) release();
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
                           std::function<void()> keep, HANDLE* handle) {
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
  keeper().add(object, std::move(keep));
  return S_OK;
}

HRESULT registryValueOfSharedName(LPCWSTR name, DWORD access, uint64_t* registryValue) {
  *registryValue = 0;
  if (!name || !*name)
    return E_INVALIDARG;
  HANDLE object = OpenFileMappingW(access, FALSE, name);
  if (!object) {
    const DWORD error = GetLastError();
    if (error == ERROR_ACCESS_DENIED)
      return E_ACCESSDENIED;
    if (error == ERROR_INVALID_HANDLE) {   // the name belongs to an object of another type
      NPT_WARN("OpenSharedResourceByName: the object named so is no shared resource");
      return E_INVALIDARG;
    }
    return kFileNotFound;
  }
  *registryValue = registryValueOfSharedHandle(object);
  CloseHandle(object);
  return *registryValue ? S_OK : E_INVALIDARG;
}

}  // namespace npt::guest
