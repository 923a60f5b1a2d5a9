// SPDX-License-Identifier: MIT
#pragma once

// The D3D11/DXGI API declarations for host code, on both builds.
//
// Windows (mingw): the toolchain's own headers.
// Native Linux: the protocol's generated ABI header (npt_types.h), which declares every
// type, interface and IID of the registry with DXVK-native's conventions (SysV calling
// convention, WCHAR = wchar_t, IUnknown without a virtual destructor). Using the same
// declarations as the generated Dispatch lets the executor pass decoded structures
// straight to the backend, and structures with WCHAR arrays (DXGI_ADAPTER_DESC*) have
// DXVK-native's layout. The few Windows SDK macros the registry does not carry
// (HRESULT values, SUCCEEDED/FAILED) are defined below.

#ifdef _WIN32
#include <windows.h>
#include <d3d11_4.h>
#include <dxgi1_6.h>
#else
#include "npt_types.h"

#ifndef S_OK
#define S_OK ((HRESULT)0)
#define S_FALSE ((HRESULT)1)
#endif
#ifndef E_NOTIMPL
#define E_NOTIMPL ((HRESULT)0x80004001)
#define E_NOINTERFACE ((HRESULT)0x80004002)
#define E_POINTER ((HRESULT)0x80004003)
#define E_FAIL ((HRESULT)0x80004005)
#define E_OUTOFMEMORY ((HRESULT)0x8007000E)
#define E_INVALIDARG ((HRESULT)0x80070057)
#endif
#ifndef DXGI_ERROR_INVALID_CALL
#define DXGI_ERROR_INVALID_CALL ((HRESULT)0x887A0001)
#define DXGI_ERROR_NOT_FOUND ((HRESULT)0x887A0002)
#define DXGI_ERROR_MORE_DATA ((HRESULT)0x887A0003)
#define DXGI_ERROR_UNSUPPORTED ((HRESULT)0x887A0004)
#define DXGI_ERROR_DEVICE_REMOVED ((HRESULT)0x887A0005)
#define DXGI_ERROR_DEVICE_HUNG ((HRESULT)0x887A0006)
#define DXGI_ERROR_DEVICE_RESET ((HRESULT)0x887A0007)
#define DXGI_ERROR_WAS_STILL_DRAWING ((HRESULT)0x887A000A)
#define DXGI_ERROR_DRIVER_INTERNAL_ERROR ((HRESULT)0x887A0020)
#endif
#ifndef D3D11_FLOAT32_MAX
#define D3D11_FLOAT32_MAX (3.402823466e+38f)
#endif
// IUnknown is hand-declared by npt_types.h, so the registry gives it no IID constant.
inline constexpr GUID IID_IUnknown = {0x00000000, 0x0000, 0x0000, {0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};
// __uuidof(Interface) as on Windows compilers, for interface names only.
#ifndef __uuidof
#define __uuidof(type) IID_##type
#endif
#ifndef TRUE
#define TRUE 1
#define FALSE 0
#endif
#ifndef WINAPI
#define WINAPI
#endif
#ifndef SUCCEEDED
#define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#define FAILED(hr) (((HRESULT)(hr)) < 0)
#endif
#endif
