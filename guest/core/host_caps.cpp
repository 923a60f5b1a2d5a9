// SPDX-License-Identifier: MIT
#include "host_caps.h"

#include <cstring>

#include "log.h"

namespace npt::guest {

namespace {

// The structure size CheckFeatureSupport requires for each feature (Windows returns
// E_INVALIDARG for any other size).
UINT featureDataSize(D3D11_FEATURE feature) {
  switch (feature) {
    case D3D11_FEATURE_THREADING:                      return sizeof(D3D11_FEATURE_DATA_THREADING);
    case D3D11_FEATURE_DOUBLES:                        return sizeof(D3D11_FEATURE_DATA_DOUBLES);
    case D3D11_FEATURE_FORMAT_SUPPORT:                 return sizeof(D3D11_FEATURE_DATA_FORMAT_SUPPORT);
    case D3D11_FEATURE_FORMAT_SUPPORT2:                return sizeof(D3D11_FEATURE_DATA_FORMAT_SUPPORT2);
    case D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS:       return sizeof(D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS);
    case D3D11_FEATURE_D3D11_OPTIONS:                  return sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS);
    case D3D11_FEATURE_ARCHITECTURE_INFO:              return sizeof(D3D11_FEATURE_DATA_ARCHITECTURE_INFO);
    case D3D11_FEATURE_D3D9_OPTIONS:                   return sizeof(D3D11_FEATURE_DATA_D3D9_OPTIONS);
    case D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT:   return sizeof(D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT);
    case D3D11_FEATURE_D3D9_SHADOW_SUPPORT:            return sizeof(D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT);
    case D3D11_FEATURE_D3D11_OPTIONS1:                 return sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS1);
    case D3D11_FEATURE_D3D9_SIMPLE_INSTANCING_SUPPORT: return sizeof(D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT);
    case D3D11_FEATURE_MARKER_SUPPORT:                 return sizeof(D3D11_FEATURE_DATA_MARKER_SUPPORT);
    case D3D11_FEATURE_D3D9_OPTIONS1:                  return sizeof(D3D11_FEATURE_DATA_D3D9_OPTIONS1);
    case D3D11_FEATURE_D3D11_OPTIONS2:                 return sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS2);
    case D3D11_FEATURE_D3D11_OPTIONS3:                 return sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS3);
    case D3D11_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT:    return sizeof(D3D11_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT);
    case D3D11_FEATURE_D3D11_OPTIONS4:                 return sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS4);
    case D3D11_FEATURE_SHADER_CACHE:                   return sizeof(D3D11_FEATURE_DATA_SHADER_CACHE);
    case D3D11_FEATURE_D3D11_OPTIONS5:                 return sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS5);
    default:                                           return 0;
  }
}

template<typename T>
protocol::HostFeature feature(D3D11_FEATURE id, const T& value) {
  protocol::HostFeature f;
  f.feature = id;
  f.hr = S_OK;
  f.size = sizeof(T);
  std::memcpy(f.data.data(), &value, sizeof(T));
  return f;
}

}

