// SPDX-License-Identifier: MIT
#pragma once

// DDI interface and build versions: what OpenAdapter10_2, CalcPrivateDeviceSize and
// CreateDevice carry in Interface/Version, what GetSupportedVersions lists, and which
// device and DXGI tables a (Interface, Version) pair selects.
//
// Composition (documented: "Version Numbers for Direct3D Version 10.1", "Initializing
// Communication with the Direct3D Version 11 DDI"): Interface = major << 16 | minor,
// the minor bumped for every breaking DDI change; the high 16 bits of Version are the
// runtime's build (bumped for non-breaking changes, the only part a driver is told to
// compare); a GetSupportedVersions entry is Interface << 32 | build << 16.
//
// The numbers below are the values of the WDK's d3d10umddi.h "Versioning" section (the
// public pages print "..." for the D3D11 ones), read in a public copy of that header
// and cross-checked against what public driver projects that compile with the WDK
// observe: an iZ3D wrapper names Vista-platform-update D3D11 minor 9 and D3D10 minors
// 3/4; projects built with the WDK compare 11.1's minor against its RC's 14. The low
// 16 bits of Version are not a build: they carry the runtime's DXGI level
// (VISTA_GOLD_PRODUCT_VER | level for a D3D10 major, the level alone for D3D11), which
// selects the DXGI table (isDxgi1_1BaseFunctions below).

#include "triton/ddi/platform.h"

