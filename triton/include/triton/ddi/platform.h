// SPDX-License-Identifier: MIT
#pragma once

// Base types for the DDI declarations.
//
// Everything lives in namespace triton::ddi so that these declarations never
// collide with mingw-w64's or Wine's headers (which declare none of the DDI but
// do declare the Win32 base types). On Windows the base types are the SDK's own
// (using-declarations), so a DXGI_FORMAT or RECT taken from the DDI can be handed
// to the D3D11 API without a cast. Natively (Linux, layout tests only) they are
// layout-equivalent stand-ins: LONG is 32-bit on Windows, so RECT uses int32_t.

#include <cstddef>
#include <cstdint>

#if defined(_WIN32)
#include <windows.h>
#include <dxgiformat.h>
#include <dxgitype.h>
#endif

// APIENTRY is __stdcall in the WDK; it only changes the ABI on x86.
// Callbacks are APIENTRY CALLBACK, i.e. __stdcall as well.
#if defined(_WIN32)
#define TRITON_APIENTRY __stdcall
#define TRITON_CALLBACK __stdcall
#else
#define TRITON_APIENTRY
#define TRITON_CALLBACK
#endif

namespace triton::ddi {

#if defined(_WIN32)

using ::BOOL;
using ::BYTE;
using ::FLOAT;
using ::HANDLE;
using ::HRESULT;
using ::INT;
using ::LONG;
using ::LPSTR;
using ::LUID;
using ::RECT;
using ::SIZE_T;
using ::UINT;
using ::UINT16;
using ::UINT32;
using ::UINT64;
using ::UINT8;
using ::WCHAR;
using ::UINT_PTR;
using ::DXGI_FORMAT;
using ::DXGI_SAMPLE_DESC;
using ::DXGI_GAMMA_CONTROL_CAPABILITIES;

#else

using BOOL = std::int32_t;
using BYTE = std::uint8_t;
using FLOAT = float;
using HANDLE = void*;
using HRESULT = std::int32_t;
using INT = std::int32_t;
using LONG = std::int32_t;  // 32-bit on Windows (LLP64)
using LPSTR = char*;
using SIZE_T = std::size_t;
using UINT = std::uint32_t;
using UINT16 = std::uint16_t;
using UINT32 = std::uint32_t;
using UINT64 = std::uint64_t;
using UINT8 = std::uint8_t;
using WCHAR = char16_t;   // 16-bit on Windows
using UINT_PTR = std::uintptr_t;

struct LUID {
  std::uint32_t LowPart;
  std::int32_t HighPart;
};

struct RECT {
  std::int32_t left;
  std::int32_t top;
  std::int32_t right;
  std::int32_t bottom;
};

// Only the layout matters natively; the values are the API's (dxgiformat.h).
enum DXGI_FORMAT : std::uint32_t {
  DXGI_FORMAT_UNKNOWN = 0,
};

struct DXGI_SAMPLE_DESC {
  UINT Count;
  UINT Quality;
};

struct DXGI_GAMMA_CONTROL_CAPABILITIES;  // only used through a pointer

#endif

// d3dukmdt.h: kernel-mode handles are 32-bit on every architecture.
using D3DKMT_HANDLE = UINT;
using D3DDDI_VIDEO_PRESENT_SOURCE_ID = UINT;

// Members the reference marks "reserved for system use" without a type.
using PFN_TRITON_DDI_RESERVED = void*;

}  // namespace triton::ddi
