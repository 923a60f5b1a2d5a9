// SPDX-License-Identifier: MIT
// Host-info blob (protocol/README.md, section 11): a little-endian sequence of
// 4-byte aligned items, read with the bounds-checked CommandReader so that a
// hostile or broken host cannot make the guest read past the blob.

#include <cstring>

#include "npt/protocol/host_info.h"
#include "npt/protocol/reader.h"
#include "npt_ids.h"

namespace npt::protocol {

  namespace {

    template<typename... T> constexpr size_t largest() { size_t m = 0; ((m = sizeof(T) > m ? sizeof(T) : m), ...); return m; }

    // A guest copies a feature's bytes into the caller's structure, so every
    // structure CheckFeatureSupport knows must fit the fixed buffer.
    static_assert(largest<D3D11_FEATURE_DATA_THREADING, D3D11_FEATURE_DATA_DOUBLES, D3D11_FEATURE_DATA_FORMAT_SUPPORT,
                          D3D11_FEATURE_DATA_FORMAT_SUPPORT2, D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS,
                          D3D11_FEATURE_DATA_D3D11_OPTIONS, D3D11_FEATURE_DATA_ARCHITECTURE_INFO,
                          D3D11_FEATURE_DATA_D3D9_OPTIONS, D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT,
                          D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT, D3D11_FEATURE_DATA_D3D11_OPTIONS1,
                          D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT, D3D11_FEATURE_DATA_MARKER_SUPPORT,
                          D3D11_FEATURE_DATA_D3D9_OPTIONS1, D3D11_FEATURE_DATA_D3D11_OPTIONS2,
                          D3D11_FEATURE_DATA_D3D11_OPTIONS3, D3D11_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT,
                          D3D11_FEATURE_DATA_D3D11_OPTIONS4, D3D11_FEATURE_DATA_SHADER_CACHE,
                          D3D11_FEATURE_DATA_D3D11_OPTIONS5>() <= kHostInfoMaxFeatureBytes,
                  "a D3D11_FEATURE_DATA_* structure does not fit HostFeature::data");

    // Wire bytes of one fixed-size element, for count checks before allocation.
    constexpr size_t kAdapterBytes = 256 + 4 * 4 + 3 * 8 + 8 + 3 * 4;
    constexpr size_t kFeatureMinBytes = 3 * 4;
    constexpr size_t kFormatBytes = 5 * 4 + kHostInfoSampleCounts * 4;
    constexpr size_t kOutputMinBytes = 64 + 4 * 4 + 3 * 4;
    constexpr size_t kModeBytes = 7 * 4;

    class BlobWriter {
    public:
      explicit BlobWriter(std::vector<uint8_t>& out) : m_out(out) { }
      void u32(uint32_t v) { put(&v, 4); }
      void i32(int32_t v) { put(&v, 4); }
      void u64(uint64_t v) { put(&v, 8); }
      void bytes(const void* p, size_t n) {
        put(p, n);
        static const uint8_t zero[4] = { };
        if (n & 3) put(zero, 4 - (n & 3));
      }
      template<size_t N> void units(const std::array<uint16_t, N>& a) { static_assert(N % 2 == 0); put(a.data(), N * 2); }
    private:
      void put(const void* p, size_t n) { const uint8_t* b = static_cast<const uint8_t*>(p); m_out.insert(m_out.end(), b, b + n); }
      std::vector<uint8_t>& m_out;
    };

    // Little-endian hosts only (x86-64, as the whole protocol): units are copied as bytes.
    template<size_t N> void readUnits(CommandReader& r, std::array<uint16_t, N>& a) {
      if (const uint8_t* p = r.bytes(N * 2)) std::memcpy(a.data(), p, N * 2);
    }

    template<typename E> E readEnum(CommandReader& r, uint32_t max) { return E(r.enumValue(max)); }

  }

  const HostFeature* HostInfo::findFeature(D3D11_FEATURE feature) const {
    for (const HostFeature& f : features) if (f.feature == feature) return &f;
    return nullptr;
  }

  const HostFormat* HostInfo::findFormat(DXGI_FORMAT format) const {
    for (const HostFormat& f : formats) if (f.format == format) return &f;
    return nullptr;
  }

