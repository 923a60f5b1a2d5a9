// SPDX-License-Identifier: MIT
#pragma once

// The adapter Triton opens for the runtime: the runtime's callbacks and a probe
// device on the target, created on first need, that answers GetCaps,
// GetSupportedVersions and the pipeline levels devices may be created at.

#include <memory>
#include <mutex>

#include "target_device.h"
#include "triton/ddi/ddi.h"

namespace triton::driver {

class Adapter {
public:
  explicit Adapter(const triton::ddi::D3D10DDIARG_OPENADAPTER& args);
  ~Adapter();

  // The probe device, or nullptr if the target cannot create one.
  TargetDevice* probe();
  // Highest pipeline level a device can be created at (-1: none).
  int highestPipelineLevel();

private:
  std::mutex mutex_;
  bool probed_ = false;
  std::unique_ptr<TargetDevice> probe_;
};

inline Adapter* adapterOf(triton::ddi::D3D10DDI_HADAPTER handle) {
  return static_cast<Adapter*>(handle.pDrvPrivate);
}

// The kernel transport is selected and no device made the process's context yet: the
// probe cannot exist, so versions and pipeline levels are what the Neptune guest runtime
// offers (every interface Triton lists, level 11_1); a level the host lacks fails at CreateDevice.
bool awaitingKernelContext();

// Feature level of a D3D11DDI_3DPIPELINELEVEL (false for levels Triton does not serve).
bool featureLevelForPipelineLevel(UINT level, D3D_FEATURE_LEVEL* out);

}  // namespace triton::driver
