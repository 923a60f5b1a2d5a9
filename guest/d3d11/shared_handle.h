// SPDX-License-Identifier: MIT
#pragma once

#include <d3d11_4.h>

#include <functional>

#include "shared_handle_object.h"

// NT shared handles as Windows hands them out: each CreateSharedHandle makes a
// kernel object (shared_handle_object.h) and returns a handle to it with the access and
// inheritance asked for; the application closes it, duplicates it into other processes
// or lets children inherit it. While any handle to such an object is open, in any
// process, the shared resource or fence stays alive even after the application released
// it, and after its creator process ended: the host counts the guest's kernel objects of
// each entry (one per CreateSharedHandle) and keeps the entry while any is counted; every
// runtime process that created or opened through such an object is a keeper: it holds a
// private reference on its resource (and device) and one handle to the object, recorded
// in the object's keeper table. Once the applications' handles are all closed (the
// object's handle count minus the live keepers' handles, checked every 50 ms by one
// thread per process, running only while something is kept), one keeper tells the host
// (SharedHandleClosed) and every keeper lets go.
namespace npt::guest {

// Makes the kernel object naming `registryValue` (named `name` when not null) and the
// application's handle to it. HRESULTs as IDXGIResource1::CreateSharedHandle documents
// them: DXGI_ERROR_NAME_ALREADY_EXISTS for a name the object namespace already holds
// (any object: these objects share one namespace), E_ACCESSDENIED for a namespace the
// caller may not create in, DXGI_ERROR_INVALID_CALL for a malformed name. On success
// `keep` has been handed to the keeper: it runs once the last handle other than the
// runtime's own is closed (the caller took its references before).
// What a keeper does once the applications' last handle to an object is gone: `closed`
// (only in the one keeper process that saw it: tells the host, SharedHandleClosed, that
// this kernel object no longer names the entry), then `release` (in every keeper: drops
// the runtime's private references).
struct KeepCallbacks {
  std::function<void()> closed;
  std::function<void()> release;
};

HRESULT createSharedHandle(uint64_t registryValue, const SECURITY_ATTRIBUTES* attributes, DWORD access, LPCWSTR name,
                           KeepCallbacks keep, HANDLE* handle);

// After OpenSharedResource1 / OpenSharedFence through `handle`: this process keeps the
// object's resource too (its callbacks run as above), so that the host entry outlives the
// creator's process while applications hold handles. False (callbacks not taken) when the
// object has no free keeper slot or the handle's object refuses the access the table needs.
bool keepOpenedSharedHandle(HANDLE handle, KeepCallbacks keep);

// OpenSharedResourceByName's lookup: the registry value the object named `name` names,
// and a handle to that object (`object`), which the caller closes once it opened the
// entry: while it is open it counts as an application's handle, so no keeper lets the
// entry go between the lookup and the open (Windows: a name found is an object held).
// 0x80070002 (file not found) for an unknown name or an object whose applications' handles
// were all closed (a lookup that raced the last close), E_ACCESSDENIED when the object
// namespace refuses `access`, E_INVALIDARG for an object that is not a shared handle.
HRESULT openSharedName(LPCWSTR name, DWORD access, uint64_t* registryValue, HANDLE* object);

}  // namespace npt::guest
