// SPDX-License-Identifier: MIT
// Host-info blob: round trip, and every malformed blob is refused cleanly
// (run under ASan/UBSan to make out-of-bounds reads observable).

#include <gtest/gtest.h>

#include <cstring>

#include "npt/protocol/control.h"
#include "npt/protocol/host_info.h"

using namespace npt::protocol;

namespace {

  template<size_t N> void setText(std::array<uint16_t, N>& a, const char16_t* s) {
    size_t i = 0;
    for (; s[i] && i + 1 < N; i++) a[i] = uint16_t(s[i]);
    a[i] = 0;
  }

  // About what wined3d reports: every feature, every format, two outputs with
  // a mode list for four formats.
  HostInfo realisticHostInfo() {
    HostInfo info;
    info.featureLevel = D3D_FEATURE_LEVEL_11_1;
    info.creationFlags = 0x1 | 0x2 | 0x20 | 0x800;
    for (uint32_t f = 0; f <= 19; f++) {
      HostFeature feature;
      feature.feature = D3D11_FEATURE(f);
      feature.hr = f == 2 || f == 3 ? HRESULT(0x80070057) : 0;
      feature.size = 4 + (f * 4) % 56;
      for (uint32_t i = 0; i < feature.size; i++) feature.data[i] = uint8_t(f * 31 + i);
      info.features.push_back(feature);
    }
    for (uint32_t fmt = 1; fmt <= 132; fmt++) {
      HostFormat format;
      format.format = DXGI_FORMAT(fmt);
      format.supportHr = fmt % 7 ? 0 : HRESULT(0x80004001);
      format.support = fmt * 0x01010101u;
      format.support2Hr = 0;
      format.support2 = fmt * 3;
      for (size_t i = 0; i < kHostInfoSampleCounts; i++) format.qualityLevels[i] = UINT(fmt % (i + 2));
      info.formats.push_back(format);
    }
    HostAdapter& a = info.adapter;
    setText(a.description, u"Wine D3D11 adapter \u00e9\u20ac (NVIDIA H200)");
    a.vendorId = 0x10de; a.deviceId = 0x2335; a.subSysId = 0x12345678; a.revision = 0xa1;
    a.dedicatedVideoMemory = 0x2300000000ull; a.dedicatedSystemMemory = 7; a.sharedSystemMemory = 0x800000000ull;
    a.luid.LowPart = 0xdeadbeef; a.luid.HighPart = -2;
    a.flags = 0;
    a.graphicsPreemptionGranularity = DXGI_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY;
    a.computePreemptionGranularity = DXGI_COMPUTE_PREEMPTION_THREAD_BOUNDARY;
    for (int o = 0; o < 2; o++) {
      HostOutput out;
      setText(out.deviceName, o ? u"\\\\.\\DISPLAY2" : u"\\\\.\\DISPLAY1");
      out.desktopCoordinates = RECT{ o * 1920, 0, o * 1920 + 1920, 1080 };
      out.attachedToDesktop = 1;
      out.rotation = o ? DXGI_MODE_ROTATION_ROTATE90 : DXGI_MODE_ROTATION_IDENTITY;
      for (DXGI_FORMAT f : { DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, DXGI_FORMAT_B8G8R8A8_UNORM,
                             DXGI_FORMAT_R10G10B10A2_UNORM })
        for (UINT w : { 640u, 800u, 1024u, 1280u, 1600u, 1920u })
          for (UINT hz : { 60u, 75u, 144u }) {
            DXGI_MODE_DESC m{};
            m.Width = w; m.Height = w * 9 / 16; m.RefreshRate = { hz * 1000, 1001 }; m.Format = f;
            m.ScanlineOrdering = DXGI_MODE_SCANLINE_ORDER_PROGRESSIVE; m.Scaling = DXGI_MODE_SCALING_UNSPECIFIED;
            out.modes.push_back(m);
          }
      info.outputs.push_back(out);
    }
    return info;
  }

  std::vector<uint8_t> blobOf(const HostInfo& info) {
    std::vector<uint8_t> blob;
    EXPECT_EQ(serializeHostInfo(info, blob), ErrorCode::Ok);
    return blob;
  }

  void putWord(std::vector<uint8_t>& b, size_t offset, uint32_t v) { std::memcpy(b.data() + offset, &v, 4); }
  uint32_t wordAt(const std::vector<uint8_t>& b, size_t offset) { uint32_t v; std::memcpy(&v, b.data() + offset, 4); return v; }

