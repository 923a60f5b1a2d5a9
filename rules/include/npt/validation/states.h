// SPDX-License-Identifier: MIT
#pragma once

// State object descriptions: enum values and numeric ranges (Create*State).

#include "npt/validation/check.h"

namespace npt::validation {

Check validateBlendDesc(const D3D11_BLEND_DESC& desc);
Check validateBlendDesc1(const D3D11_BLEND_DESC1& desc);
Check validateDepthStencilDesc(const D3D11_DEPTH_STENCIL_DESC& desc);
// What a backend gets for a valid description: the fields of disabled tests set to the
// defaults (DepthFunc LESS; stencil faces KEEP/KEEP/KEEP/ALWAYS), as the runtime does.
D3D11_DEPTH_STENCIL_DESC normalizedDepthStencilDesc(const D3D11_DEPTH_STENCIL_DESC& desc);
Check validateRasterizerDesc(const D3D11_RASTERIZER_DESC& desc);
Check validateRasterizerDesc2(const D3D11_RASTERIZER_DESC2& desc);
Check validateSamplerDesc(const D3D11_SAMPLER_DESC& desc);

}  // namespace npt::validation
