// SPDX-License-Identifier: MIT
#pragma once

// What the guest needs to answer locally, collected once at device creation
// (design.md decision 3): feature level, every CheckFeatureSupport structure, and for
// every DXGI format its CheckFormatSupport bits and multisample quality levels.

#include <cstdint>
#include <vector>

#include "npt/backends/backend.h"

namespace npt::backends {

struct FeatureEntry {
  D3D11_FEATURE feature = D3D11_FEATURE_THREADING;
  HRESULT hr = E_FAIL;              // runtimes answer E_INVALIDARG for features they predate
  std::vector<uint8_t> data;        // the D3D11_FEATURE_DATA_* structure, when hr is S_OK
};

// Sample counts 1, 2, 4, 8, 16, 32.
constexpr uint32_t kSampleCountSlots = 6;

struct FormatEntry {
  DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
  HRESULT supportHr = E_FAIL;
  UINT support = 0;                 // D3D11_FORMAT_SUPPORT
  HRESULT support2Hr = E_FAIL;      // CheckFeatureSupport(FORMAT_SUPPORT2)
  UINT support2 = 0;                // D3D11_FORMAT_SUPPORT2 (0 if the query failed)
  UINT qualityLevels[kSampleCountSlots] = {};
};

struct CapsSnapshot {
  D3D_FEATURE_LEVEL featureLevel = D3D_FEATURE_LEVEL(0);
  UINT creationFlags = 0;
  std::vector<FeatureEntry> features;
  std::vector<FormatEntry> formats;

  const FeatureEntry* feature(D3D11_FEATURE which) const;
  const FormatEntry* format(DXGI_FORMAT which) const;
};

// Queries every D3D11_FEATURE this build's headers define and every format value in
// `formats` (pass the validation format table's values). Fails only if the device
// itself misbehaves (THREADING, which every runtime answers, fails).
BackendStatus collectCaps(ID3D11Device* device, const std::vector<DXGI_FORMAT>& formats, CapsSnapshot& out);

}  // namespace npt::backends
