// SPDX-License-Identifier: MIT
#pragma once

// DDI -> API value translation where the two differ (most enums are value-equal and
// are cast where they are used; translate_test checks the equalities Triton relies on).

#include <d3d11_1.h>

#include "triton/ddi/ddi.h"

namespace triton::driver {

UINT apiBindFlags(UINT ddiBindFlags);
UINT apiCpuAccessFlags(UINT ddiMapFlags);
// Misc flags; a TEXTURECUBE resource dimension adds D3D11_RESOURCE_MISC_TEXTURECUBE.
UINT apiMiscFlags(UINT ddiMiscFlags, triton::ddi::D3D10DDIRESOURCE_TYPE dimension);
// CheckFormatSupport: the DDI reports only the optional capabilities, in its own bits.
UINT ddiFormatSupport(UINT apiSupport, UINT apiSupport2);
// D3D10DDI_QUERY -> D3D11_QUERY (false for counters and unknown values).
bool apiQuery(triton::ddi::D3D10DDI_QUERY query, D3D11_QUERY* out);
// The error the runtime gets for a failed target call: a lost target device (host
// loss, reset, hang) is D3DDDIERR_DEVICEREMOVED, the one error every DDI entry may
// report; anything else passes through.
HRESULT runtimeError(HRESULT targetError);

}  // namespace triton::driver
