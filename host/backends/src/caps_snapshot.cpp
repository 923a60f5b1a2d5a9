// SPDX-License-Identifier: MIT
#include "npt/backends/caps_snapshot.h"

namespace npt::backends {

namespace {

struct FeatureQuery {
  D3D11_FEATURE feature;
  size_t size;
};

#define Q(feature, type) FeatureQuery{D3D11_FEATURE_##feature, sizeof(type)}
// FORMAT_SUPPORT / FORMAT_SUPPORT2 are per-format and collected with the formats.
const FeatureQuery kFeatures[] = {
  Q(THREADING, D3D11_FEATURE_DATA_THREADING),
  Q(DOUBLES, D3D11_FEATURE_DATA_DOUBLES),
  Q(D3D10_X_HARDWARE_OPTIONS, D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS),
  Q(D3D11_OPTIONS, D3D11_FEATURE_DATA_D3D11_OPTIONS),
  Q(ARCHITECTURE_INFO, D3D11_FEATURE_DATA_ARCHITECTURE_INFO),
  Q(D3D9_OPTIONS, D3D11_FEATURE_DATA_D3D9_OPTIONS),
  Q(SHADER_MIN_PRECISION_SUPPORT, D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT),
  Q(D3D9_SHADOW_SUPPORT, D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT),
  Q(D3D11_OPTIONS1, D3D11_FEATURE_DATA_D3D11_OPTIONS1),
  Q(D3D9_SIMPLE_INSTANCING_SUPPORT, D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT),
  Q(MARKER_SUPPORT, D3D11_FEATURE_DATA_MARKER_SUPPORT),
  Q(D3D9_OPTIONS1, D3D11_FEATURE_DATA_D3D9_OPTIONS1),
  Q(D3D11_OPTIONS2, D3D11_FEATURE_DATA_D3D11_OPTIONS2),
  Q(D3D11_OPTIONS3, D3D11_FEATURE_DATA_D3D11_OPTIONS3),
  Q(GPU_VIRTUAL_ADDRESS_SUPPORT, D3D11_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT),
  Q(D3D11_OPTIONS4, D3D11_FEATURE_DATA_D3D11_OPTIONS4),
  Q(SHADER_CACHE, D3D11_FEATURE_DATA_SHADER_CACHE),
  Q(D3D11_OPTIONS5, D3D11_FEATURE_DATA_D3D11_OPTIONS5),
};
#undef Q

constexpr UINT kSampleCounts[kSampleCountSlots] = {1, 2, 4, 8, 16, 32};

}  // namespace

const FeatureEntry* CapsSnapshot::feature(D3D11_FEATURE which) const {
  for (const FeatureEntry& entry : features)
    if (entry.feature == which) return &entry;
  return nullptr;
}

const FormatEntry* CapsSnapshot::format(DXGI_FORMAT which) const {
  for (const FormatEntry& entry : formats)
    if (entry.format == which) return &entry;
  return nullptr;
}

BackendStatus collectCaps(ID3D11Device* device, const std::vector<DXGI_FORMAT>& formats, CapsSnapshot& out) {
  out = CapsSnapshot{};
  out.featureLevel = device->GetFeatureLevel();
  out.creationFlags = device->GetCreationFlags();

  for (const FeatureQuery& query : kFeatures) {
    FeatureEntry entry;
    entry.feature = query.feature;
    entry.data.assign(query.size, 0);
    entry.hr = device->CheckFeatureSupport(query.feature, entry.data.data(), UINT(query.size));
    if (FAILED(entry.hr)) entry.data.clear();
    out.features.push_back(std::move(entry));
  }
  if (FAILED(out.features.front().hr))
    return BackendStatus::fail(BackendError::CapsQuery, out.features.front().hr,
                               "CheckFeatureSupport(THREADING) failed: the device is unusable");

  out.formats.reserve(formats.size());
  for (DXGI_FORMAT format : formats) {
    FormatEntry entry;
    entry.format = format;
    entry.supportHr = device->CheckFormatSupport(format, &entry.support);
    if (FAILED(entry.supportHr)) entry.support = 0;
    D3D11_FEATURE_DATA_FORMAT_SUPPORT2 support2{format, 0};
    entry.support2Hr = device->CheckFeatureSupport(D3D11_FEATURE_FORMAT_SUPPORT2, &support2, sizeof(support2));
    if (SUCCEEDED(entry.support2Hr))
      entry.support2 = support2.OutFormatSupport2;
    for (uint32_t slot = 0; slot < kSampleCountSlots; slot++) {
      UINT levels = 0;
      if (FAILED(device->CheckMultisampleQualityLevels(format, kSampleCounts[slot], &levels))) levels = 0;
      entry.qualityLevels[slot] = levels;
    }
    out.formats.push_back(entry);
  }
  return {};
}

}  // namespace npt::backends
