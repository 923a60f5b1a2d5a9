// SPDX-License-Identifier: MIT
#pragma once

#include "host_caps.h"
#include "npt/validation/check.h"
#include "npt/validation/limits.h"
#include "npt/validation/resource.h"

// Windows' argument checks of creations (rules/, the library the host validates with),
// answered at the call: a creation they refuse returns the rule's HRESULT, creates no object
// and records nothing, so host and guest never disagree about whether an object exists.
// Device-dependent answers (format support, quality levels) come from the host's caps
// snapshot the guest already answers CheckFormatSupport with.
namespace npt::guest {

class HostFormatCaps final : public validation::FormatCaps {
public:
  explicit HostFormatCaps(const HostCaps& caps) : m_caps(caps) {}
  UINT formatSupport(DXGI_FORMAT format) const override;
  UINT multisampleQualityLevels(DXGI_FORMAT format, UINT sampleCount) const override;

private:
  const HostCaps& m_caps;
};

// The limits of a device created at `level` (11.1 rules only from 11.1 on). `formatCaps`
// must outlive the result.
validation::DeviceLimits deviceLimits(const HostCaps& caps, D3D_FEATURE_LEVEL level, const HostFormatCaps& formatCaps);

// S_OK when the check passed; otherwise the rule's HRESULT (E_INVALIDARG for every creation
// rule), logged at debug with the rule's stable code.
HRESULT answerOf(const validation::Check& check, const char* method);

// Initial data of a creation: present for every subresource, none for multisampled
// resources. The application's memory is as large as its pitches say (as on Windows, where
// nobody can check it); the host checks what actually arrives.
validation::Check checkInitialData(const validation::ResourceShape& shape, const D3D11_SUBRESOURCE_DATA* data);

// A view's desc (NULL: the default view) against its resource, as the host checks the desc
// it receives; the 11.3 descs' plane slices against the resource's planes.
validation::Check checkView(const validation::ResourceShape& resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1* desc,
                            const validation::DeviceLimits& limits);
validation::Check checkView(const validation::ResourceShape& resource, const D3D11_RENDER_TARGET_VIEW_DESC1* desc,
                            const validation::DeviceLimits& limits);
validation::Check checkView(const validation::ResourceShape& resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* desc,
                            const validation::DeviceLimits& limits);
validation::Check checkView(const validation::ResourceShape& resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC1* desc,
                            const validation::DeviceLimits& limits);

// The shape the rules check views against, from a resource of this runtime; false for
// anything else.
bool shapeOfResource(ID3D11Resource* resource, validation::ResourceShape* shape);

}
