// SPDX-License-Identifier: MIT
#pragma once

// The DXGI base-function tables of the WDDM 2.x interfaces. The device-table code fills
// the DXGI table its (Interface, Version) pair selects (ddi::dxgiTableFor, the WDK's
// IS_DXGI1_x_BASE_FUNCTIONS): for the WDDM 2.0 interface the DXGI 1.4 table
// (D3D10DDIARG_CREATEDEVICE::DXGIBaseDDI.pDXGIDDIBaseFunctions5), for WDDM 2.1 the 1.5
// table, for WDDM 2.2 the 1.6.1 table, each filled here. Every member gets an entry
// except the two reserved ones; the statuses are in entry_status.cpp.

#include "triton/ddi/ddi.h"

namespace triton::driver {

// The DXGI 1.3 table's entries (Present, Present1, Blt/Blt1, identity rotation, ...)
// and WDDM 2.0's three: TrimResidencySet (nothing to trim: Triton makes no allocation
// resident), CheckMultiplaneOverlayColorSpaceSupport and PresentMultiplaneOverlay1 (no
// overlay planes: E_NOTIMPL).
void fillDxgi1_4Functions(ddi::DXGI1_4_DDI_BASE_FUNCTIONS& table);

// WDDM 2.1's table (DXGIBaseDDI.pDXGIDDIBaseFunctions6): the 1.4 entries with
// OfferResources1 in OfferResources' place and ReclaimResources1 appended (offered
// contents are always kept: every reclaim result is D3DDDI_RECLAIM_RESULT_OK).
void fillDxgi1_5Functions(ddi::DXGI1_5_DDI_BASE_FUNCTIONS& table);

// WDDM 2.2's table (DXGIBaseDDI.pDXGIDDIBaseFunctions6_1): the 1.5 entries with
// Present1 taking a rotation hint (the frame is shown as it is: the host presenter has
// no scanout to rotate against) and PresentMultiplaneOverlay1 its 1.6.1 arguments.
void fillDxgi1_6_1Functions(ddi::DXGI1_6_1_DDI_BASE_FUNCTIONS& table);

}  // namespace triton::driver
