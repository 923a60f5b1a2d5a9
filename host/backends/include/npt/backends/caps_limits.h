#pragma once

// DeviceLimits filled from a backend's caps snapshot: the device-dependent half of the
// validation rules (format support, MSAA quality levels, 11.0 vs 11.1 limits).

#include "npt/backends/caps_snapshot.h"
#include "npt/validation/limits.h"

namespace npt::validation {

class SnapshotFormatCaps final : public FormatCaps {
public:
  explicit SnapshotFormatCaps(const backends::CapsSnapshot& caps) : m_caps(caps) {}

  UINT formatSupport(DXGI_FORMAT format) const override;
  UINT multisampleQualityLevels(DXGI_FORMAT format, UINT sampleCount) const override;

private:
  const backends::CapsSnapshot& m_caps;
};

// `formatCaps` must outlive the returned limits (they point at it).
DeviceLimits limitsFromSnapshot(const backends::CapsSnapshot& caps, const SnapshotFormatCaps& formatCaps);

}  // namespace npt::validation
