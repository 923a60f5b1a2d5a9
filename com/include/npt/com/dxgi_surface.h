// SPDX-License-Identifier: MIT
#pragma once

// IDXGISurface over a D3D11 texture: the surface is subresource 0, mapped through the
// device's immediate context with the D3D11 map type that IDXGISurface::Map's flags name.

#include <d3d11.h>
#include <dxgi.h>

namespace npt::com {

// False for flags Windows refuses (DXGI_ERROR_INVALID_CALL): none of READ, WRITE and
// DISCARD, or DISCARD with READ.
inline bool d3d11MapTypeOf(UINT dxgiMapFlags, D3D11_MAP* type) {
  switch (dxgiMapFlags & (DXGI_MAP_READ | DXGI_MAP_WRITE | DXGI_MAP_DISCARD)) {
    case DXGI_MAP_READ: *type = D3D11_MAP_READ; return true;
    case DXGI_MAP_WRITE: *type = D3D11_MAP_WRITE; return true;
    case DXGI_MAP_READ | DXGI_MAP_WRITE: *type = D3D11_MAP_READ_WRITE; return true;
    case DXGI_MAP_DISCARD:
    case DXGI_MAP_WRITE | DXGI_MAP_DISCARD: *type = D3D11_MAP_WRITE_DISCARD; return true;
    default: return false;
  }
}

}  // namespace npt::com
