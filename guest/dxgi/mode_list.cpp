// SPDX-License-Identifier: MIT
#include "mode_list.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace npt::guest::dxgi {

namespace {

// The UNORM format whose modes an sRGB (or other display-equivalent) format shares.
DXGI_FORMAT modeSourceFormat(DXGI_FORMAT format) {
  switch (format) {
    case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB: return DXGI_FORMAT_R8G8B8A8_UNORM;
    case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB: return DXGI_FORMAT_B8G8R8A8_UNORM;
    case DXGI_FORMAT_B8G8R8X8_UNORM_SRGB: return DXGI_FORMAT_B8G8R8X8_UNORM;
    default: return format;
  }
}

bool isInterlaced(DXGI_MODE_SCANLINE_ORDER order) {
  return order == DXGI_MODE_SCANLINE_ORDER_UPPER_FIELD_FIRST ||
         order == DXGI_MODE_SCANLINE_ORDER_LOWER_FIELD_FIRST;
}

double refreshHz(const DXGI_RATIONAL& rate) {
  return rate.Denominator ? double(rate.Numerator) / double(rate.Denominator) : 0.0;
}

bool sortsBefore(const DXGI_MODE_DESC& a, const DXGI_MODE_DESC& b) {
  if (a.Width != b.Width) return a.Width < b.Width;
  if (a.Height != b.Height) return a.Height < b.Height;
  double ra = refreshHz(a.RefreshRate), rb = refreshHz(b.RefreshRate);
  if (ra != rb) return ra < rb;
  if (a.ScanlineOrdering != b.ScanlineOrdering) return a.ScanlineOrdering < b.ScanlineOrdering;
  return a.Scaling < b.Scaling;
}

}

std::vector<DXGI_MODE_DESC> modesForFormat(const std::vector<DXGI_MODE_DESC>& hostModes,
                                           DXGI_FORMAT format, UINT flags) {
  std::vector<DXGI_MODE_DESC> result;
  if (format == DXGI_FORMAT_UNKNOWN)
    return result;
  auto collect = [&](DXGI_FORMAT source) {
    for (const DXGI_MODE_DESC& mode : hostModes) {
      if (mode.Format != source)
        continue;
      if (!(flags & DXGI_ENUM_MODES_INTERLACED) && isInterlaced(mode.ScanlineOrdering))
        continue;
      if (!(flags & DXGI_ENUM_MODES_SCALING) && mode.Scaling != DXGI_MODE_SCALING_UNSPECIFIED)
        continue;
      DXGI_MODE_DESC copy = mode;
      copy.Format = format;
      result.push_back(copy);
    }
  };
  collect(format);
  if (result.empty() && modeSourceFormat(format) != format)
    collect(modeSourceFormat(format));
  std::stable_sort(result.begin(), result.end(), sortsBefore);
  return result;
}

DXGI_MODE_DESC1 toModeDesc1(const DXGI_MODE_DESC& mode) {
  DXGI_MODE_DESC1 out = {};
  out.Width = mode.Width;
  out.Height = mode.Height;
  out.RefreshRate = mode.RefreshRate;
  out.Format = mode.Format;
  out.ScanlineOrdering = mode.ScanlineOrdering;
  out.Scaling = mode.Scaling;
  out.Stereo = FALSE;
  return out;
}

DXGI_MODE_DESC toModeDesc(const DXGI_MODE_DESC1& mode) {
  DXGI_MODE_DESC out = {};
  out.Width = mode.Width;
  out.Height = mode.Height;
  out.RefreshRate = mode.RefreshRate;
  out.Format = mode.Format;
  out.ScanlineOrdering = mode.ScanlineOrdering;
  out.Scaling = mode.Scaling;
  return out;
}

HRESULT findClosestMatchingMode(const std::vector<DXGI_MODE_DESC>& hostModes,
                                const DXGI_MODE_DESC& wanted, bool haveConcernedDevice,
                                UINT desktopWidth, UINT desktopHeight,
                                DXGI_MODE_DESC* closest) {
  if (!closest)
    return DXGI_ERROR_INVALID_CALL;
  if ((wanted.Width == 0) != (wanted.Height == 0))
    return DXGI_ERROR_INVALID_CALL;
  DXGI_FORMAT format = wanted.Format;
  if (format == DXGI_FORMAT_UNKNOWN) {
    if (!haveConcernedDevice)
      return DXGI_ERROR_INVALID_CALL;
    // The concerned device renders to whatever the desktop scans out.
    format = DXGI_FORMAT_R8G8B8A8_UNORM;
  }

  std::vector<DXGI_MODE_DESC> candidates =
      modesForFormat(hostModes, format, DXGI_ENUM_MODES_INTERLACED | DXGI_ENUM_MODES_SCALING);
  if (candidates.empty())
    return DXGI_ERROR_NOT_FOUND;

  UINT targetWidth = wanted.Width ? wanted.Width : desktopWidth;
  UINT targetHeight = wanted.Height ? wanted.Height : desktopHeight;
  double targetHz = refreshHz(wanted.RefreshRate);

  // Lexicographic score: resolution distance, refresh-rate distance (when one was asked
  // for), scanline ordering, scaling, and last the fastest refresh rate.
  struct Score {
    uint64_t resolution;
    double refresh;
    int scanline;
    int scaling;
    double slowness;
    bool operator<(const Score& o) const {
      if (resolution != o.resolution) return resolution < o.resolution;
      if (refresh != o.refresh) return refresh < o.refresh;
      if (scanline != o.scanline) return scanline < o.scanline;
      if (scaling != o.scaling) return scaling < o.scaling;
      return slowness < o.slowness;
    }
  };
  auto scoreOf = [&](const DXGI_MODE_DESC& mode) {
    Score s;
    s.resolution = uint64_t(std::llabs(int64_t(mode.Width) - int64_t(targetWidth))) +
                   uint64_t(std::llabs(int64_t(mode.Height) - int64_t(targetHeight)));
    s.refresh = targetHz > 0.0 ? std::abs(refreshHz(mode.RefreshRate) - targetHz) : 0.0;
    s.slowness = -refreshHz(mode.RefreshRate);
    if (wanted.ScanlineOrdering == DXGI_MODE_SCANLINE_ORDER_UNSPECIFIED)
      s.scanline = mode.ScanlineOrdering == DXGI_MODE_SCANLINE_ORDER_PROGRESSIVE ? 0 : 1;
    else
      s.scanline = mode.ScanlineOrdering == wanted.ScanlineOrdering ? 0 : 1;
    if (wanted.Scaling == DXGI_MODE_SCALING_UNSPECIFIED)
      s.scaling = mode.Scaling == DXGI_MODE_SCALING_UNSPECIFIED ? 0 : 1;
    else
      s.scaling = mode.Scaling == wanted.Scaling ? 0 : 1;
    return s;
  };

  const DXGI_MODE_DESC* best = &candidates[0];
  Score bestScore = scoreOf(*best);
  for (const DXGI_MODE_DESC& mode : candidates) {
    Score s = scoreOf(mode);
    if (s < bestScore) {
      best = &mode;
      bestScore = s;
    }
  }
  *closest = *best;
  return S_OK;
}

}
