// SPDX-License-Identifier: MIT
#pragma once

// Setters that would bring a context to the default state it is already in are
// dropped. A context is at the default state when it is created, a deferred context
// again once its recording was finished into a command list (the target's
// FinishCommandList(FALSE) starts the next recording from the default state), and the
// immediate context once it executed a command list (ExecuteCommandList(FALSE) leaves
// the default state behind). The runtime clears a context's state through every setter
// at exactly those moments (about 45 calls per clear, triton/runtime's ClearState), and
// every one of them would otherwise become a command on the wire and on the host.
// Any setter that binds something else ends the default state; calls that bind nothing
// new (draws, copies, maps) leave it. Shaders with interfaces are never filtered (their
// class instances are bound with them).

#include "triton/ddi/ddi.h"

namespace triton::driver {

void filterDefaultStateSetters(ddi::D3D11DDI_DEVICEFUNCS& table);
void filterDefaultStateSetters(ddi::D3D11_1DDI_DEVICEFUNCS& table);

}  // namespace triton::driver
