// SPDX-License-Identifier: MIT
#pragma once

// Format support as the runtime assembles it from the driver's answer.
//
// The DDI's pfnCheckFormatSupport reports only the capabilities that are optional for
// some format at some level (D3D10_DDI_FORMAT_SUPPORT_* / D3D11_1DDI_FORMAT_SUPPORT_*:
// sampling, render target, blending, multisampling, vertex/typed-UAV/buffer use,
// gather, logic ops, ...) or NOT_SUPPORTED. Everything else the API's
// D3D11_FORMAT_SUPPORT(2) describes (texture dimensions, ld, mips, depth-stencil,
// index/stream-output buffers, CPU access, resolve, display, casts, the required UAV
// atomics and typed loads) is the runtime's own knowledge of the format at the device's
// feature level. format_support.cpp says exactly which of those it reproduces.

#include <d3d11.h>

namespace triton::runtime {

// The API bits of the DDI's optional capabilities (the inverse of the driver's
// translation) the level allows; D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED maps to nothing.
UINT apiOptionalFormatSupport(UINT ddiCaps, D3D_FEATURE_LEVEL level);
UINT apiOptionalFormatSupport2(UINT ddiCaps);

// What the runtime adds for `format` at `level`, given the driver's optional answer
// (some required bits follow an optional one, e.g. MIP_AUTOGEN from render target).
UINT requiredFormatSupport(DXGI_FORMAT format, D3D_FEATURE_LEVEL level, UINT ddiCaps);
UINT requiredFormatSupport2(DXGI_FORMAT format, D3D_FEATURE_LEVEL level);

// False for formats the runtime refuses at `level` whatever the driver says (BC6H/BC7
// below 11_0) and for values that are no DXGI format this runtime knows.
bool formatKnownAtLevel(DXGI_FORMAT format, D3D_FEATURE_LEVEL level);

}  // namespace triton::runtime
