// SPDX-License-Identifier: MIT
// GetCaps: every D3D10_2DDICAPS_TYPE up to D3D11.1, answered from the target device's
// own feature data (the probe device of the adapter; the floor before the kernel
// transport's first device), the two WDDM 1.3 types, which
// report tiled resources and profile markers absent, and the WDDM 2.0 types, which
// report conservative rasterization, texture layouts and GPU virtual addresses absent.

#include <cstring>

#include "adapter.h"
#include "entries.h"
#include "log.h"

namespace triton::driver {

namespace ddi = triton::ddi;

namespace {

// Without a device (the kernel transport before its first device) every feature is
// absent: the floor any host reaches, which later answers only widen.
template <class Data>
bool feature(ID3D11Device* device, D3D11_FEATURE id, Data& data) {
  std::memset(&data, 0, sizeof(data));
  return device && SUCCEEDED(device->CheckFeatureSupport(id, &data, sizeof(data)));
}

template <class Out>
HRESULT answer(const ddi::D3D10_2DDIARG_GETCAPS& args, const Out& value) {
  if (!args.pData || args.DataSize < sizeof(Out))
    return E_INVALIDARG;
  std::memcpy(args.pData, &value, sizeof(Out));
  return S_OK;
}

}  // namespace

namespace entry {

HRESULT TRITON_APIENTRY getCaps(ddi::D3D10DDI_HADAPTER hAdapter, const ddi::D3D10_2DDIARG_GETCAPS* args) {
  Adapter* adapter = adapterOf(hAdapter);
  if (!adapter || !args)
    return E_INVALIDARG;
  // The kernel transport reaches the host only through a device's callbacks, and the
  // runtime asks for caps before its first CreateDevice (the pipeline level it may ask
  // for, threading): those are answered from the floor (feature() above, and the
  // pipeline levels the Neptune guest runtime guarantees), not refused.
  TargetDevice* target = adapter->probe();
  if (!target && !awaitingKernelContext())
    return E_FAIL;
  ID3D11Device* device = target ? target->device() : nullptr;

  switch (args->Type) {
    case ddi::D3D11DDICAPS_THREADING: {
      // Free-threaded creation is what the target promises. Driver command lists are
      // always offered: they are built on the target's deferred contexts, which every
      // D3D11 implementation has (emulated by its runtime where its driver lacks them).
      D3D11_FEATURE_DATA_THREADING threading;
      ddi::D3D11DDI_THREADING_CAPS caps{ddi::D3D11DDICAPS_COMMANDLISTS_BUILD_2};
      if (feature(device, D3D11_FEATURE_THREADING, threading) && threading.DriverConcurrentCreates)
        caps.Caps |= ddi::D3D11DDICAPS_FREETHREADED;
      return answer(*args, caps);
    }
    case ddi::D3D11DDICAPS_SHADER: {
      D3D11_FEATURE_DATA_DOUBLES doubles;
      D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS options;
      ddi::D3D11DDI_SHADER_CAPS caps{};
      if (feature(device, D3D11_FEATURE_DOUBLES, doubles) && doubles.DoublePrecisionFloatShaderOps)
        caps.Caps |= ddi::D3D11DDICAPS_SHADER_DOUBLES;
      if (feature(device, D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS, options) &&
          options.ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x)
        caps.Caps |= ddi::D3D11DDICAPS_SHADER_COMPUTE_PLUS_RAW_AND_STRUCTURED_BUFFERS_IN_SHADER_4_X;
      return answer(*args, caps);
    }
    case ddi::D3D11DDICAPS_3DPIPELINESUPPORT: {
      ddi::D3D11DDI_3DPIPELINESUPPORT_CAPS caps{};
      for (int level = 0; level <= adapter->highestPipelineLevel(); ++level)
        caps.Caps |= ddi::D3D11DDI_ENCODE_3DPIPELINESUPPORT_CAP(ddi::D3D11DDI_3DPIPELINELEVEL(level));
      return answer(*args, caps);
    }
    case ddi::D3D11_1DDICAPS_D3D11_OPTIONS: {
      D3D11_FEATURE_DATA_D3D11_OPTIONS options;
      ddi::D3D11_1DDI_D3D11_OPTIONS_DATA data{};
      if (feature(device, D3D11_FEATURE_D3D11_OPTIONS, options))
        data.OutputMergerLogicOp = options.OutputMergerLogicOp;
      // Debug binaries have no API to go to; the runtime keeps them when this is FALSE.
      data.AssignDebugBinarySupport = FALSE;
      return answer(*args, data);
    }
    case ddi::D3D11_1DDICAPS_ARCHITECTURE_INFO: {
      D3D11_FEATURE_DATA_ARCHITECTURE_INFO info;
      ddi::D3D11_1DDI_ARCHITECTURE_INFO_DATA data{};
      if (feature(device, D3D11_FEATURE_ARCHITECTURE_INFO, info))
        data.TileBasedDeferredRenderer = info.TileBasedDeferredRenderer;
      return answer(*args, data);
    }
    case ddi::D3D11_1DDICAPS_SHADER_MIN_PRECISION_SUPPORT: {
      D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT precision;
      ddi::D3D11_DDI_SHADER_MIN_PRECISION_SUPPORT_DATA data{};
      if (feature(device, D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT, precision)) {
        data.PixelShaderMinPrecision = precision.PixelShaderMinPrecision;
        data.AllOtherStagesMinPrecision = precision.AllOtherShaderStagesMinPrecision;
      }
      return answer(*args, data);
    }
    case ddi::D3DWDDM1_3DDICAPS_D3D11_OPTIONS1: {
      // No tiled-resource tier, whatever the target offers: Triton does not translate
      // the tiled-resource members (ddi_wddm1_3.cpp), so the runtime must not use them.
      const ddi::D3DWDDM1_3DDI_D3D11_OPTIONS_DATA1 data{0};
      return answer(*args, data);
    }
    case ddi::D3DWDDM1_3DDICAPS_MARKER: {
      // No profile markers (SetMarkerMode refuses PROFILE).
      const ddi::D3DWDDM1_3DDI_MARKER_TYPE data = ddi::D3DWDDM1_3DDI_MARKER_TYPE_NONE;
      return answer(*args, data);
    }
    // WDDM 2.0 (ddi_wddm2_0.cpp says what each absence stands for).
    case ddi::D3DWDDM2_0DDICAPS_D3D11_OPTIONS2: {
      // No conservative rasterization: CreateRasterizerState refuses it.
      const ddi::D3DWDDM2_0DDI_D3D11_OPTIONS2_DATA data{ddi::D3DWDDM2_0DDI_CONSERVATIVE_RASTERIZATION_NOT_SUPPORTED};
      return answer(*args, data);
    }
    case ddi::D3DWDDM2_0DDICAPS_MEMORY_ARCHITECTURE: {
      // The target's memory is the host's, behind a copy: not the guest's, not coherent with it.
      const ddi::D3DWDDM2_0DDI_MEMORY_ARCHITECTURE_CAPS data{FALSE, FALSE};
      return answer(*args, data);
    }
    case ddi::D3DWDDM2_0DDICAPS_TEXTURE_LAYOUT: {
      // No device-dependent layout or swizzle, no 64 KiB standard swizzle: resources are
      // opaque (CreateResource refuses other layouts, GetResourceLayout answers E_NOTIMPL).
      const ddi::D3DWDDM2_0DDI_TEXTURE_LAYOUT_CAPS data{0, 0, FALSE};
      return answer(*args, data);
    }
    case ddi::D3DWDDM2_0DDICAPS_SWIZZLE_PATTERN:
    case ddi::D3DWDDM2_0DDICAPS_TEXTURE_LAYOUT1:
      // Indexed by a device-dependent swizzle or layout; there are none (TEXTURE_LAYOUT).
      return E_INVALIDARG;
    case ddi::D3DWDDM2_0DDICAPS_D3D11_OPTIONS3: {
      // Viewport/render-target array index from any stage feeding the rasterizer (the
      // API's D3D11_FEATURE_D3D11_OPTIONS3): not claimed; shaders using it are not tested here.
      const ddi::D3DWDDM2_0DDI_D3D11_OPTIONS3_DATA data{FALSE};
      return answer(*args, data);
    }
    case ddi::D3DWDDM2_0DDICAPS_GPUVA_CAPS: {
      // Triton maps nothing into a GPU virtual address space of its own.
      const ddi::D3DWDDM2_0DDI_GPUVA_CAPS_DATA data{0};
      return answer(*args, data);
    }
    default:
      TRITON_LOG(Warn, "GetCaps: unknown caps type %u", unsigned(args->Type));
      return E_INVALIDARG;
  }
}

}  // namespace entry
}  // namespace triton::driver
