// SPDX-License-Identifier: MIT
#include "creation_rules.h"

#include <cstdint>
#include <vector>

#include "log.h"
#include "npt/validation/subresource.h"
#include "npt/validation/views.h"
#include "views.h"

namespace npt::guest {

UINT HostFormatCaps::formatSupport(DXGI_FORMAT format) const {
  UINT support = 0;
  return SUCCEEDED(m_caps.checkFormatSupport(format, &support)) ? support : 0;
}

UINT HostFormatCaps::multisampleQualityLevels(DXGI_FORMAT format, UINT sampleCount) const {
  UINT levels = 0;
  return SUCCEEDED(m_caps.checkMultisampleQualityLevels(format, sampleCount, &levels)) ? levels : 0;
}

validation::DeviceLimits deviceLimits(const HostCaps& caps, D3D_FEATURE_LEVEL level, const HostFormatCaps& formatCaps) {
  validation::DeviceLimits limits;
  limits.featureLevel = level;
  limits.uavSlotCount = level >= D3D_FEATURE_LEVEL_11_1 ? D3D11_1_UAV_SLOT_COUNT : D3D11_PS_CS_UAV_REGISTER_COUNT;
  D3D11_FEATURE_DATA_D3D11_OPTIONS options = {};
  const bool known = SUCCEEDED(caps.checkFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS, &options, sizeof(options)));
  limits.mapNoOverwriteOnDynamicConstantBuffer = known && options.MapNoOverwriteOnDynamicConstantBuffer;
  limits.mapNoOverwriteOnDynamicBufferSrv = known && options.MapNoOverwriteOnDynamicBufferSRV;
  limits.caps = &formatCaps;
  return limits;
}

HRESULT answerOf(const validation::Check& check, const char* method) {
  if (check.passed())
    return S_OK;
  NPT_DEBUG("%s: %s", method, check.describe().c_str());
  // Outcomes other than Fail belong to void methods and to data a caller cannot send; a
  // creation refused by them still fails at the call.
  return check.outcome() == validation::Outcome::Fail && FAILED(check.hr()) ? check.hr() : E_INVALIDARG;
}

validation::Check checkInitialData(const validation::ResourceShape& shape, const D3D11_SUBRESOURCE_DATA* data) {
  if (!data)
    return validation::Check::pass();
  std::vector<validation::SubresourceData> entries(shape.subresourceCount());
  for (size_t i = 0; i < entries.size(); i++) {
    entries[i].present = data[i].pSysMem != nullptr;
    entries[i].rowPitch = data[i].SysMemPitch;
    entries[i].slicePitch = data[i].SysMemSlicePitch;
    entries[i].size = UINT64_MAX;
  }
  return validation::validateInitialData(shape, entries.data(), entries.size());
}

namespace {

// The plane slice of a 2D arm of an 11.3 view desc (0 for the other arms).
template<typename Desc1, typename Dimension>
UINT planeSliceOf(const Desc1& desc, Dimension texture2D, Dimension texture2DArray) {
  if (desc.ViewDimension == texture2D)
    return desc.Texture2D.PlaneSlice;
  if (desc.ViewDimension == texture2DArray)
    return desc.Texture2DArray.PlaneSlice;
  return 0;
}

template<typename Desc, typename Desc1, typename Validate>
validation::Check checkViewVersion1(const validation::ResourceShape& resource, const Desc1* desc, UINT plane,
                                    Validate&& validate) {
  if (!desc)
    return validate(static_cast<const Desc*>(nullptr));
  const Desc plain = convertViewDesc<Desc>(*desc);
  validation::Check check = validate(&plain);
  if (check.passed() && plane)
    return validation::validateViewPlane(resource, desc->Format, plane);
  return check;
}

}

validation::Check checkView(const validation::ResourceShape& resource, const D3D11_SHADER_RESOURCE_VIEW_DESC1* desc,
                            const validation::DeviceLimits& limits) {
  const UINT plane = desc ? planeSliceOf(*desc, D3D11_SRV_DIMENSION_TEXTURE2D, D3D11_SRV_DIMENSION_TEXTURE2DARRAY) : 0;
  return checkViewVersion1<D3D11_SHADER_RESOURCE_VIEW_DESC>(resource, desc, plane,
      [&](const D3D11_SHADER_RESOURCE_VIEW_DESC* plain) { return validation::validateShaderResourceView(resource, plain, limits); });
}

validation::Check checkView(const validation::ResourceShape& resource, const D3D11_RENDER_TARGET_VIEW_DESC1* desc,
                            const validation::DeviceLimits& limits) {
  const UINT plane = desc ? planeSliceOf(*desc, D3D11_RTV_DIMENSION_TEXTURE2D, D3D11_RTV_DIMENSION_TEXTURE2DARRAY) : 0;
  return checkViewVersion1<D3D11_RENDER_TARGET_VIEW_DESC>(resource, desc, plane,
      [&](const D3D11_RENDER_TARGET_VIEW_DESC* plain) { return validation::validateRenderTargetView(resource, plain, limits); });
}

validation::Check checkView(const validation::ResourceShape& resource, const D3D11_DEPTH_STENCIL_VIEW_DESC* desc,
                            const validation::DeviceLimits& limits) {
  return validation::validateDepthStencilView(resource, desc, limits);
}

validation::Check checkView(const validation::ResourceShape& resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC1* desc,
                            const validation::DeviceLimits& limits) {
  const UINT plane = desc ? planeSliceOf(*desc, D3D11_UAV_DIMENSION_TEXTURE2D, D3D11_UAV_DIMENSION_TEXTURE2DARRAY) : 0;
  return checkViewVersion1<D3D11_UNORDERED_ACCESS_VIEW_DESC>(resource, desc, plane,
      [&](const D3D11_UNORDERED_ACCESS_VIEW_DESC* plain) { return validation::validateUnorderedAccessView(resource, plain, limits); });
}

namespace {

template<typename Interface, typename Desc>
bool shapeThrough(ID3D11Resource* resource, validation::ResourceShape* shape) {
  Interface* typed = nullptr;
  if (FAILED(resource->QueryInterface(__uuidof(Interface), reinterpret_cast<void**>(&typed))) || !typed)
    return false;
  Desc desc = {};
  typed->GetDesc(&desc);
  typed->Release();
  *shape = validation::shapeOf(desc);
  return true;
}

}

bool shapeOfResource(ID3D11Resource* resource, validation::ResourceShape* shape) {
  if (!resource)
    return false;
  D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
  resource->GetType(&dimension);
  switch (dimension) {
    case D3D11_RESOURCE_DIMENSION_BUFFER:
      return shapeThrough<ID3D11Buffer, D3D11_BUFFER_DESC>(resource, shape);
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
      return shapeThrough<ID3D11Texture1D, D3D11_TEXTURE1D_DESC>(resource, shape);
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
      return shapeThrough<ID3D11Texture2D, D3D11_TEXTURE2D_DESC>(resource, shape);
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
      return shapeThrough<ID3D11Texture3D, D3D11_TEXTURE3D_DESC>(resource, shape);
    default:
      return false;
  }
}

}
