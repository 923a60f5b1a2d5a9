#pragma once

#include <d3d11_4.h>

#include <functional>

#include "shared_handle_object.h"

// NT shared handles as Windows hands them out (issue 10): each CreateSharedHandle makes a
// kernel object (shared_handle_object.h) and returns a handle to it with the access and
// inheritance asked for; the application closes it, duplicates it into other processes
// or lets children inherit it. While any handle to such an object is open, in any
// process, the shared resource or fence stays alive even after the application released
// it: the runtime holds a private reference on it (and on its device) and lets go once
// its own handle is the object's last (checked every 50 ms by one thread per process,
// which runs only while something is kept).
namespace npt::guest {

// Makes the kernel object naming `registryValue` (named `name` when not null) and the
// application's handle to it. HRESULTs as IDXGIResource1::CreateSharedHandle documents
// them: DXGI_ERROR_NAME_ALREADY_EXISTS for a name the object namespace already holds
// (any object: these objects share one namespace), E_ACCESSDENIED for a namespace the
// caller may not create in, DXGI_ERROR_INVALID_CALL for a malformed name. On success
// `keep` has been handed to the keeper: it runs once the last handle other than the
// runtime's own is closed (the caller took its references before).
HRESULT createSharedHandle(uint64_t registryValue, const SECURITY_ATTRIBUTES* attributes, DWORD access, LPCWSTR name,
                           std::function<void()> keep, HANDLE* handle);

// OpenSharedResourceByName's lookup: the registry value the object named `name` names.
// 0x80070002 (file not found) for an unknown name, E_ACCESSDENIED when the object
// namespace refuses `access`, E_INVALIDARG for an object that is not a shared handle.
HRESULT registryValueOfSharedName(LPCWSTR name, DWORD access, uint64_t* registryValue);

}  // namespace npt::guest
