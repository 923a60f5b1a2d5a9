// SPDX-License-Identifier: MIT
#pragma once

#include <d3d11_4.h>

// Windows' usage / CPU access / bind flag rules shared by CreateBuffer and
// CreateTexture* (E_INVALIDARG cases of Wine's d3d11 tests and the D3D11_USAGE docs).
namespace npt::guest {

inline HRESULT validateUsage(D3D11_USAGE usage, UINT bindFlags, UINT cpuAccessFlags, bool hasInitialData) {
  if (cpuAccessFlags & ~UINT(D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE))
    return E_INVALIDARG;
  switch (usage) {
    case D3D11_USAGE_DEFAULT:
      return cpuAccessFlags ? E_INVALIDARG : S_OK;
    case D3D11_USAGE_IMMUTABLE:
      if (cpuAccessFlags || !hasInitialData)
        return E_INVALIDARG;
      if (bindFlags & (D3D11_BIND_UNORDERED_ACCESS | D3D11_BIND_STREAM_OUTPUT | D3D11_BIND_RENDER_TARGET | D3D11_BIND_DEPTH_STENCIL))
        return E_INVALIDARG;
      return S_OK;
    case D3D11_USAGE_DYNAMIC:
      if (cpuAccessFlags != D3D11_CPU_ACCESS_WRITE)
        return E_INVALIDARG;
      if (bindFlags & (D3D11_BIND_UNORDERED_ACCESS | D3D11_BIND_STREAM_OUTPUT | D3D11_BIND_RENDER_TARGET | D3D11_BIND_DEPTH_STENCIL))
        return E_INVALIDARG;
      return S_OK;
    case D3D11_USAGE_STAGING:
      return (bindFlags || !cpuAccessFlags) ? E_INVALIDARG : S_OK;
    default:
      return E_INVALIDARG;
  }
}

inline HRESULT validateInitialData(const D3D11_SUBRESOURCE_DATA* data, UINT count) {
  if (!data)
    return S_OK;
  for (UINT i = 0; i < count; i++)
    if (!data[i].pSysMem)
      return E_INVALIDARG;
  return S_OK;
}

}