namespace triton::ddi {

constexpr UINT makeDdiInterface(UINT major, UINT minor) { return (major << 16) | minor; }
constexpr UINT64 makeDdiSupported(UINT interfaceVersion, UINT build) {
  return (UINT64(interfaceVersion) << 32) | (UINT64(build) << 16);
}
constexpr UINT ddiMajor(UINT interfaceVersion) { return interfaceVersion >> 16; }
constexpr UINT ddiMinor(UINT interfaceVersion) { return interfaceVersion & 0xffff; }
constexpr UINT ddiBuild(UINT version) { return version >> 16; }
constexpr UINT ddiDxgiLevel(UINT version) { return version & 0xffff; }   // low word of Version

// The low word of Version: the runtime's DXGI level.
inline constexpr UINT VISTA_GOLD_PRODUCT_VER = 6000;
inline constexpr UINT DXGI_QFE_1 = 8;                      // linked-adapter QFE (D3D10 runtimes)
inline constexpr UINT DXGI_RESOLVE_SHARED_RESOURCE = 9;    // DXGI 1.1 table: pfnResolveSharedResource
inline constexpr UINT DXGI_OFFER_RECLAIM = 10;             // offer/reclaim (DXGI 1.2 runtimes)

// D3D10.
inline constexpr UINT D3D10_DDI_MAJOR_VERSION = 10;
inline constexpr UINT D3D10_0_DDI_MINOR_VERSION = 1;
inline constexpr UINT D3D10_0_DDI_BUILD_VERSION = 4;
inline constexpr UINT D3D10_1_DDI_MINOR_VERSION = 2;
inline constexpr UINT D3D10_1_DDI_BUILD_VERSION = 1;
inline constexpr UINT D3D10on9_DDI_MINOR_VERSION = 0;
inline constexpr UINT D3D10_0_x_vista_DDI_MINOR_VERSION = 3;   // extended formats, Vista interop pack
inline constexpr UINT D3D10_1_x_vista_DDI_MINOR_VERSION = 4;
inline constexpr UINT D3D10_0_x_DDI_MINOR_VERSION = 6;         // extended formats, no Windows 7 scheduling
inline constexpr UINT D3D10_1_x_DDI_MINOR_VERSION = 7;
inline constexpr UINT D3D10_0_7_DDI_MINOR_VERSION = 9;         // Windows 7
inline constexpr UINT D3D10_1_7_DDI_MINOR_VERSION = 10;
inline constexpr UINT D3D10_x_DDI_BUILD_VERSION = 0;           // every variant above except 10.0/10.1

inline constexpr UINT D3D10_0_DDI_INTERFACE_VERSION = makeDdiInterface(D3D10_DDI_MAJOR_VERSION, D3D10_0_DDI_MINOR_VERSION);
inline constexpr UINT D3D10_1_DDI_INTERFACE_VERSION = makeDdiInterface(D3D10_DDI_MAJOR_VERSION, D3D10_1_DDI_MINOR_VERSION);
inline constexpr UINT D3D10on9_DDI_INTERFACE_VERSION = makeDdiInterface(D3D10_DDI_MAJOR_VERSION, D3D10on9_DDI_MINOR_VERSION);
inline constexpr UINT D3D10_0_7_DDI_INTERFACE_VERSION = makeDdiInterface(D3D10_DDI_MAJOR_VERSION, D3D10_0_7_DDI_MINOR_VERSION);
inline constexpr UINT D3D10_1_7_DDI_INTERFACE_VERSION = makeDdiInterface(D3D10_DDI_MAJOR_VERSION, D3D10_1_7_DDI_MINOR_VERSION);

// D3D11. The "vista" interface is the D3D11.0 runtime of the Vista platform update (build
// 0: no COMMANDLISTS_BUILD_2 semantics); D3D11_0 and D3D11_0_7 are build 2, the build
// that introduced D3D11DDICAPS_COMMANDLISTS_BUILD_2. 11.1's release candidate used
// minor 14; the released 11.1 is 15, build 0.
inline constexpr UINT D3D11_DDI_MAJOR_VERSION = 11;
inline constexpr UINT D3D11_0_vista_DDI_MINOR_VERSION = 9;
inline constexpr UINT D3D11_0_vista_DDI_BUILD_VERSION = 0;
inline constexpr UINT D3D11_0_DDI_MINOR_VERSION = 10;
inline constexpr UINT D3D11_0_DDI_BUILD_VERSION = 2;
inline constexpr UINT D3D11_0_7_DDI_MINOR_VERSION = 11;    // D3D11.0 on Windows 7
inline constexpr UINT D3D11_0_7_DDI_BUILD_VERSION = 2;
inline constexpr UINT D3D11_1_DDI_MINOR_VERSION_RC = 14;
inline constexpr UINT D3D11_1_DDI_BUILD_VERSION_RC = 1;
inline constexpr UINT D3D11_1_DDI_MINOR_VERSION = 15;      // D3D11.1 (Windows 8)
inline constexpr UINT D3D11_1_DDI_BUILD_VERSION = 0;
inline constexpr UINT D3DWDDM1_3_DDI_MINOR_VERSION = 16;   // Windows 8.1
inline constexpr UINT D3DWDDM1_3_DDI_BUILD_VERSION = 1;
// WDDM 2.0 (Windows 10). The header's minor 5 named interface minor 17, build 5 (a
// 175-member table); from its minor 6 the interface is minor 32, the build rising with
// the header (6, 7, 8, 9) as members were appended. Triton implements build 9's table.
inline constexpr UINT D3DWDDM2_0_DDI_MINOR_VERSION_PREVIEW = 17;
inline constexpr UINT D3DWDDM2_0_DDI_BUILD_VERSION_PREVIEW = 5;
inline constexpr UINT D3DWDDM2_0_DDI_MINOR_VERSION = 32;
inline constexpr UINT D3DWDDM2_0_DDI_BUILD_VERSION = 9;
// WDDM 2.1 (Windows 10 1607): build 1 in header minor 10, 2 in minor 11.
inline constexpr UINT D3DWDDM2_1_DDI_MINOR_VERSION = 34;
inline constexpr UINT D3DWDDM2_1_DDI_BUILD_VERSION = 2;

inline constexpr UINT D3D11_0_vista_DDI_INTERFACE_VERSION = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3D11_0_vista_DDI_MINOR_VERSION);
inline constexpr UINT D3D11_0_DDI_INTERFACE_VERSION = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3D11_0_DDI_MINOR_VERSION);
inline constexpr UINT D3D11_0_7_DDI_INTERFACE_VERSION = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3D11_0_7_DDI_MINOR_VERSION);
inline constexpr UINT D3D11_1_DDI_INTERFACE_VERSION_RC = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3D11_1_DDI_MINOR_VERSION_RC);
inline constexpr UINT D3D11_1_DDI_INTERFACE_VERSION = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3D11_1_DDI_MINOR_VERSION);
inline constexpr UINT D3DWDDM1_3_DDI_INTERFACE_VERSION = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3DWDDM1_3_DDI_MINOR_VERSION);
inline constexpr UINT D3DWDDM2_0_DDI_INTERFACE_VERSION_PREVIEW = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3DWDDM2_0_DDI_MINOR_VERSION_PREVIEW);
inline constexpr UINT D3DWDDM2_0_DDI_INTERFACE_VERSION = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3DWDDM2_0_DDI_MINOR_VERSION);
inline constexpr UINT D3DWDDM2_1_DDI_INTERFACE_VERSION = makeDdiInterface(D3D11_DDI_MAJOR_VERSION, D3DWDDM2_1_DDI_MINOR_VERSION);

