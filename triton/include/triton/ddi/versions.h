#pragma once

// DDI interface and build versions: what OpenAdapter10_2, CalcPrivateDeviceSize and
// CreateDevice carry in Interface/Version, and what GetSupportedVersions lists.
//
// Composition (documented): Interface = major << 16 | minor; the runtime's build
// version is the high 16 bits of Version, its revision the low 16 bits; a
// GetSupportedVersions entry is Interface << 32 | build << 16 ("Version Numbers for
// Direct3D Version 10.1", "Initializing Communication with the Direct3D Version 11
// DDI"). The D3D10.0/10.1 minor and build numbers are on the first page.
//
// UNVERIFIED: the D3D11 minor and build numbers are printed as "..." on the public
// pages. The values below are the project's best information (the D3D11.1 minor
// number 15 is quoted by a public driver project that compares it with the 11.1
// RC minor 14); they must be checked against a WDK before Triton is loaded by
// Microsoft's runtime. Triton's driver and its harness both use these constants, so
// the tests check negotiation, not the numbers.

#include "triton/ddi/platform.h"

namespace triton::ddi {

constexpr UINT makeDdiInterface(UINT major, UINT minor) { return (major << 16) | minor; }
constexpr UINT64 makeDdiSupported(UINT interfaceVersion, UINT build) {
  return (UINT64(interfaceVersion) << 32) | (UINT64(build) << 16);
}
constexpr UINT ddiMajor(UINT interfaceVersion) { return interfaceVersion >> 16; }
constexpr UINT ddiBuild(UINT version) { return version >> 16; }

// D3D10 (documented).
inline constexpr UINT D3D10_DDI_MAJOR_VERSION = 10;
inline constexpr UINT D3D10_0_DDI_MINOR_VERSION = 1;
inline constexpr UINT D3D10_0_DDI_INTERFACE_VERSION = makeDdiInterface(D3D10_DDI_MAJOR_VERSION, D3D10_0_DDI_MINOR_VERSION);
inline constexpr UINT D3D10_0_DDI_BUILD_VERSION = 4;
inline constexpr UINT D3D10_1_DDI_MINOR_VERSION = 2;
inline constexpr UINT D3D10_1_DDI_INTERFACE_VERSION = makeDdiInterface(D3D10_DDI_MAJOR_VERSION, D3D10_1_DDI_MINOR_VERSION);
inline constexpr UINT D3D10_1_DDI_BUILD_VERSION = 1;

// D3D11 (major documented; minor and build UNVERIFIED, see above).
inline constexpr UINT D3D11_DDI_MAJOR_VERSION = 11;
inline constexpr UINT D3D11_0_DDI_MINOR_VERSION = 1;     // D3D11.0 runtime on Vista
inline constexpr UINT D3D11_0_DDI_BUILD_VERSION = 1;
inline constexpr UINT D3D11_0_7_DDI_MINOR_VERSION = 9;   // D3D11.0 runtime on Windows 7
inline constexpr UINT D3D11_0_7_DDI_BUILD_VERSION = 1;
inline constexpr UINT D3D11_1_DDI_MINOR_VERSION = 15;    // D3D11.1 (Windows 8)
inline constexpr UINT D3D11_1_DDI_BUILD_VERSION = 3;

inline constexpr UINT D3D11_0_DDI_INTERFACE_VERSION = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3D11_0_DDI_MINOR_VERSION);
inline constexpr UINT D3D11_0_7_DDI_INTERFACE_VERSION = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3D11_0_7_DDI_MINOR_VERSION);
inline constexpr UINT D3D11_1_DDI_INTERFACE_VERSION = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3D11_1_DDI_MINOR_VERSION);

inline constexpr UINT64 D3D11_0_DDI_SUPPORTED = makeDdiSupported(D3D11_0_DDI_INTERFACE_VERSION, D3D11_0_DDI_BUILD_VERSION);
inline constexpr UINT64 D3D11_0_7_DDI_SUPPORTED = makeDdiSupported(D3D11_0_7_DDI_INTERFACE_VERSION, D3D11_0_7_DDI_BUILD_VERSION);
inline constexpr UINT64 D3D11_1_DDI_SUPPORTED = makeDdiSupported(D3D11_1_DDI_INTERFACE_VERSION, D3D11_1_DDI_BUILD_VERSION);

// The device table an interface version selects (D3D10DDIARG_CREATEDEVICE union).
enum class DeviceTableKind { None, D3D10_0, D3D10_1, D3D11_0, D3D11_1 };

constexpr DeviceTableKind deviceTableFor(UINT interfaceVersion) {
  switch (interfaceVersion) {
    case D3D10_0_DDI_INTERFACE_VERSION: return DeviceTableKind::D3D10_0;
    case D3D10_1_DDI_INTERFACE_VERSION: return DeviceTableKind::D3D10_1;
    case D3D11_0_DDI_INTERFACE_VERSION:
    case D3D11_0_7_DDI_INTERFACE_VERSION: return DeviceTableKind::D3D11_0;
    case D3D11_1_DDI_INTERFACE_VERSION: return DeviceTableKind::D3D11_1;
    default: return DeviceTableKind::None;
  }
}

// The DXGI base-function table that comes with a device table: D3D11.1 runtimes
// (Windows 8) pass DXGI1_2_DDI_BASE_FUNCTIONS, the D3D11.0 runtimes (Windows 7 and the
// Vista platform update, both with shared-resource resolve) DXGI1_1.
enum class DxgiTableKind { None, Dxgi1_0, Dxgi1_1, Dxgi1_2 };

constexpr DxgiTableKind dxgiTableFor(UINT interfaceVersion) {
  switch (deviceTableFor(interfaceVersion)) {
    case DeviceTableKind::D3D11_1: return DxgiTableKind::Dxgi1_2;
    case DeviceTableKind::D3D11_0: return DxgiTableKind::Dxgi1_1;
    case DeviceTableKind::D3D10_0:
    case DeviceTableKind::D3D10_1: return DxgiTableKind::Dxgi1_0;
    default: return DxgiTableKind::None;
  }
}

}  // namespace triton::ddi
