// SPDX-License-Identifier: MIT
#include "dxgi_tables.h"

#include "entries.h"

namespace triton::driver {
namespace {

using namespace entry;

// The members every WDDM 2.x DXGI table has with one type, at one index (the
// table-order test checks the indices).
template <class Table>
void fillDxgi2Shared(Table& t) {
  t.pfnPresent = dxgiPresent;
  t.pfnGetGammaCaps = dxgiGetGammaCaps;
  t.pfnSetDisplayMode = dxgiSetDisplayMode;
  t.pfnSetResourcePriority = dxgiSetResourcePriority;
  t.pfnQueryResourceResidency = dxgiQueryResourceResidency;
  t.pfnRotateResourceIdentities = dxgiRotateResourceIdentities;
  t.pfnBlt = dxgiBlt;
  t.pfnResolveSharedResource = dxgiResolveSharedResource;
  t.pfnBlt1 = dxgiBlt1;
  t.pfnReclaimResources = dxgiReclaimResources;
  t.pfnGetMultiplaneOverlayCaps = dxgiGetMultiplaneOverlayCaps;
  t.pfnGetMultiplaneOverlayGroupCaps = dxgiGetMultiplaneOverlayGroupCaps;
  t.pfnReserved1 = nullptr;   // reserved: stays null, as in the 1.3 table
  t.pfnPresentMultiplaneOverlay = dxgiPresentMultiplaneOverlay;
  t.pfnReserved2 = nullptr;
  t.pfnCheckPresentDurationSupport = dxgiCheckPresentDurationSupport;
  t.pfnTrimResidencySet = dxgiTrimResidencySet;
  t.pfnCheckMultiplaneOverlayColorSpaceSupport = dxgiCheckMultiplaneOverlayColorSpaceSupport;
}

}  // namespace

void fillDxgi1_4Functions(ddi::DXGI1_4_DDI_BASE_FUNCTIONS& t) {
  fillDxgi2Shared(t);
  t.pfnOfferResources = dxgiOfferResources;
  t.pfnPresent1 = dxgiPresent1;
  t.pfnPresentMultiplaneOverlay1 = dxgiPresentMultiplaneOverlay1;
}

void fillDxgi1_5Functions(ddi::DXGI1_5_DDI_BASE_FUNCTIONS& t) {
  fillDxgi2Shared(t);
  t.pfnOfferResources1 = dxgiOfferResources1;
  t.pfnPresent1 = dxgiPresent1;
  t.pfnPresentMultiplaneOverlay1 = dxgiPresentMultiplaneOverlay1;
  t.pfnReclaimResources1 = dxgiReclaimResources1;
}

void fillDxgi1_6_1Functions(ddi::DXGI1_6_1_DDI_BASE_FUNCTIONS& t) {
  fillDxgi2Shared(t);
  t.pfnOfferResources1 = dxgiOfferResources1;
  t.pfnPresent1 = dxgiPresent1_6_1;
  t.pfnPresentMultiplaneOverlay1 = dxgiPresentMultiplaneOverlay1_6_1;
  t.pfnReclaimResources1 = dxgiReclaimResources1;
}

}  // namespace triton::driver
