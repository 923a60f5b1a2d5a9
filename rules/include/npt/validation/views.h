// SPDX-License-Identifier: MIT
#pragma once

// View descriptions against the resource they view (CreateShaderResourceView,
// CreateRenderTargetView, CreateDepthStencilView, CreateUnorderedAccessView).
// A null desc means "the default view of the whole resource".

#include "npt/validation/check.h"
#include "npt/validation/limits.h"
#include "npt/validation/resource.h"

namespace npt::validation {

Check validateShaderResourceView(const ResourceShape& resource, const D3D11_SHADER_RESOURCE_VIEW_DESC* desc,
                                 const DeviceLimits& limits = {});
Check validateRenderTargetView(const ResourceShape& resource, const D3D11_RENDER_TARGET_VIEW_DESC* desc,
                               const DeviceLimits& limits = {});
Check validateDepthStencilView(const ResourceShape& resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* desc,
                               const DeviceLimits& limits = {});
Check validateUnorderedAccessView(const ResourceShape& resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* desc,
                                  const DeviceLimits& limits = {});

// Planar video formats are viewed one plane at a time, in a format of that plane (the
// "Direct3D 11 video formats" tables): NV12 and NV11 as R8 (plane 0, luma) or R8G8
// (plane 1, chroma), P010 and P016 as R16 or R16G16, each UNORM or UINT; other planar
// formats (420_OPAQUE, ...) have no views. The 11.0 descs select the plane by that
// format. Returns the plane `viewFormat` selects in a resource of `resourceFormat`, or
// -1 when it selects none.
int planeOfViewFormat(DXGI_FORMAT resourceFormat, DXGI_FORMAT viewFormat);

// The PlaneSlice of the 11.3 view descs (D3D11_*_VIEW_DESC1, 2D arms): 0 for a resource
// that is not planar; for a planar one, the plane its view format selects.
Check validateViewPlane(const ResourceShape& resource, DXGI_FORMAT viewFormat, uint32_t planeSlice);

}  // namespace npt::validation