HostCaps HostCaps::defaults() {
  // A plain feature level 11.0 device: what every host backend reaches. Used only
  // when the host does not answer QueryHostInfo.
  HostCaps caps;
  protocol::HostInfo& info = caps.m_info;
  info.featureLevel = D3D_FEATURE_LEVEL_11_0;
  info.creationFlags = D3D11_CREATE_DEVICE_SINGLETHREADED | D3D11_CREATE_DEVICE_DEBUG |
                       D3D11_CREATE_DEVICE_BGRA_SUPPORT | D3D11_CREATE_DEVICE_PREVENT_INTERNAL_THREADING_OPTIMIZATIONS;
  D3D11_FEATURE_DATA_THREADING threading = { TRUE, FALSE };
  info.features.push_back(feature(D3D11_FEATURE_THREADING, threading));
  D3D11_FEATURE_DATA_DOUBLES doubles = { FALSE };
  info.features.push_back(feature(D3D11_FEATURE_DOUBLES, doubles));
  D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS hw = { TRUE };
  info.features.push_back(feature(D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS, hw));
  D3D11_FEATURE_DATA_D3D11_OPTIONS options = {};
  info.features.push_back(feature(D3D11_FEATURE_D3D11_OPTIONS, options));
  D3D11_FEATURE_DATA_ARCHITECTURE_INFO arch = { FALSE };
  info.features.push_back(feature(D3D11_FEATURE_ARCHITECTURE_INFO, arch));
  D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT precision = {};
  info.features.push_back(feature(D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT, precision));

  const UINT sampled = D3D11_FORMAT_SUPPORT_TEXTURE1D | D3D11_FORMAT_SUPPORT_TEXTURE2D |
                       D3D11_FORMAT_SUPPORT_TEXTURE3D | D3D11_FORMAT_SUPPORT_TEXTURECUBE |
                       D3D11_FORMAT_SUPPORT_SHADER_LOAD | D3D11_FORMAT_SUPPORT_SHADER_SAMPLE |
                       D3D11_FORMAT_SUPPORT_MIP | D3D11_FORMAT_SUPPORT_CPU_LOCKABLE;
  const UINT renderable = sampled | D3D11_FORMAT_SUPPORT_RENDER_TARGET | D3D11_FORMAT_SUPPORT_BLENDABLE |
                          D3D11_FORMAT_SUPPORT_MIP_AUTOGEN | D3D11_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET |
                          D3D11_FORMAT_SUPPORT_MULTISAMPLE_RESOLVE | D3D11_FORMAT_SUPPORT_MULTISAMPLE_LOAD;
  const UINT bufferable = D3D11_FORMAT_SUPPORT_BUFFER | D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER;
  struct { DXGI_FORMAT format; UINT support; } table[] = {
    { DXGI_FORMAT_R32G32B32A32_FLOAT, renderable | bufferable },
    { DXGI_FORMAT_R32G32B32_FLOAT, sampled | bufferable },
    { DXGI_FORMAT_R16G16B16A16_FLOAT, renderable | bufferable | D3D11_FORMAT_SUPPORT_DISPLAY },
    { DXGI_FORMAT_R32G32_FLOAT, renderable | bufferable },
    { DXGI_FORMAT_R8G8B8A8_UNORM, renderable | bufferable | D3D11_FORMAT_SUPPORT_DISPLAY },
    { DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, renderable | D3D11_FORMAT_SUPPORT_DISPLAY },
    { DXGI_FORMAT_B8G8R8A8_UNORM, renderable | D3D11_FORMAT_SUPPORT_DISPLAY },
    { DXGI_FORMAT_B8G8R8A8_UNORM_SRGB, renderable | D3D11_FORMAT_SUPPORT_DISPLAY },
    { DXGI_FORMAT_R32_FLOAT, renderable | bufferable },
    { DXGI_FORMAT_R32_UINT, bufferable | D3D11_FORMAT_SUPPORT_IA_INDEX_BUFFER | D3D11_FORMAT_SUPPORT_TEXTURE2D },
    { DXGI_FORMAT_R16_UINT, bufferable | D3D11_FORMAT_SUPPORT_IA_INDEX_BUFFER | D3D11_FORMAT_SUPPORT_TEXTURE2D },
    { DXGI_FORMAT_D32_FLOAT, D3D11_FORMAT_SUPPORT_TEXTURE2D | D3D11_FORMAT_SUPPORT_DEPTH_STENCIL | D3D11_FORMAT_SUPPORT_MIP },
    { DXGI_FORMAT_D24_UNORM_S8_UINT, D3D11_FORMAT_SUPPORT_TEXTURE2D | D3D11_FORMAT_SUPPORT_DEPTH_STENCIL | D3D11_FORMAT_SUPPORT_MIP },
  };
  for (const auto& entry : table) {
    protocol::HostFormat f;
    f.format = entry.format;
    f.supportHr = S_OK;
    f.support = entry.support;
    f.support2Hr = S_OK;
    f.qualityLevels[0] = 1;
    if (entry.support & D3D11_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET)
      f.qualityLevels[1] = f.qualityLevels[2] = 1;
    info.formats.push_back(f);
  }
  return caps;
}

