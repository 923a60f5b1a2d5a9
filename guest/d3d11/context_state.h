// SPDX-License-Identifier: MIT
#pragma once

#include "context.h"

// ID3DDeviceContextState (ID3D11Device1::CreateDeviceContextState): a whole context
// state (every binding the getters answer) parked outside the immediate context.
// SwapDeviceContextState moves the context's state into the outgoing object and the
// incoming object's state into the context; the host only ever sees the effect: a
// ClearState followed by the incoming state's bindings, recorded like any setter
// (no wire object, no round trip). A new object holds the default state, as after
// ClearState. The emulated interface and feature level are kept for what they are
// asked about; D3D10 emulation changes nothing here (this runtime has no ID3D10Device).
namespace npt::guest {

class DeviceContextState final : public D3D11Child<ID3DDeviceContextState> {
public:
  DeviceContextState(Device* device, D3D_FEATURE_LEVEL level, REFIID emulatedInterface);

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** object) override;

  D3D_FEATURE_LEVEL featureLevel() const { return m_level; }
  const IID& emulatedInterface() const { return m_emulated; }
  // The parked state; the context swaps its own with it.
  ContextState& state() { return m_state; }

  // CreateDeviceContextState's checks and choice of feature level (the first one the
  // device supports); *level is written whenever the arguments are valid.
  static HRESULT validate(UINT flags, const D3D_FEATURE_LEVEL* levels, UINT levelCount, UINT sdkVersion,
                          REFIID emulatedInterface, D3D_FEATURE_LEVEL deviceLevel, D3D_FEATURE_LEVEL* level);

private:
  D3D_FEATURE_LEVEL m_level;
  IID m_emulated;
  ContextState m_state;
};

}
