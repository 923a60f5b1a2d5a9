// SPDX-License-Identifier: MIT
#pragma once

// What the host's device and display can do, sent once per connection as the
// reply of the control command QueryHostInfo (protocol/README.md, section 11).
// The host executor fills it from its backend and serializes it; the guest
// parses it and answers factories, adapters, outputs, CheckFeatureSupport,
// CheckFormatSupport, CheckMultisampleQualityLevels and the GetDesc calls
// locally from it.
//
// Plain data built on npt_types.h only: it compiles in the guest DLL (mingw)
// and natively. Text is kept as UTF-16 code units (uint16_t), not WCHAR,
// because WCHAR is 4 bytes in native builds.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "wire.h"
#include "npt_types.h"

namespace npt::protocol {

  constexpr uint32_t kHostInfoMagic   = 0x4854504eu;  // "NPTH"
  constexpr uint32_t kHostInfoVersion = 1;

  // Bounds the parser enforces (and the serializer refuses to exceed). Chosen so
  // that the largest blob still fits one reply command (kMaxCommandBytes).
  constexpr uint32_t kHostInfoMaxFeatures        = 64;
  constexpr uint32_t kHostInfoMaxFeatureBytes    = 64;   // >= every D3D11_FEATURE_DATA_* (static_assert in host_info.cpp)
  constexpr uint32_t kHostInfoMaxFormats         = 256;
  constexpr uint32_t kHostInfoMaxOutputs         = 8;
  constexpr uint32_t kHostInfoMaxModesPerOutput  = 512;
  constexpr size_t   kHostInfoSampleCounts       = 6;    // 1, 2, 4, 8, 16, 32 samples
  constexpr uint32_t kHostInfoSampleCountValues[kHostInfoSampleCounts] = { 1, 2, 4, 8, 16, 32 };

  // One CheckFeatureSupport answer: the structure's bytes as the host's
  // backend wrote them (the D3D11_FEATURE_DATA_* structures have the same
  // layout in both ABIs: UINT/BOOL/enum fields only).
  struct HostFeature {
    D3D11_FEATURE feature = D3D11_FEATURE_THREADING;
    HRESULT       hr = 0;
    uint32_t      size = 0;                                      // <= kHostInfoMaxFeatureBytes
    std::array<uint8_t, kHostInfoMaxFeatureBytes> data = { };    // bytes beyond `size` are zero
  };

  // One DXGI format: CheckFormatSupport, CheckFeatureSupport(FORMAT_SUPPORT2)
  // and CheckMultisampleQualityLevels for 1, 2, 4, 8, 16, 32 samples.
  struct HostFormat {
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
    HRESULT     supportHr = 0;
    UINT        support = 0;        // D3D11_FORMAT_SUPPORT bits
    HRESULT     support2Hr = 0;
    UINT        support2 = 0;       // D3D11_FORMAT_SUPPORT2 bits
    std::array<UINT, kHostInfoSampleCounts> qualityLevels = { };  // index i: kHostInfoSampleCountValues[i] samples
  };

  // DXGI_ADAPTER_DESC2, with the description as UTF-16 units.
  struct HostAdapter {
    std::array<uint16_t, 128> description = { };  // NUL-terminated like the DXGI field
    UINT     vendorId = 0;
    UINT     deviceId = 0;
    UINT     subSysId = 0;
    UINT     revision = 0;
    uint64_t dedicatedVideoMemory = 0;
    uint64_t dedicatedSystemMemory = 0;
    uint64_t sharedSystemMemory = 0;
    LUID     luid = { };
    UINT     flags = 0;
    DXGI_GRAPHICS_PREEMPTION_GRANULARITY graphicsPreemptionGranularity = DXGI_GRAPHICS_PREEMPTION_DMA_BUFFER_BOUNDARY;
    DXGI_COMPUTE_PREEMPTION_GRANULARITY  computePreemptionGranularity = DXGI_COMPUTE_PREEMPTION_DMA_BUFFER_BOUNDARY;
  };

  // DXGI_OUTPUT_DESC (without the HMONITOR: the guest makes its own) and the
  // output's display modes (GetDisplayModeList for the formats the host listed).
  struct HostOutput {
    std::array<uint16_t, 32> deviceName = { };     // NUL-terminated like the DXGI field
    RECT                     desktopCoordinates = { };
    BOOL                     attachedToDesktop = 0;
    DXGI_MODE_ROTATION       rotation = DXGI_MODE_ROTATION_UNSPECIFIED;
    std::vector<DXGI_MODE_DESC> modes;            // <= kHostInfoMaxModesPerOutput
  };

  struct HostInfo {
    D3D_FEATURE_LEVEL        featureLevel = D3D_FEATURE_LEVEL_11_0;  // the highest the host device reaches
    UINT                     creationFlags = 0;  // D3D11_CREATE_DEVICE_* flags the host accepts
    std::vector<HostFeature> features;           // <= kHostInfoMaxFeatures
    std::vector<HostFormat>  formats;            // <= kHostInfoMaxFormats
    HostAdapter              adapter;
    std::vector<HostOutput>  outputs;            // <= kHostInfoMaxOutputs

    const HostFeature* findFeature(D3D11_FEATURE feature) const;
    const HostFormat*  findFormat(DXGI_FORMAT format) const;
  };

  // Largest blob serializeHostInfo can produce (all lists at their bounds).
  size_t hostInfoMaxBytes();

  // Replaces `out` with the blob. CountTooLarge when a list or a feature's size
  // exceeds its bound (nothing is truncated silently).
  ErrorCode serializeHostInfo(const HostInfo& info, std::vector<uint8_t>& out);

  // Parses a blob from the host. Every count is checked against its bound and
  // against the bytes present before anything is allocated; enum values must
  // lie in their type's range (BadEnum); a cut blob is Truncated, extra bytes
  // TrailingBytes, a wrong magic BadHeader, another version VersionMismatch,
  // text without its terminator BadString, nonzero padding BadPayload. What it
  // accepts serializes back to the same bytes. On error `*out` is unchanged.
  ErrorCode parseHostInfo(const void* data, size_t size, HostInfo* out);

}
