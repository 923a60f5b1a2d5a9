// SPDX-License-Identifier: MIT
#pragma once

// The harness's WDDM 2.0 adapters (wddm2_0.cpp): the 11.1 copy of a 2.0 table, with the
// retyped members adapted to the 11.1 types, for the harness's 11.1 helpers.

#include "triton/ddi/ddi.h"

namespace triton::harness {

// Fills `to` from the driver's 2.0 table `from` of the device or deferred context
// `handle` (`from` must live as long as the handle; forget it before it goes).
void adoptWddm2_0Table(ddi::D3D10DDI_HDEVICE handle, const ddi::D3DWDDM2_0DDI_DEVICEFUNCS& from,
                       ddi::D3D11_1DDI_DEVICEFUNCS& to);
void forgetWddm2_0Table(ddi::D3D10DDI_HDEVICE handle);

}  // namespace triton::harness