  size_t hostInfoMaxBytes() {
    return 4 * 4 + kAdapterBytes
         + 4 + kHostInfoMaxFeatures * (kFeatureMinBytes + kHostInfoMaxFeatureBytes)
         + 4 + kHostInfoMaxFormats * kFormatBytes
         + 4 + kHostInfoMaxOutputs * (kOutputMinBytes + kHostInfoMaxModesPerOutput * kModeBytes);
  }

  ErrorCode serializeHostInfo(const HostInfo& info, std::vector<uint8_t>& out) {
    if (info.features.size() > kHostInfoMaxFeatures || info.formats.size() > kHostInfoMaxFormats
        || info.outputs.size() > kHostInfoMaxOutputs)
      return ErrorCode::CountTooLarge;
    for (const HostFeature& f : info.features)
      if (f.size > kHostInfoMaxFeatureBytes) return ErrorCode::CountTooLarge;
    for (const HostOutput& o : info.outputs)
      if (o.modes.size() > kHostInfoMaxModesPerOutput) return ErrorCode::CountTooLarge;

    out.clear();
    BlobWriter w(out);
    w.u32(kHostInfoMagic);
    w.u32(kHostInfoVersion);
    w.u32(uint32_t(info.featureLevel));
    w.u32(info.creationFlags);

    const HostAdapter& a = info.adapter;
    w.units(a.description);
    w.u32(a.vendorId); w.u32(a.deviceId); w.u32(a.subSysId); w.u32(a.revision);
    w.u64(a.dedicatedVideoMemory); w.u64(a.dedicatedSystemMemory); w.u64(a.sharedSystemMemory);
    w.u32(a.luid.LowPart); w.i32(a.luid.HighPart);
    w.u32(a.flags);
    w.u32(uint32_t(a.graphicsPreemptionGranularity));
    w.u32(uint32_t(a.computePreemptionGranularity));

    w.u32(uint32_t(info.features.size()));
    for (const HostFeature& f : info.features) {
      w.u32(uint32_t(f.feature)); w.i32(f.hr); w.u32(f.size);
      w.bytes(f.data.data(), f.size);
    }

    w.u32(uint32_t(info.formats.size()));
    for (const HostFormat& f : info.formats) {
      w.u32(uint32_t(f.format)); w.i32(f.supportHr); w.u32(f.support); w.i32(f.support2Hr); w.u32(f.support2);
      for (UINT q : f.qualityLevels) w.u32(q);
    }

    w.u32(uint32_t(info.outputs.size()));
    for (const HostOutput& o : info.outputs) {
      w.units(o.deviceName);
      w.i32(o.desktopCoordinates.left); w.i32(o.desktopCoordinates.top);
      w.i32(o.desktopCoordinates.right); w.i32(o.desktopCoordinates.bottom);
      w.u32(uint32_t(o.attachedToDesktop));
      w.u32(uint32_t(o.rotation));
      w.u32(uint32_t(o.modes.size()));
      for (const DXGI_MODE_DESC& m : o.modes) {
        w.u32(m.Width); w.u32(m.Height); w.u32(m.RefreshRate.Numerator); w.u32(m.RefreshRate.Denominator);
        w.u32(uint32_t(m.Format)); w.u32(uint32_t(m.ScanlineOrdering)); w.u32(uint32_t(m.Scaling));
      }
    }
    return ErrorCode::Ok;
  }

