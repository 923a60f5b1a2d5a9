// SPDX-License-Identifier: MIT
// Device limits derived from a caps snapshot drive the device-dependent rules.

#include "test_helpers.h"

#include <cstring>

#include "npt/backends/caps_limits.h"
#include "npt/validation/context_calls.h"
#include "npt/validation/resource.h"

using namespace npt::validation;
namespace be = npt::backends;
using be::SnapshotFormatCaps;
using be::limitsFromSnapshot;

namespace {

be::CapsSnapshot snapshot(D3D_FEATURE_LEVEL level, bool noOverwriteCb) {
  be::CapsSnapshot caps;
  caps.featureLevel = level;
  be::FormatEntry rgba;
  rgba.format = DXGI_FORMAT_R8G8B8A8_UNORM;
  rgba.supportHr = S_OK;
  rgba.support = D3D11_FORMAT_SUPPORT_TEXTURE2D | D3D11_FORMAT_SUPPORT_RENDER_TARGET;
  rgba.qualityLevels[0] = 1;   // 1 sample
  rgba.qualityLevels[2] = 3;   // 4 samples: qualities 0..2
  caps.formats.push_back(rgba);
  be::FormatEntry noRender;
  noRender.format = DXGI_FORMAT_R32G32B32_FLOAT;
  noRender.support = D3D11_FORMAT_SUPPORT_TEXTURE2D;
  caps.formats.push_back(noRender);
  be::FeatureEntry options;
  options.feature = D3D11_FEATURE_D3D11_OPTIONS;
  options.hr = S_OK;
  D3D11_FEATURE_DATA_D3D11_OPTIONS data{};
  data.MapNoOverwriteOnDynamicConstantBuffer = noOverwriteCb;
  options.data.resize(sizeof(data));
  std::memcpy(options.data.data(), &data, sizeof(data));
  caps.features.push_back(options);
  return caps;
}

D3D11_TEXTURE2D_DESC rt(DXGI_FORMAT format, UINT samples, UINT quality) {
  D3D11_TEXTURE2D_DESC desc{};
  desc.Width = desc.Height = 64;
  desc.MipLevels = desc.ArraySize = 1;
  desc.Format = format;
  desc.SampleDesc = {samples, quality};
  desc.BindFlags = D3D11_BIND_RENDER_TARGET;
  return desc;
}

TEST(CapsLimits, MultisampleQualityFromSnapshot) {
  auto caps = snapshot(D3D_FEATURE_LEVEL_11_1, true);
  SnapshotFormatCaps formatCaps(caps);
  DeviceLimits limits = limitsFromSnapshot(caps, formatCaps);
  EXPECT_EQ(formatCaps.multisampleQualityLevels(DXGI_FORMAT_R8G8B8A8_UNORM, 4), 3u);
  EXPECT_EQ(formatCaps.multisampleQualityLevels(DXGI_FORMAT_R8G8B8A8_UNORM, 3), 0u);
  EXPECT_PASS(validateTexture2DDesc(rt(DXGI_FORMAT_R8G8B8A8_UNORM, 4, 2), false, limits));
  EXPECT_REJECT(validateTexture2DDesc(rt(DXGI_FORMAT_R8G8B8A8_UNORM, 4, 3), false, limits), TextureSampleDesc, Fail);
  EXPECT_REJECT(validateTexture2DDesc(rt(DXGI_FORMAT_R8G8B8A8_UNORM, 8, 0), false, limits), TextureSampleDesc, Fail);
  EXPECT_REJECT(validateTexture2DDesc(rt(DXGI_FORMAT_R32G32B32_FLOAT, 1, 0), false, limits), TextureFormatUnsupported,
                Fail);
  // A format missing from the snapshot is unsupported.
  EXPECT_REJECT(validateTexture2DDesc(rt(DXGI_FORMAT_R16_FLOAT, 1, 0), false, limits), TextureFormatUnsupported, Fail);
}

TEST(CapsLimits, FeatureLevelAndOptions) {
  auto caps11_0 = snapshot(D3D_FEATURE_LEVEL_11_0, false);
  SnapshotFormatCaps formatCaps(caps11_0);
  DeviceLimits limits = limitsFromSnapshot(caps11_0, formatCaps);
  EXPECT_EQ(limits.uavSlotCount, 8u);
  EXPECT_REJECT(validateSlotRange(SlotKind::UnorderedAccess, 0, 9, limits), UavSlotRange, Ignore);
  D3D11_BUFFER_DESC cb{256, D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0};
  EXPECT_REJECT(validateMap(shapeOf(cb), 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, false, limits), MapAccess, Fail);

  auto caps11_1 = snapshot(D3D_FEATURE_LEVEL_11_1, true);
  SnapshotFormatCaps formatCaps11_1(caps11_1);
  DeviceLimits limits11_1 = limitsFromSnapshot(caps11_1, formatCaps11_1);
  EXPECT_EQ(limits11_1.uavSlotCount, 64u);
  EXPECT_PASS(validateMap(shapeOf(cb), 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, false, limits11_1));
}

}  // namespace
