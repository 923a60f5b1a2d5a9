// SPDX-License-Identifier: MIT
#pragma once

#include <d3d11_4.h>

#include <functional>

#include "npt/protocol/wire.h"
#include "shared_handle.h"

// Shared resources between processes, guest side. The host keeps the
// cross-context registry (host/sharing); every call here that involves it is one
// synchronous round trip: handing out a handle, opening one, and each AcquireSync slice.
// ReleaseSync is fire-and-forget.
//
// GetSharedHandle's (legacy) handles are registry handles, valid in every process
// connected to the same server: bits 0-3 name the kind of resource (1 buffer, 3 2D
// texture; 8 is a fence), which is how OpenSharedResource knows what to create before
// asking the host (protocol/README.md 14). CreateSharedHandle's are NT handles to kernel
// objects naming a registry handle (shared_handle.h).
namespace npt::guest {

class Device;

// IDXGIResource::GetSharedHandle (SHARED or SHARED_KEYEDMUTEX resources).
HRESULT callSyncGetSharedHandle(ID3D11Resource* resource, UINT64* handle);
// IDXGIResource1::CreateSharedHandle (SHARED_NTHANDLE resources): the registry handle
// (registered without a name: names live in the object namespace, shared_handle.h).
HRESULT callSyncCreateSharedHandle(ID3D11Resource* resource, DWORD access, UINT64* handle);
// The NT handle of one CreateSharedHandle call for `registryValue`; the resource and its
// device stay alive while any handle to its kernel object is open.
HRESULT createResourceNtHandle(ID3D11Resource* resource, UINT64 registryValue, const SECURITY_ATTRIBUTES* attributes,
                               DWORD access, LPCWSTR name, HANDLE* handle);
// IDXGIKeyedMutex::AcquireSync: the host waits at most one slice per call; this repeats
// until `milliseconds` (INFINITE: forever) and answers WAIT_TIMEOUT after it.
HRESULT callSyncAcquireKeyedMutex(ID3D11Resource* resource, UINT64 key, DWORD milliseconds);
HRESULT recordReleaseKeyedMutex(ID3D11Resource* resource, UINT64 key);

// What a keeper of object `id` (a shared resource or fence of `device`; the caller took a
// private reference on the device and, through `release`, on the object) does once the
// applications' handles are gone (shared_handle.h): tells the host, then `release`, then
// the device's reference.
KeepCallbacks keeperCallbacks(Device* device, protocol::ObjectId id, std::function<void()> release);

// ID3D11Device::OpenSharedResource (ntOpen false: a registry handle) and
// OpenSharedResource1 (true: an NT handle of this process).
HRESULT openSharedResource(Device* device, HANDLE handle, bool ntOpen, REFIID iid, void** out);
// ID3D11Device1::OpenSharedResourceByName: the named kernel object, then as OpenSharedResource1.
HRESULT openSharedResourceByName(Device* device, LPCWSTR name, DWORD access, REFIID iid, void** out);

}  // namespace npt::guest