  ErrorCode parseHostInfo(const void* data, size_t size, HostInfo* out) {
    if (!data && size) return ErrorCode::NullNotAllowed;
    if (size < 8) return ErrorCode::Truncated;
    CommandReader r(static_cast<const uint8_t*>(data), size);
    if (r.u32() != kHostInfoMagic) return ErrorCode::BadHeader;
    if (r.u32() != kHostInfoVersion) return ErrorCode::VersionMismatch;

    HostInfo info;
    info.featureLevel = readEnum<D3D_FEATURE_LEVEL>(r, kEnumMax_D3D_FEATURE_LEVEL);
    info.creationFlags = r.u32();

    HostAdapter& a = info.adapter;
    readUnits(r, a.description);
    a.vendorId = r.u32(); a.deviceId = r.u32(); a.subSysId = r.u32(); a.revision = r.u32();
    a.dedicatedVideoMemory = r.u64(); a.dedicatedSystemMemory = r.u64(); a.sharedSystemMemory = r.u64();
    a.luid.LowPart = r.u32(); a.luid.HighPart = LONG(int32_t(r.u32()));
    a.flags = r.u32();
    a.graphicsPreemptionGranularity = readEnum<DXGI_GRAPHICS_PREEMPTION_GRANULARITY>(r, kEnumMax_DXGI_GRAPHICS_PREEMPTION_GRANULARITY);
    a.computePreemptionGranularity = readEnum<DXGI_COMPUTE_PREEMPTION_GRANULARITY>(r, kEnumMax_DXGI_COMPUTE_PREEMPTION_GRANULARITY);
    if (r.ok() && a.description.back() != 0) return ErrorCode::BadString;

    uint32_t features = r.u32();
    if (r.ok() && features > kHostInfoMaxFeatures) return ErrorCode::CountTooLarge;
    if (!r.canHold(features, kFeatureMinBytes)) return r.error();
    info.features.resize(features);
    for (HostFeature& f : info.features) {
      f.feature = readEnum<D3D11_FEATURE>(r, kEnumMax_D3D11_FEATURE);
      f.hr = HRESULT(int32_t(r.u32()));
      f.size = r.u32();
      if (!r.ok()) return r.error();
      if (f.size > kHostInfoMaxFeatureBytes) return ErrorCode::CountTooLarge;
      if (const uint8_t* p = r.bytes(f.size)) {
        std::memcpy(f.data.data(), p, f.size);
        // Padding must be zero: one HostInfo has exactly one blob.
        for (uint32_t i = f.size; i < ((f.size + 3) & ~3u); i++)
          if (p[i]) return ErrorCode::BadPayload;
      }
    }

    uint32_t formats = r.u32();
    if (r.ok() && formats > kHostInfoMaxFormats) return ErrorCode::CountTooLarge;
    if (!r.canHold(formats, kFormatBytes)) return r.error();
    info.formats.resize(formats);
    for (HostFormat& f : info.formats) {
      f.format = readEnum<DXGI_FORMAT>(r, kEnumMax_DXGI_FORMAT);
      f.supportHr = HRESULT(int32_t(r.u32()));
      f.support = r.u32();
      f.support2Hr = HRESULT(int32_t(r.u32()));
      f.support2 = r.u32();
      for (UINT& q : f.qualityLevels) q = r.u32();
    }

    uint32_t outputs = r.u32();
    if (r.ok() && outputs > kHostInfoMaxOutputs) return ErrorCode::CountTooLarge;
    if (!r.canHold(outputs, kOutputMinBytes)) return r.error();
    info.outputs.resize(outputs);
    for (HostOutput& o : info.outputs) {
      readUnits(r, o.deviceName);
      o.desktopCoordinates.left = LONG(int32_t(r.u32())); o.desktopCoordinates.top = LONG(int32_t(r.u32()));
      o.desktopCoordinates.right = LONG(int32_t(r.u32())); o.desktopCoordinates.bottom = LONG(int32_t(r.u32()));
      o.attachedToDesktop = BOOL(int32_t(r.u32()));
      o.rotation = readEnum<DXGI_MODE_ROTATION>(r, kEnumMax_DXGI_MODE_ROTATION);
      uint32_t modes = r.u32();
      if (!r.ok()) return r.error();
      if (o.deviceName.back() != 0) return ErrorCode::BadString;
      if (modes > kHostInfoMaxModesPerOutput) return ErrorCode::CountTooLarge;
      if (!r.canHold(modes, kModeBytes)) return r.error();
      o.modes.resize(modes);
      for (DXGI_MODE_DESC& m : o.modes) {
        m.Width = r.u32(); m.Height = r.u32();
        m.RefreshRate.Numerator = r.u32(); m.RefreshRate.Denominator = r.u32();
        m.Format = readEnum<DXGI_FORMAT>(r, kEnumMax_DXGI_FORMAT);
        m.ScanlineOrdering = readEnum<DXGI_MODE_SCANLINE_ORDER>(r, kEnumMax_DXGI_MODE_SCANLINE_ORDER);
        m.Scaling = readEnum<DXGI_MODE_SCALING>(r, kEnumMax_DXGI_MODE_SCALING);
      }
    }
    if (!r.ok()) return r.error();
    if (!r.atEnd()) return ErrorCode::TrailingBytes;
    *out = std::move(info);
    return ErrorCode::Ok;
  }

}
