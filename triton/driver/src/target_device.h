// SPDX-License-Identifier: MIT
#pragma once

// The in-process D3D11 device Triton translates DDI calls onto. Today it is the
// D3D11CreateDevice of a d3d11.dll: the system one (Wine's wined3d in the tests), or
// the one TRITON_TARGET_D3D11 names — the Neptune guest runtime once it is installed
// under a name of its own (inside a Windows guest, "d3d11.dll" is Microsoft's runtime,
// which is what loads Triton).

#include <windows.h>
#include <d3d11_1.h>

#include <memory>

namespace triton::driver {

class TargetDevice {
public:
  virtual ~TargetDevice() = default;
  virtual ID3D11Device* device() = 0;                // never null
  virtual ID3D11DeviceContext* context() = 0;        // the immediate context
  virtual ID3D11Device1* device1() = 0;              // null if the target lacks D3D11.1
  virtual ID3D11DeviceContext1* context1() = 0;      // null if the target lacks D3D11.1
  virtual D3D_FEATURE_LEVEL featureLevel() = 0;
};

// The target d3d11 module (TRITON_TARGET_D3D11, default d3d11.dll), loaded on first use
// and kept; null if it cannot be loaded.
HMODULE targetModule();

// Creates a device at the highest of the given feature levels the target reaches.
HRESULT createTargetDevice(const D3D_FEATURE_LEVEL* levels, UINT levelCount,
                           std::unique_ptr<TargetDevice>& out);

}  // namespace triton::driver