  // Offsets of the count words in a blob (section 11 of the README).
  constexpr size_t kFeatureCountOffset = 16 + 316;

  size_t formatCountOffset(const std::vector<uint8_t>& b) {
    size_t pos = kFeatureCountOffset;
    uint32_t n = wordAt(b, pos);
    pos += 4;
    for (uint32_t i = 0; i < n; i++) pos += 12 + ((wordAt(b, pos + 8) + 3) & ~3u);
    return pos;
  }
  size_t outputCountOffset(const std::vector<uint8_t>& b) {
    size_t pos = formatCountOffset(b);
    return pos + 4 + size_t(wordAt(b, pos)) * 44;
  }

}

TEST(HostInfo, RoundTripKeepsEveryField) {
  HostInfo info = realisticHostInfo();
  std::vector<uint8_t> blob = blobOf(info);
  HostInfo parsed;
  ASSERT_EQ(parseHostInfo(blob.data(), blob.size(), &parsed), ErrorCode::Ok);
  EXPECT_EQ(blobOf(parsed), blob);
  EXPECT_EQ(parsed.featureLevel, D3D_FEATURE_LEVEL_11_1);
  EXPECT_EQ(parsed.creationFlags, info.creationFlags);
  ASSERT_EQ(parsed.features.size(), 20u);
  const HostFeature* options = parsed.findFeature(D3D11_FEATURE_D3D11_OPTIONS);
  ASSERT_NE(options, nullptr);
  EXPECT_EQ(options->size, 24u);
  EXPECT_EQ(options->data[3], uint8_t(5 * 31 + 3));
  EXPECT_EQ(options->data[24], 0) << "bytes beyond the size stay zero";
  EXPECT_EQ(parsed.findFeature(D3D11_FEATURE_FORMAT_SUPPORT)->hr, HRESULT(0x80070057));
  ASSERT_EQ(parsed.formats.size(), 132u);
  const HostFormat* rgba = parsed.findFormat(DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_NE(rgba, nullptr);
  EXPECT_EQ(rgba->support, 28u * 0x01010101u);
  EXPECT_EQ(rgba->qualityLevels[5], UINT(28 % 7));
  EXPECT_EQ(parsed.findFormat(DXGI_FORMAT_UNKNOWN), nullptr);
  EXPECT_EQ(parsed.adapter.description, info.adapter.description);
  EXPECT_EQ(parsed.adapter.description[20], 0x20ac);
  EXPECT_EQ(parsed.adapter.dedicatedVideoMemory, 0x2300000000ull);
  EXPECT_EQ(parsed.adapter.luid.HighPart, -2);
  EXPECT_EQ(parsed.adapter.computePreemptionGranularity, DXGI_COMPUTE_PREEMPTION_THREAD_BOUNDARY);
  ASSERT_EQ(parsed.outputs.size(), 2u);
  EXPECT_EQ(parsed.outputs[1].deviceName, info.outputs[1].deviceName);
  EXPECT_EQ(parsed.outputs[1].desktopCoordinates.left, 1920);
  EXPECT_EQ(parsed.outputs[1].rotation, DXGI_MODE_ROTATION_ROTATE90);
  ASSERT_EQ(parsed.outputs[0].modes.size(), 72u);
  EXPECT_EQ(parsed.outputs[0].modes[71].RefreshRate.Numerator, 144000u);
  EXPECT_EQ(parsed.outputs[0].modes[71].Format, DXGI_FORMAT_R10G10B10A2_UNORM);
}

TEST(HostInfo, EmptyListsRoundTrip) {
  HostInfo info;
  std::vector<uint8_t> blob = blobOf(info);
  EXPECT_EQ(blob.size(), 16u + 316u + 12u);
  HostInfo parsed = realisticHostInfo();
  ASSERT_EQ(parseHostInfo(blob.data(), blob.size(), &parsed), ErrorCode::Ok);
  EXPECT_TRUE(parsed.features.empty() && parsed.formats.empty() && parsed.outputs.empty());
}

TEST(HostInfo, EveryTruncationFailsAndLeavesTheResultUntouched) {
  std::vector<uint8_t> blob = blobOf(realisticHostInfo());
  HostInfo untouched;
  untouched.creationFlags = 0x5a5a;
  for (size_t n = 0; n < blob.size(); n++) {
    std::vector<uint8_t> cut(blob.begin(), blob.begin() + n);  // exact size: ASan sees any overread
    HostInfo out = untouched;
    EXPECT_NE(parseHostInfo(cut.data(), cut.size(), &out), ErrorCode::Ok) << n;
    ASSERT_EQ(out.creationFlags, 0x5a5au) << n;
    ASSERT_TRUE(out.features.empty()) << n;
  }
  HostInfo out;
  EXPECT_EQ(parseHostInfo(nullptr, 0, &out), ErrorCode::Truncated);
}

TEST(HostInfo, ExtraBytesAreRefused) {
  std::vector<uint8_t> blob = blobOf(realisticHostInfo());
  for (size_t extra : {1u, 3u, 4u, 100u}) {
    std::vector<uint8_t> longer = blob;
    longer.resize(blob.size() + extra, 0);
    HostInfo out;
    EXPECT_EQ(parseHostInfo(longer.data(), longer.size(), &out), ErrorCode::TrailingBytes) << extra;
  }
}

TEST(HostInfo, BadMagicAndVersion) {
  std::vector<uint8_t> blob = blobOf(realisticHostInfo());
  HostInfo out;
  std::vector<uint8_t> magic = blob;
  putWord(magic, 0, 0x3154504e);  // the Hello magic, not the host-info one
  EXPECT_EQ(parseHostInfo(magic.data(), magic.size(), &out), ErrorCode::BadHeader);
  for (uint32_t version : {0u, 2u, 0xffffffffu}) {
    std::vector<uint8_t> v = blob;
    putWord(v, 4, version);
    EXPECT_EQ(parseHostInfo(v.data(), v.size(), &out), ErrorCode::VersionMismatch) << version;
  }
}

TEST(HostInfo, CountsBeyondTheirBoundsOrTheBytesPresent) {
  std::vector<uint8_t> blob = blobOf(realisticHostInfo());
  HostInfo out;
  auto parsePatched = [&](size_t offset, uint32_t value) {
    std::vector<uint8_t> b = blob;
    putWord(b, offset, value);
    return parseHostInfo(b.data(), b.size(), &out);
  };
  // A count within its bound but beyond the bytes present fails before allocating.
  auto parseCutAfter = [&](size_t offset, uint32_t value) {
    std::vector<uint8_t> b(blob.begin(), blob.begin() + offset + 4);
    putWord(b, offset, value);
    return parseHostInfo(b.data(), b.size(), &out);
  };
  for (uint32_t n : {kHostInfoMaxFeatures + 1, 0x40000000u, 0xffffffffu})
    EXPECT_EQ(parsePatched(kFeatureCountOffset, n), ErrorCode::CountTooLarge) << n;
  EXPECT_EQ(parseCutAfter(kFeatureCountOffset, kHostInfoMaxFeatures), ErrorCode::Truncated);
  EXPECT_EQ(parsePatched(kFeatureCountOffset + 4 + 8, kHostInfoMaxFeatureBytes + 1), ErrorCode::CountTooLarge);
  EXPECT_EQ(parsePatched(kFeatureCountOffset + 4 + 8, 0xfffffffdu), ErrorCode::CountTooLarge);
  size_t formats = formatCountOffset(blob);
  for (uint32_t n : {kHostInfoMaxFormats + 1, 0xffffffffu})
    EXPECT_EQ(parsePatched(formats, n), ErrorCode::CountTooLarge) << n;
  EXPECT_EQ(parseCutAfter(formats, kHostInfoMaxFormats), ErrorCode::Truncated);
  size_t outputs = outputCountOffset(blob);
  for (uint32_t n : {kHostInfoMaxOutputs + 1, 0x80000000u})
    EXPECT_EQ(parsePatched(outputs, n), ErrorCode::CountTooLarge) << n;
  EXPECT_EQ(parseCutAfter(outputs, kHostInfoMaxOutputs), ErrorCode::Truncated);
  size_t modes = outputs + 4 + 64 + 16 + 8;
  ASSERT_EQ(wordAt(blob, modes), 72u);
  for (uint32_t n : {kHostInfoMaxModesPerOutput + 1, 0xffffffffu})
    EXPECT_EQ(parsePatched(modes, n), ErrorCode::CountTooLarge) << n;
  EXPECT_EQ(parseCutAfter(modes, kHostInfoMaxModesPerOutput), ErrorCode::Truncated);
}

TEST(HostInfo, GarbledValuesAreRefused) {
  std::vector<uint8_t> blob = blobOf(realisticHostInfo());
  HostInfo out;
  std::vector<uint8_t> level = blob;
  putWord(level, 8, 0x10000);  // beyond D3D_FEATURE_LEVEL's value range
  EXPECT_EQ(parseHostInfo(level.data(), level.size(), &out), ErrorCode::BadEnum);
  std::vector<uint8_t> feature = blob;
  putWord(feature, kFeatureCountOffset + 4, 32);  // beyond D3D11_FEATURE's range
  EXPECT_EQ(parseHostInfo(feature.data(), feature.size(), &out), ErrorCode::BadEnum);
  std::vector<uint8_t> rotation = blob;
  putWord(rotation, outputCountOffset(blob) + 4 + 64 + 16 + 4, 8);
  EXPECT_EQ(parseHostInfo(rotation.data(), rotation.size(), &out), ErrorCode::BadEnum);
  // Text without its terminator would let the guest's wcslen run off the field.
  std::vector<uint8_t> description = blob;
  putWord(description, 16 + 252, 0x00410041);
  EXPECT_EQ(parseHostInfo(description.data(), description.size(), &out), ErrorCode::BadString);
  std::vector<uint8_t> name = blob;
  putWord(name, outputCountOffset(blob) + 4 + 60, 0x00410041);
  EXPECT_EQ(parseHostInfo(name.data(), name.size(), &out), ErrorCode::BadString);
}

TEST(HostInfo, RandomCorruptionEndsInOkOrAStableError) {
  std::vector<uint8_t> blob = blobOf(realisticHostInfo());
  uint32_t state = 7;
  auto next = [&]() { state = state * 1664525u + 1013904223u; return state; };
  for (int round = 0; round < 2000; round++) {
    std::vector<uint8_t> b = blob;
    for (int e = 0; e < 1 + int(next() % 3); e++) {
      static const uint32_t special[] = {0, 1, 0xffffffffu, 0x7fffffffu, 65, 257, 513, 9};
      uint32_t v = next() % 2 ? special[next() % 8] : next();
      putWord(b, (next() % (b.size() / 4)) * 4, v);
    }
    if (next() % 4 == 0) b.resize(next() % b.size());
    HostInfo out;
    ErrorCode code = parseHostInfo(b.data(), b.size(), &out);
    EXPECT_LE(uint32_t(code), uint32_t(ErrorCode::BadEnum));
  }
}

TEST(HostInfo, SerializerRefusesListsBeyondTheirBounds) {
  std::vector<uint8_t> blob;
  HostInfo info;
  info.features.resize(kHostInfoMaxFeatures + 1);
  EXPECT_EQ(serializeHostInfo(info, blob), ErrorCode::CountTooLarge);
  info = HostInfo();
  info.features.resize(1);
  info.features[0].size = kHostInfoMaxFeatureBytes + 1;
  EXPECT_EQ(serializeHostInfo(info, blob), ErrorCode::CountTooLarge);
  info = HostInfo();
  info.formats.resize(kHostInfoMaxFormats + 1);
  EXPECT_EQ(serializeHostInfo(info, blob), ErrorCode::CountTooLarge);
  info = HostInfo();
  info.outputs.resize(kHostInfoMaxOutputs + 1);
  EXPECT_EQ(serializeHostInfo(info, blob), ErrorCode::CountTooLarge);
  info = HostInfo();
  info.outputs.resize(1);
  info.outputs[0].modes.resize(kHostInfoMaxModesPerOutput + 1);
  EXPECT_EQ(serializeHostInfo(info, blob), ErrorCode::CountTooLarge);
}

TEST(HostInfo, LargestBlobFitsOneReply) {
  HostInfo info;
  info.features.resize(kHostInfoMaxFeatures);
  for (auto& f : info.features) f.size = kHostInfoMaxFeatureBytes;
  info.formats.resize(kHostInfoMaxFormats);
  info.outputs.resize(kHostInfoMaxOutputs);
  for (auto& o : info.outputs) o.modes.resize(kHostInfoMaxModesPerOutput);
  std::vector<uint8_t> blob = blobOf(info);
  EXPECT_EQ(blob.size(), hostInfoMaxBytes());
  HostInfo parsed;
  EXPECT_EQ(parseHostInfo(blob.data(), blob.size(), &parsed), ErrorCode::Ok);
  std::vector<uint8_t> replies;
  ASSERT_EQ(appendReply_QueryHostInfo(replies, blob), ErrorCode::Ok);
  std::vector<uint8_t> back;
  ASSERT_EQ(decodeReply_QueryHostInfo(replies.data(), replies.size(), back), ErrorCode::Ok);
  EXPECT_EQ(back, blob);
}