bool HostCaps::load(const uint8_t* blob, size_t size) {
  protocol::HostInfo parsed;
  protocol::ErrorCode e = protocol::parseHostInfo(blob, size, &parsed);
  if (e != protocol::ErrorCode::Ok) {
    NPT_ERROR("the host's description is malformed (%s); using built-in defaults", protocol::errorName(e));
    return false;
  }
  m_info = std::move(parsed);
  m_fromHost = true;
  return true;
}

HRESULT HostCaps::checkFormatSupport(DXGI_FORMAT format, UINT* support) const {
  if (!support)
    return E_INVALIDARG;
  const protocol::HostFormat* f = m_info.findFormat(format);
  if (!f || FAILED(f->supportHr)) {
    *support = 0;
    return E_FAIL;
  }
  *support = f->support;
  return f->supportHr;
}

HRESULT HostCaps::checkMultisampleQualityLevels(DXGI_FORMAT format, UINT sampleCount, UINT* levels) const {
  // Wine's d3d11 tests: NULL out is E_INVALIDARG; 0 samples or more than 32 is E_FAIL.
  if (!levels)
    return E_INVALIDARG;
  *levels = 0;
  if (!sampleCount || sampleCount > D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT)
    return E_FAIL;
  const protocol::HostFormat* f = m_info.findFormat(format);
  if (!f)
    return format == DXGI_FORMAT_UNKNOWN && sampleCount == 1 ? (*levels = 1, S_OK) : S_OK;
  for (size_t i = 0; i < protocol::kHostInfoSampleCounts; i++)
    if (protocol::kHostInfoSampleCountValues[i] == sampleCount)
      *levels = f->qualityLevels[i];
  return S_OK;
}

HRESULT HostCaps::checkFeatureSupport(D3D11_FEATURE feature, void* data, UINT size) const {
  UINT expected = featureDataSize(feature);
  if (!expected || size != expected || !data)
    return E_INVALIDARG;
  if (feature == D3D11_FEATURE_FORMAT_SUPPORT || feature == D3D11_FEATURE_FORMAT_SUPPORT2) {
    // In/out structures: the format comes in, the bits go out.
    auto* in = static_cast<D3D11_FEATURE_DATA_FORMAT_SUPPORT*>(data);
    const protocol::HostFormat* f = m_info.findFormat(in->InFormat);
    bool second = feature == D3D11_FEATURE_FORMAT_SUPPORT2;
    if (!f || FAILED(second ? f->support2Hr : f->supportHr)) {
      in->OutFormatSupport = 0;
      return E_FAIL;
    }
    in->OutFormatSupport = second ? f->support2 : f->support;
    return S_OK;
  }
  const protocol::HostFeature* f = m_info.findFeature(feature);
  if (!f) {
    // Not described by the host: every field zero ("not supported") is what Windows
    // reports for optional capabilities an older driver lacks.
    std::memset(data, 0, size);
    return S_OK;
  }
  if (FAILED(f->hr))
    return f->hr;
  std::memset(data, 0, size);
  std::memcpy(data, f->data.data(), f->size < size ? f->size : size);
  maskUnremoted(feature, data);
  return S_OK;
}

void HostCaps::maskUnremoted(D3D11_FEATURE feature, void* data) {
  // Capabilities the guest runtime does not remote, whatever the backend offers:
  // CPU access to DEFAULT buffers and textures (creation refuses CPU flags on DEFAULT resources,
  // so Write/ReadFromSubresource never have a mapped texture) and tiled resources.
  switch (feature) {
    case D3D11_FEATURE_D3D11_OPTIONS1: {
      auto* options = static_cast<D3D11_FEATURE_DATA_D3D11_OPTIONS1*>(data);
      options->TiledResourcesTier = D3D11_TILED_RESOURCES_NOT_SUPPORTED;
      options->MapOnDefaultBuffers = FALSE;
      break;
    }
    case D3D11_FEATURE_D3D11_OPTIONS2: {
      auto* options = static_cast<D3D11_FEATURE_DATA_D3D11_OPTIONS2*>(data);
      options->MapOnDefaultTextures = FALSE;
      options->TiledResourcesTier = D3D11_TILED_RESOURCES_NOT_SUPPORTED;
      break;
    }
    default:
      break;
  }
}

}