inline constexpr UINT64 D3D11_0_vista_DDI_SUPPORTED = makeDdiSupported(D3D11_0_vista_DDI_INTERFACE_VERSION, D3D11_0_vista_DDI_BUILD_VERSION);
inline constexpr UINT64 D3D11_0_DDI_SUPPORTED = makeDdiSupported(D3D11_0_DDI_INTERFACE_VERSION, D3D11_0_DDI_BUILD_VERSION);
inline constexpr UINT64 D3D11_0_7_DDI_SUPPORTED = makeDdiSupported(D3D11_0_7_DDI_INTERFACE_VERSION, D3D11_0_7_DDI_BUILD_VERSION);
inline constexpr UINT64 D3D11_1_DDI_SUPPORTED = makeDdiSupported(D3D11_1_DDI_INTERFACE_VERSION, D3D11_1_DDI_BUILD_VERSION);
inline constexpr UINT64 D3DWDDM1_3_DDI_SUPPORTED = makeDdiSupported(D3DWDDM1_3_DDI_INTERFACE_VERSION, D3DWDDM1_3_DDI_BUILD_VERSION);
inline constexpr UINT64 D3DWDDM2_0_DDI_SUPPORTED = makeDdiSupported(D3DWDDM2_0_DDI_INTERFACE_VERSION, D3DWDDM2_0_DDI_BUILD_VERSION);
inline constexpr UINT64 D3DWDDM2_1_DDI_SUPPORTED = makeDdiSupported(D3DWDDM2_1_DDI_INTERFACE_VERSION, D3DWDDM2_1_DDI_BUILD_VERSION);

// The device table an interface version selects (D3D10DDIARG_CREATEDEVICE union).
enum class DeviceTableKind { None, D3D10_0, D3D10_1, D3D11_0, D3D11_1, WDDM1_3, WDDM2_0, WDDM2_1 };

constexpr DeviceTableKind deviceTableFor(UINT interfaceVersion) {
  switch (interfaceVersion) {
    case D3D10_0_DDI_INTERFACE_VERSION: return DeviceTableKind::D3D10_0;
    case D3D10_1_DDI_INTERFACE_VERSION: return DeviceTableKind::D3D10_1;
    case D3D11_0_vista_DDI_INTERFACE_VERSION:
    case D3D11_0_DDI_INTERFACE_VERSION:
    case D3D11_0_7_DDI_INTERFACE_VERSION: return DeviceTableKind::D3D11_0;
    case D3D11_1_DDI_INTERFACE_VERSION: return DeviceTableKind::D3D11_1;
    case D3DWDDM1_3_DDI_INTERFACE_VERSION: return DeviceTableKind::WDDM1_3;
    case D3DWDDM2_0_DDI_INTERFACE_VERSION: return DeviceTableKind::WDDM2_0;
    case D3DWDDM2_1_DDI_INTERFACE_VERSION: return DeviceTableKind::WDDM2_1;
    default: return DeviceTableKind::None;
  }
}

