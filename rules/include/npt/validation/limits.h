// SPDX-License-Identifier: MIT
#pragma once

// What the validator needs to know about the device it protects. Defaults describe a
// feature level 11.1 device; the host fills the rest from the backend's caps snapshot.

#include <cstdint>

#include "npt/d3d11_api.h"

namespace npt::validation {

// Device-dependent answers (CheckFormatSupport / CheckMultisampleQualityLevels).
class FormatCaps {
public:
  virtual ~FormatCaps() = default;
  virtual UINT formatSupport(DXGI_FORMAT format) const = 0;
  virtual UINT multisampleQualityLevels(DXGI_FORMAT format, UINT sampleCount) const = 0;
};

struct DeviceLimits {
  D3D_FEATURE_LEVEL featureLevel = D3D_FEATURE_LEVEL_11_1;
  // D3D11.1 raises the UAV slot count from 8 to 64.
  uint32_t uavSlotCount = D3D11_1_UAV_SLOT_COUNT;
  // D3D11_FEATURE_D3D11_OPTIONS: MapNoOverwriteOnDynamicConstantBuffer / ...BufferSRV.
  bool mapNoOverwriteOnDynamicConstantBuffer = true;
  bool mapNoOverwriteOnDynamicBufferSrv = true;
  // D3D11 caps resource size at max(128 MiB, min(VRAM / 4, 2 GiB)); without the
  // adapter's memory size the upper term is the bound.
  uint64_t maxResourceBytes = uint64_t(D3D11_REQ_RESOURCE_SIZE_IN_MEGABYTES_EXPRESSION_C_TERM) << 20;
  // Optional device caps; when null only the static format rules apply.
  const FormatCaps* caps = nullptr;
};

}  // namespace npt::validation
