// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include <dxgi1_6.h>

// Display-mode logic of IDXGIOutput, computed locally from the modes the host
// listed in its host-info blob (contract 2): no call reaches the wire.
namespace npt::guest::dxgi {

// The output's modes in `format`, filtered by DXGI_ENUM_MODES_* flags and sorted as
// Windows sorts them (width, height, refresh rate ascending). The host lists modes for
// a few formats only; an sRGB format shares the modes of its UNORM sibling, as on Windows.
std::vector<DXGI_MODE_DESC> modesForFormat(const std::vector<DXGI_MODE_DESC>& hostModes,
                                           DXGI_FORMAT format, UINT flags);

// GetDisplayModeList's two-call protocol: count NULL -> DXGI_ERROR_INVALID_CALL;
// desc NULL -> *count = number of modes, S_OK; *count smaller than the number of modes ->
// the first *count modes, *count unchanged, DXGI_ERROR_MORE_DATA; otherwise every mode
// and *count = their number.
template<typename Mode>
HRESULT copyModeList(const std::vector<Mode>& modes, UINT* count, Mode* desc) {
  if (!count)
    return DXGI_ERROR_INVALID_CALL;
  UINT available = UINT(modes.size());
  if (!desc) {
    *count = available;
    return S_OK;
  }
  UINT n = *count < available ? *count : available;
  for (UINT i = 0; i < n; i++)
    desc[i] = modes[i];
  if (*count < available)
    return DXGI_ERROR_MORE_DATA;
  *count = available;
  return S_OK;
}

// DXGI_MODE_DESC1 of a DXGI_MODE_DESC (Stereo FALSE: the host lists no stereo modes).
DXGI_MODE_DESC1 toModeDesc1(const DXGI_MODE_DESC& mode);
DXGI_MODE_DESC toModeDesc(const DXGI_MODE_DESC1& mode);

// FindClosestMatchingMode: validation and the choice Windows makes.
//  * Width and Height both zero or both non-zero, else DXGI_ERROR_INVALID_CALL;
//  * Format UNKNOWN needs a concerned device (then the desktop format is used), else
//    DXGI_ERROR_INVALID_CALL;
//  * unspecified fields (zero size, zero refresh rate, UNSPECIFIED ordering/scaling)
//    match anything; specified ones are preferences in the order resolution, refresh
//    rate, scanline ordering, scaling; a zero size prefers the desktop size.
// DXGI_ERROR_NOT_FOUND when the output has no mode in the format.
HRESULT findClosestMatchingMode(const std::vector<DXGI_MODE_DESC>& hostModes,
                                const DXGI_MODE_DESC& wanted, bool haveConcernedDevice,
                                UINT desktopWidth, UINT desktopHeight,
                                DXGI_MODE_DESC* closest);

}
