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

}  // namespace npt::validation
