// SPDX-License-Identifier: MIT
#include "npt/backends/caps_limits.h"

#include <cstring>

namespace npt::backends {

using validation::DeviceLimits;

UINT SnapshotFormatCaps::formatSupport(DXGI_FORMAT format) const {
  const FormatEntry* entry = m_caps.format(format);
  return entry ? entry->support : 0;
}

UINT SnapshotFormatCaps::multisampleQualityLevels(DXGI_FORMAT format, UINT sampleCount) const {
  const FormatEntry* entry = m_caps.format(format);
  if (!entry) return 0;
  // Slots hold 1, 2, 4, 8, 16, 32 samples; other counts have no quality levels.
  for (uint32_t slot = 0; slot < kSampleCountSlots; slot++) {
    if ((1u << slot) == sampleCount) return entry->qualityLevels[slot];
  }
  return 0;
}

DeviceLimits limitsFromSnapshot(const CapsSnapshot& caps, const SnapshotFormatCaps& formatCaps) {
  DeviceLimits limits;
  limits.featureLevel = caps.featureLevel;
  limits.caps = &formatCaps;
  // 64 UAV slots come with feature level 11.1; below that, 8.
  limits.uavSlotCount = caps.featureLevel >= D3D_FEATURE_LEVEL_11_1 ? D3D11_1_UAV_SLOT_COUNT : 8;
  limits.mapNoOverwriteOnDynamicConstantBuffer = false;
  limits.mapNoOverwriteOnDynamicBufferSrv = false;
  const FeatureEntry* options = caps.feature(D3D11_FEATURE_D3D11_OPTIONS);
  if (options && SUCCEEDED(options->hr) && options->data.size() == sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS)) {
    D3D11_FEATURE_DATA_D3D11_OPTIONS data;
    std::memcpy(&data, options->data.data(), sizeof(data));
    limits.mapNoOverwriteOnDynamicConstantBuffer = data.MapNoOverwriteOnDynamicConstantBuffer;
    limits.mapNoOverwriteOnDynamicBufferSrv = data.MapNoOverwriteOnDynamicBufferSRV;
  }
  return limits;
}

}  // namespace npt::backends
