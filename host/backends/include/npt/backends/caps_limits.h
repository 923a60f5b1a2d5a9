// SPDX-License-Identifier: MIT
#pragma once

// The rules' device-dependent half (format support, MSAA quality levels, 11.0 vs 11.1
// limits) answered from a backend's caps snapshot.

#include "npt/backends/caps_snapshot.h"
#include "npt/validation/limits.h"

namespace npt::backends {

class SnapshotFormatCaps final : public validation::FormatCaps {
public:
  explicit SnapshotFormatCaps(const CapsSnapshot& caps) : m_caps(caps) {}

  UINT formatSupport(DXGI_FORMAT format) const override;
  UINT multisampleQualityLevels(DXGI_FORMAT format, UINT sampleCount) const override;

private:
  const CapsSnapshot& m_caps;
};

// `formatCaps` must outlive the returned limits (they point at it).
validation::DeviceLimits limitsFromSnapshot(const CapsSnapshot& caps, const SnapshotFormatCaps& formatCaps);

}  // namespace npt::backends
