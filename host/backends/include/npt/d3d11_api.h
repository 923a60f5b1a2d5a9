#pragma once

// The D3D11/DXGI API declarations for host code, on both builds.
//
// Windows (mingw): the toolchain's own headers.
// Native Linux: Wine's headers (libwine-dev). They declare every COM method with
// __stdcall, which Wine defines as __attribute__((ms_abi)) on x86_64. DXVK-native is
// compiled with STDMETHODCALLTYPE empty, i.e. the SysV ABI, so we let windef.h set up
// its types and then redefine __stdcall to nothing before any interface is declared.
// Every vtable call below this point therefore uses the platform ABI.
//
// Known layout difference with DXVK-native: it defines WCHAR as wchar_t (4 bytes on
// Linux) whereas Wine's WCHAR is 2 bytes, so structs with WCHAR arrays
// (DXGI_ADAPTER_DESC*, DXGI_OUTPUT_DESC*) must not be passed across that boundary
// with these declarations; the dxvk backend converts them explicitly.

#ifdef _WIN32
#include <windows.h>
#include <d3d11_4.h>
#include <dxgi1_6.h>
#else
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windef.h>
#undef __stdcall
#define __stdcall
#include <d3d11_4.h>
#include <dxgi1_6.h>
#endif
