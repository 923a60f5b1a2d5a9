// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "npt/protocol/host_info.h"

// What the host's device can do, answered locally: CheckFormatSupport,
// CheckMultisampleQualityLevels, CheckFeatureSupport, the feature level a device
// reaches and the creation flags it accepts (design.md decision 3: one snapshot per
// connection, no round trip per query).
//
// The snapshot is the host-info blob of QueryHostInfo (contract 2,
// npt/protocol/host_info.h), parsed once per connection by the Runtime. When the
// host does not answer QueryHostInfo the caps are a conservative built-in
// description of a feature level 11.0 device (defaults()) and the log says so.
namespace npt::guest {

class HostCaps {
public:
  static HostCaps defaults();
  // Parses a QueryHostInfo blob; false (caps unchanged) when it is malformed.
  bool load(const uint8_t* blob, size_t size);

  const protocol::HostInfo& info() const { return m_info; }
  bool fromHost() const { return m_fromHost; }
  D3D_FEATURE_LEVEL maxFeatureLevel() const { return m_info.featureLevel; }
  UINT supportedCreationFlags() const { return m_info.creationFlags; }

  HRESULT checkFormatSupport(DXGI_FORMAT format, UINT* support) const;
  HRESULT checkMultisampleQualityLevels(DXGI_FORMAT format, UINT sampleCount, UINT* levels) const;
  HRESULT checkFeatureSupport(D3D11_FEATURE feature, void* data, UINT size) const;
  // Clears what the host offers but the guest runtime does not remote (tiled resources,
  // CPU-mapped DEFAULT textures) from a feature's data.
  static void maskUnremoted(D3D11_FEATURE feature, void* data);

private:
  protocol::HostInfo m_info;
  bool m_fromHost = false;
};

}
