// SPDX-License-Identifier: MIT
#pragma once

// Triton's kernel transport (triton/kernel/CONTRACT.md): with TRITON_TRANSPORT=kernel the
// process's Neptune context is made through the runtime's kernel callbacks of the first
// device (pfnEscapeCb: capset, context creation, doorbell, waits; pfnAllocateCb +
// pfnLockCb: the context's blob memory) and handed to the Neptune guest runtime that
// Triton targets (NptAttachExternalTransport, guest/core/external_transport.h), instead
// of the guest runtime connecting to a server socket itself (NPT_SERVER).

#include <windows.h>

#include "triton/ddi/ddi.h"

namespace triton::driver::kernel_transport {

// Decides the process's transport at OpenAdapter: TRITON_TRANSPORT when it is set (it
// overrides), otherwise the value "TritonTransport" (REG_SZ, "kernel" or "socket") of the
// adapter's software key, which the INF writes, read through the runtime's
// pfnQueryAdapterInfoCb2 registry query (runtimes of Windows 10 1803 and later have it),
// otherwise the socket path.
void chooseTransport(const ddi::D3D10DDIARG_OPENADAPTER& args);

// The kernel transport was chosen (default: socket, the guest runtime's own connection).
bool selected();

// The process's context exists and is open (a target device may be created on it).
bool open();
// The owner device was destroyed: nothing may use the guest runtime again.
bool closed();

// Makes the process's context through this device's callbacks, once per process (the
// device becomes its owner); S_OK when it exists already. Failures: E_FAIL (the kernel
// does not answer the contract, or answers it wrongly: one log line says how),
// E_OUTOFMEMORY (the host refused the geometry), DXGI_ERROR_DEVICE_REMOVED (closed).
HRESULT connect(const ddi::D3DDDI_DEVICECALLBACKS* callbacks, ddi::D3D10DDI_HRTDEVICE runtimeDevice);

// A device was destroyed (DestroyDevice, after the object): if it owned the context,
// DestroyContext is escaped while its callbacks are still valid and the transport closes.
// Returns true when it was the owner.
bool deviceDestroyed(ddi::D3D10DDI_HRTDEVICE runtimeDevice);

}  // namespace triton::driver::kernel_transport
