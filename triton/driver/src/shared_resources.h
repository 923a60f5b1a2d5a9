// SPDX-License-Identifier: MIT
#pragma once

// Shared resources (CreateResource with D3D10_DDI_RESOURCE_MISC_SHARED, OpenResource).
//
// On Windows a shared resource is a kernel resource: the creating driver allocates it
// through the runtime's pfnAllocateCb, the kernel keeps the resource-level private data,
// and a device of any process that opens the shared handle receives that data in
// OpenResource. Triton's own data is the record below: the target device shares the
// resource (its IDXGIResource::GetSharedHandle names it to every Neptune context of the
// same server), and the record carries that handle, so the opening device asks its own
// target device for the same resource. A kernel-mode driver only has to keep the bytes.

#include "device.h"

namespace triton::driver {

// The private data of a shared resource's kernel resource and of its one allocation.
struct SharedResourceRecord {
  UINT32 magic;          // kSharedResourceMagic
  UINT32 version;        // kSharedResourceVersion
  UINT64 targetHandle;   // the target resource's shared handle
};
inline constexpr UINT32 kSharedResourceMagic = 0x52535254;   // "TRSR" in memory order
inline constexpr UINT32 kSharedResourceVersion = 1;

// After a shared resource was created on the target: its shared handle goes into a
// kernel allocation of the runtime's resource. On failure nothing is left allocated.
HRESULT publishSharedResource(const Device& d, Resource& r);
// Destroying a resource this device published frees its kernel resource.
void releaseSharedResource(const Device& d, const Resource& r);
// OpenResource: the record in the runtime's private data names the target resource;
// the target opens it and `r` describes it (dimension, mips, slices, samples, usage).
HRESULT openSharedResource(const Device& d, const ddi::D3D10DDIARG_OPENRESOURCE& args, Resource& r);

}  // namespace triton::driver