// The WDK's IS_DXGI1_1_BASE_FUNCTIONS: the runtime passes DXGI1_1_DDI_BASE_FUNCTIONS
// (with pfnResolveSharedResource) when the low word of Version reaches the resolve
// level - Vista's product version or'ed with it for a D3D10 major - and for every
// major above 11; otherwise the seven-member DXGI_DDI_BASE_FUNCTIONS.
constexpr bool isDxgi1_1BaseFunctions(UINT interfaceVersion, UINT version) {
  const UINT major = ddiMajor(interfaceVersion);
  return (major == D3D10_DDI_MAJOR_VERSION &&
          ddiDxgiLevel(version) >= (VISTA_GOLD_PRODUCT_VER | DXGI_RESOLVE_SHARED_RESOURCE)) ||
         (major == D3D11_DDI_MAJOR_VERSION && ddiDxgiLevel(version) >= DXGI_RESOLVE_SHARED_RESOURCE) ||
         major > D3D11_DDI_MAJOR_VERSION;
}

// IS_DXGI1_2_BASE_FUNCTIONS: D3D11 interfaces from 11.1's RC minor on (any Version).
constexpr bool isDxgi1_2BaseFunctions(UINT interfaceVersion, UINT) {
  return (ddiMajor(interfaceVersion) == D3D11_DDI_MAJOR_VERSION &&
          ddiMinor(interfaceVersion) >= D3D11_1_DDI_MINOR_VERSION_RC) ||
         ddiMajor(interfaceVersion) > D3D11_DDI_MAJOR_VERSION;
}

// IS_DXGI_MULTIPLANE_OVERLAY_FUNCTIONS: the DXGI 1.2 table's four multiplane-overlay
// members are part of the table the driver fills. The second clause (a minor above
// the RC's) holds for the released 11.1 interface whatever its build, so a D3D11.1
// device fills them too.
constexpr bool isDxgiMultiplaneOverlayFunctions(UINT interfaceVersion, UINT version) {
  return (interfaceVersion == D3D11_1_DDI_INTERFACE_VERSION && ddiBuild(version) > 0) ||
         (ddiMajor(interfaceVersion) == D3D11_DDI_MAJOR_VERSION &&
          ddiMinor(interfaceVersion) > D3D11_1_DDI_MINOR_VERSION_RC) ||
         ddiMajor(interfaceVersion) > D3D11_DDI_MAJOR_VERSION;
}

// IS_DXGI1_3_BASE_FUNCTIONS: WDDM 1.3 interfaces and later.
constexpr bool isDxgi1_3BaseFunctions(UINT interfaceVersion, UINT) {
  return interfaceVersion >= D3DWDDM1_3_DDI_INTERFACE_VERSION;
}

// IS_DXGI1_4_BASE_FUNCTIONS: WDDM 2.0 interfaces and later (the DXGI 1.4 table).
constexpr bool isDxgi1_4BaseFunctions(UINT interfaceVersion, UINT) {
  return interfaceVersion >= D3DWDDM2_0_DDI_INTERFACE_VERSION;
}

// IS_DXGI1_5_BASE_FUNCTIONS: WDDM 2.1 interfaces and later (the DXGI 1.5 table).
constexpr bool isDxgi1_5BaseFunctions(UINT interfaceVersion, UINT) {
  return interfaceVersion >= D3DWDDM2_1_DDI_INTERFACE_VERSION;
}

// The DXGI base-function table a (Interface, Version) pair selects, newest first as the
// WDK's macros are tested.
enum class DxgiTableKind { Dxgi1_0, Dxgi1_1, Dxgi1_2, Dxgi1_3, Dxgi1_4, Dxgi1_5 };

constexpr DxgiTableKind dxgiTableFor(UINT interfaceVersion, UINT version) {
  if (isDxgi1_5BaseFunctions(interfaceVersion, version)) return DxgiTableKind::Dxgi1_5;
  if (isDxgi1_4BaseFunctions(interfaceVersion, version)) return DxgiTableKind::Dxgi1_4;
  if (isDxgi1_3BaseFunctions(interfaceVersion, version)) return DxgiTableKind::Dxgi1_3;
  if (isDxgi1_2BaseFunctions(interfaceVersion, version)) return DxgiTableKind::Dxgi1_2;
  if (isDxgi1_1BaseFunctions(interfaceVersion, version)) return DxgiTableKind::Dxgi1_1;
  return DxgiTableKind::Dxgi1_0;
}

}  // namespace triton::ddi
