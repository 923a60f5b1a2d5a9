// SPDX-License-Identifier: MIT
// The DXGI factory, adapter and output objects over a host description built in the
// test (no server): refcounts, QueryInterface chains, descs and HRESULTs as Windows
// reports them (Wine's dxgi tests, cited per case).
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>

#include <d3d10_1.h>
#include <d3d11.h>

#include "dxgi/adapter.h"
#include "dxgi/factory.h"
#include "dxgi/output.h"
#include "host_caps.h"

using namespace npt::guest;
using npt::protocol::HostInfo;

namespace {

ULONG refcount(IUnknown* object) {
  object->AddRef();
  return object->Release();
}

DXGI_MODE_DESC mode(UINT w, UINT h, UINT hz, DXGI_FORMAT f) {
  DXGI_MODE_DESC m = {};
  m.Width = w;
  m.Height = h;
  m.RefreshRate = { hz, 1 };
  m.Format = f;
  m.ScanlineOrdering = DXGI_MODE_SCANLINE_ORDER_PROGRESSIVE;
  return m;
}

const HostInfo& hostInfo() {
  static HostInfo info = [] {
    HostInfo h;
    const char16_t name[] = u"Neptune test adapter";
    for (size_t i = 0; name[i]; i++)
      h.adapter.description[i] = uint16_t(name[i]);
    h.adapter.vendorId = 0x10de;
    h.adapter.deviceId = 0x2204;
    h.adapter.subSysId = 0x1234;
    h.adapter.revision = 0xa1;
    h.adapter.dedicatedVideoMemory = 8ull << 30;
    h.adapter.sharedSystemMemory = 16ull << 30;
    h.adapter.luid = { 0x1234, 0x56 };
    for (int o = 0; o < 2; o++) {
      npt::protocol::HostOutput out;
      const char16_t* dev = o ? u"\\\\.\\DISPLAY2" : u"\\\\.\\DISPLAY1";
      for (size_t i = 0; dev[i]; i++)
        out.deviceName[i] = uint16_t(dev[i]);
      out.desktopCoordinates = { LONG(o * 1280), 0, LONG(o * 1280 + 1280), 1024 };
      out.attachedToDesktop = TRUE;
      out.rotation = DXGI_MODE_ROTATION_IDENTITY;
      for (DXGI_FORMAT f : { DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM }) {
        out.modes.push_back(mode(1280, 1024, 100, f));
        out.modes.push_back(mode(640, 480, 60, f));
        out.modes.push_back(mode(1024, 768, 60, f));
      }
      h.outputs.push_back(out);
    }
    return h;
  }();
  return info;
}

struct Objects {
  ComRef<dxgi::Factory> factory;
  Objects() { *factory.put() = dxgi::Factory::create(&hostInfo(), 0); }
  ~Objects() = default;
};

}

TEST(DxgiFactory, QueryInterfaceChainAndParent) {
  Objects o;
  EXPECT_EQ(refcount(o.factory.get()), 1u);
  for (const IID& iid : { __uuidof(IUnknown), __uuidof(IDXGIObject), __uuidof(IDXGIFactory), __uuidof(IDXGIFactory1),
                          __uuidof(IDXGIFactory2), __uuidof(IDXGIFactory3), __uuidof(IDXGIFactory4),
                          __uuidof(IDXGIFactory5), __uuidof(IDXGIFactory6), __uuidof(IDXGIFactory7) }) {
    IUnknown* out = nullptr;
    ASSERT_EQ(o.factory->QueryInterface(iid, reinterpret_cast<void**>(&out)), S_OK);
    EXPECT_EQ(static_cast<void*>(out), static_cast<void*>(o.factory.get()));
    EXPECT_EQ(refcount(o.factory.get()), 2u);
    out->Release();
  }
  IUnknown* out = reinterpret_cast<IUnknown*>(0x1);
  EXPECT_EQ(o.factory->QueryInterface(__uuidof(IDXGIAdapter), reinterpret_cast<void**>(&out)), E_NOINTERFACE);
  EXPECT_EQ(out, nullptr);
  // test_parents: a factory has no parent.
  out = reinterpret_cast<IUnknown*>(0x1);
  EXPECT_EQ(o.factory->GetParent(__uuidof(IUnknown), reinterpret_cast<void**>(&out)), E_NOINTERFACE);
  EXPECT_EQ(out, nullptr);
}

TEST(DxgiFactory, EnumAdaptersGivesNewInstancesHoldingTheFactory) {
  Objects o;
  IDXGIAdapter *a1 = nullptr, *a2 = nullptr;
  ASSERT_EQ(o.factory->EnumAdapters(0, &a1), S_OK);
  ASSERT_EQ(o.factory->EnumAdapters(0, &a2), S_OK);
  // test_output_desc: a new adapter per call, each holding the factory once.
  EXPECT_NE(a1, a2);
  EXPECT_EQ(refcount(a1), 1u);
  EXPECT_EQ(refcount(o.factory.get()), 3u);
  a2->Release();
  EXPECT_EQ(refcount(o.factory.get()), 2u);
  IDXGIFactory* parent = nullptr;
  ASSERT_EQ(a1->GetParent(__uuidof(IDXGIFactory), reinterpret_cast<void**>(&parent)), S_OK);
  EXPECT_EQ(static_cast<void*>(parent), static_cast<void*>(o.factory.get()));
  parent->Release();
  EXPECT_EQ(a1->Release(), 0u);
  EXPECT_EQ(refcount(o.factory.get()), 1u);

  EXPECT_EQ(o.factory->EnumAdapters(1, &a1), DXGI_ERROR_NOT_FOUND);
  EXPECT_EQ(a1, nullptr);
  EXPECT_EQ(o.factory->EnumAdapters(0, nullptr), DXGI_ERROR_INVALID_CALL);
  IDXGIAdapter1* a = nullptr;
  ASSERT_EQ(o.factory->EnumAdapters1(0, &a), S_OK);
  a->Release();
  EXPECT_EQ(o.factory->EnumAdapters1(1, &a), DXGI_ERROR_NOT_FOUND);
}

TEST(DxgiFactory, EnumAdapterByLuidWarpAndPreference) {
  Objects o;
  IDXGIAdapter* adapter = nullptr;
  // test_adapter_luid.
  ASSERT_EQ(o.factory->EnumAdapterByLuid(hostInfo().adapter.luid, __uuidof(IDXGIAdapter),
                                         reinterpret_cast<void**>(&adapter)), S_OK);
  adapter->Release();
  LUID other = { 0xdeadbeef, LONG(0xdeadbeef) };
  EXPECT_EQ(o.factory->EnumAdapterByLuid(other, __uuidof(IDXGIAdapter), reinterpret_cast<void**>(&adapter)),
            DXGI_ERROR_NOT_FOUND);
  EXPECT_EQ(o.factory->EnumAdapterByLuid(hostInfo().adapter.luid, __uuidof(IDXGIAdapter), nullptr),
            DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(o.factory->EnumWarpAdapter(__uuidof(IDXGIAdapter), reinterpret_cast<void**>(&adapter)),
            DXGI_ERROR_NOT_FOUND);
  for (DXGI_GPU_PREFERENCE p : { DXGI_GPU_PREFERENCE_UNSPECIFIED, DXGI_GPU_PREFERENCE_MINIMUM_POWER,
                                 DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE }) {
    IDXGIAdapter4* a4 = nullptr;
    ASSERT_EQ(o.factory->EnumAdapterByGpuPreference(0, p, __uuidof(IDXGIAdapter4), reinterpret_cast<void**>(&a4)), S_OK);
    a4->Release();
    EXPECT_EQ(o.factory->EnumAdapterByGpuPreference(1, p, __uuidof(IDXGIAdapter4), reinterpret_cast<void**>(&a4)),
              DXGI_ERROR_NOT_FOUND);
  }
  EXPECT_EQ(o.factory->EnumAdapterByGpuPreference(0, DXGI_GPU_PREFERENCE(3), __uuidof(IDXGIAdapter),
                                                  reinterpret_cast<void**>(&adapter)), E_INVALIDARG);
  EXPECT_EQ(refcount(o.factory.get()), 1u);
}

TEST(DxgiFactory, FeaturesWindowAssociationStatusAndFlags) {
  Objects o;
  BOOL tearing = FALSE;
  EXPECT_EQ(o.factory->CheckFeatureSupport(DXGI_FEATURE_PRESENT_ALLOW_TEARING, &tearing, sizeof(tearing)), S_OK);
  EXPECT_TRUE(tearing);
  // test_factory_check_feature_support: a wrong size is an invalid call.
  EXPECT_EQ(o.factory->CheckFeatureSupport(DXGI_FEATURE_PRESENT_ALLOW_TEARING, &tearing, sizeof(tearing) - 1),
            DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(o.factory->CheckFeatureSupport(DXGI_FEATURE_PRESENT_ALLOW_TEARING, &tearing, sizeof(tearing) + 1),
            DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(o.factory->CheckFeatureSupport(DXGI_FEATURE(0x12345678), &tearing, sizeof(tearing)), DXGI_ERROR_INVALID_CALL);

  HWND window = CreateWindowA("static", "dxgi_test", 0, 0, 0, 0, 0, nullptr, nullptr, nullptr, nullptr);
  EXPECT_EQ(o.factory->MakeWindowAssociation(window, DXGI_MWA_VALID + 1), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(o.factory->MakeWindowAssociation(window, DXGI_MWA_NO_ALT_ENTER), S_OK);
  HWND associated = nullptr;
  EXPECT_EQ(o.factory->GetWindowAssociation(&associated), S_OK);
  EXPECT_EQ(associated, window);
  EXPECT_EQ(o.factory->GetWindowAssociation(nullptr), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(o.factory->MakeWindowAssociation(nullptr, 0), S_OK);

  DWORD cookie1 = 0, cookie2 = 0;
  HANDLE event = CreateEventW(nullptr, FALSE, FALSE, nullptr);
  EXPECT_EQ(o.factory->RegisterOcclusionStatusEvent(event, &cookie1), S_OK);
  EXPECT_EQ(o.factory->RegisterStereoStatusWindow(window, WM_USER, &cookie2), S_OK);
  EXPECT_NE(cookie1, cookie2);
  EXPECT_EQ(o.factory->RegisterOcclusionStatusEvent(nullptr, &cookie1), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(o.factory->RegisterStereoStatusEvent(event, nullptr), DXGI_ERROR_INVALID_CALL);
  o.factory->UnregisterOcclusionStatus(cookie1);
  o.factory->UnregisterStereoStatus(cookie2);
  EXPECT_EQ(o.factory->RegisterAdaptersChangedEvent(event, &cookie1), S_OK);
  EXPECT_EQ(o.factory->UnregisterAdaptersChangedEvent(cookie1), S_OK);
  EXPECT_EQ(o.factory->UnregisterAdaptersChangedEvent(cookie1), DXGI_ERROR_NOT_FOUND);
  CloseHandle(event);

  EXPECT_TRUE(o.factory->IsCurrent());
  EXPECT_FALSE(o.factory->IsWindowedStereoEnabled());
  EXPECT_EQ(o.factory->GetCreationFlags(), 0u);
  ComRef<dxgi::Factory> debug;
  *debug.put() = dxgi::Factory::create(&hostInfo(), DXGI_CREATE_FACTORY_DEBUG);
  EXPECT_EQ(debug->GetCreationFlags(), UINT(DXGI_CREATE_FACTORY_DEBUG));
  DestroyWindow(window);
}

TEST(DxgiFactory, SwapChainCreationArguments) {
  Objects o;
  HWND window = CreateWindowA("static", "dxgi_test", 0, 0, 0, 640, 480, nullptr, nullptr, nullptr, nullptr);
  DXGI_SWAP_CHAIN_DESC desc = {};
  desc.BufferDesc.Width = 640;
  desc.BufferDesc.Height = 480;
  desc.BufferDesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.SampleDesc.Count = 1;
  desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
  desc.BufferCount = 1;
  desc.OutputWindow = window;
  desc.Windowed = TRUE;
  IDXGISwapChain* swapchain = reinterpret_cast<IDXGISwapChain*>(0x1);
  // test_create_swapchain: missing device, desc, out pointer or window.
  IUnknown* notADevice = o.factory.get();
  EXPECT_EQ(o.factory->CreateSwapChain(nullptr, &desc, &swapchain), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(o.factory->CreateSwapChain(notADevice, nullptr, &swapchain), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(o.factory->CreateSwapChain(notADevice, &desc, nullptr), DXGI_ERROR_INVALID_CALL);
  desc.OutputWindow = nullptr;
  EXPECT_EQ(o.factory->CreateSwapChain(notADevice, &desc, &swapchain), DXGI_ERROR_INVALID_CALL);
  desc.OutputWindow = window;
  // Validation comes before the device: an unknown format is E_INVALIDARG.
  desc.BufferDesc.Format = DXGI_FORMAT_UNKNOWN;
  EXPECT_EQ(o.factory->CreateSwapChain(notADevice, &desc, &swapchain), E_INVALIDARG);
  desc.BufferDesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  // Something that is not a Neptune device cannot back a swapchain.
  EXPECT_EQ(o.factory->CreateSwapChain(notADevice, &desc, &swapchain), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(swapchain, nullptr);

  DXGI_SWAP_CHAIN_DESC1 desc1 = {};
  desc1.Width = 640;
  desc1.Height = 480;
  desc1.Format = DXGI_FORMAT_B8G8R8A8_UNORM;
  desc1.SampleDesc.Count = 1;
  desc1.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
  desc1.BufferCount = 2;
  desc1.SwapEffect = DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL;
  IDXGISwapChain1* swapchain1 = nullptr;
  EXPECT_EQ(o.factory->CreateSwapChainForHwnd(notADevice, nullptr, &desc1, nullptr, nullptr, &swapchain1),
            DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(o.factory->CreateSwapChainForComposition(notADevice, &desc1, nullptr, &swapchain1), DXGI_ERROR_UNSUPPORTED);
  desc1.SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
  EXPECT_EQ(o.factory->CreateSwapChainForComposition(notADevice, &desc1, nullptr, &swapchain1), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(o.factory->CreateSwapChainForCoreWindow(notADevice, notADevice, &desc1, nullptr, &swapchain1),
            DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(refcount(o.factory.get()), 1u);
  DestroyWindow(window);
}

TEST(DxgiAdapter, DescsFromTheHost) {
  Objects o;
  ComRef<IDXGIAdapter> adapter;
  ASSERT_EQ(o.factory->EnumAdapters(0, adapter.put()), S_OK);
  // test_adapter_desc.
  EXPECT_EQ(adapter->GetDesc(nullptr), E_INVALIDARG);
  DXGI_ADAPTER_DESC desc;
  ASSERT_EQ(adapter->GetDesc(&desc), S_OK);
  EXPECT_EQ(std::wstring(desc.Description), L"Neptune test adapter");
  EXPECT_EQ(desc.VendorId, 0x10deu);
  EXPECT_EQ(desc.DeviceId, 0x2204u);
  EXPECT_EQ(desc.SubSysId, 0x1234u);
  EXPECT_EQ(desc.Revision, 0xa1u);
  EXPECT_EQ(desc.DedicatedVideoMemory, SIZE_T(8ull << 30));
  EXPECT_EQ(desc.SharedSystemMemory, SIZE_T(16ull << 30));
  EXPECT_EQ(desc.AdapterLuid.LowPart, 0x1234u);
  EXPECT_EQ(desc.AdapterLuid.HighPart, 0x56);

  ComRef<IDXGIAdapter4> adapter4;
  ASSERT_EQ(adapter->QueryInterface(__uuidof(IDXGIAdapter4), reinterpret_cast<void**>(adapter4.put())), S_OK);
  DXGI_ADAPTER_DESC1 desc1;
  DXGI_ADAPTER_DESC2 desc2;
  DXGI_ADAPTER_DESC3 desc3;
  ASSERT_EQ(adapter4->GetDesc1(&desc1), S_OK);
  ASSERT_EQ(adapter4->GetDesc2(&desc2), S_OK);
  ASSERT_EQ(adapter4->GetDesc3(&desc3), S_OK);
  EXPECT_EQ(adapter4->GetDesc1(nullptr), E_INVALIDARG);
  EXPECT_EQ(adapter4->GetDesc2(nullptr), E_INVALIDARG);
  EXPECT_EQ(adapter4->GetDesc3(nullptr), E_INVALIDARG);
  EXPECT_EQ(memcmp(&desc1, &desc, sizeof(desc)), 0);
  EXPECT_EQ(desc1.Flags, 0u);
  EXPECT_EQ(memcmp(&desc2, &desc1, sizeof(desc1)), 0);
  EXPECT_EQ(desc3.VendorId, desc.VendorId);
  EXPECT_EQ(desc3.GraphicsPreemptionGranularity, DXGI_GRAPHICS_PREEMPTION_DMA_BUFFER_BOUNDARY);
}

TEST(DxgiAdapter, InterfaceSupportAndVideoMemory) {
  Objects o;
  ComRef<IDXGIAdapter3> adapter;
  ASSERT_EQ(o.factory->EnumAdapterByGpuPreference(0, DXGI_GPU_PREFERENCE_UNSPECIFIED, __uuidof(IDXGIAdapter3),
                                                  reinterpret_cast<void**>(adapter.put())), S_OK);
  // test_check_interface_support.
  LARGE_INTEGER version = {};
  EXPECT_EQ(adapter->CheckInterfaceSupport(__uuidof(IDXGIDevice), nullptr), S_OK);
  EXPECT_EQ(adapter->CheckInterfaceSupport(__uuidof(IDXGIDevice), &version), S_OK);
  EXPECT_NE(version.QuadPart, 0);
  EXPECT_EQ(adapter->CheckInterfaceSupport(__uuidof(ID3D10Device), &version), S_OK);
  version.LowPart = 0xdeadbeef;
  version.HighPart = LONG(0xdeadbeef);
  EXPECT_EQ(adapter->CheckInterfaceSupport(__uuidof(ID3D11Device), &version), DXGI_ERROR_UNSUPPORTED);
  EXPECT_EQ(version.LowPart, 0xdeadbeefu);
  EXPECT_EQ(version.HighPart, LONG(0xdeadbeef));

  // test_query_video_memory_info.
  DXGI_QUERY_VIDEO_MEMORY_INFO info;
  ASSERT_EQ(adapter->QueryVideoMemoryInfo(0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, &info), S_OK);
  EXPECT_EQ(info.Budget, 8ull << 30);
  EXPECT_GE(info.Budget, info.AvailableForReservation);
  EXPECT_EQ(info.CurrentReservation, 0u);
  ASSERT_EQ(adapter->QueryVideoMemoryInfo(0, DXGI_MEMORY_SEGMENT_GROUP_NON_LOCAL, &info), S_OK);
  EXPECT_EQ(info.Budget, 16ull << 30);
  EXPECT_EQ(adapter->QueryVideoMemoryInfo(0, DXGI_MEMORY_SEGMENT_GROUP(2), &info), E_INVALIDARG);
  EXPECT_EQ(adapter->QueryVideoMemoryInfo(1, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, &info), E_INVALIDARG);
  EXPECT_EQ(adapter->SetVideoMemoryReservation(0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, 1 << 20), S_OK);
  ASSERT_EQ(adapter->QueryVideoMemoryInfo(0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, &info), S_OK);
  EXPECT_EQ(info.CurrentReservation, 1u << 20);
  EXPECT_EQ(adapter->SetVideoMemoryReservation(0, DXGI_MEMORY_SEGMENT_GROUP_LOCAL, 8ull << 30), E_INVALIDARG);
}

TEST(DxgiOutput, EnumerationRefcountsAndDescs) {
  Objects o;
  ComRef<IDXGIAdapter> adapter;
  ASSERT_EQ(o.factory->EnumAdapters(0, adapter.put()), S_OK);
  // test_output: a NULL out pointer is E_INVALIDARG.
  EXPECT_EQ(adapter->EnumOutputs(0, nullptr), E_INVALIDARG);
  IDXGIOutput *output = nullptr, *output2 = nullptr;
  ASSERT_EQ(adapter->EnumOutputs(0, &output), S_OK);
  ASSERT_EQ(adapter->EnumOutputs(0, &output2), S_OK);
  // test_output_desc: new instances; each holds the adapter, not the factory.
  EXPECT_NE(output, output2);
  EXPECT_EQ(refcount(adapter.get()), 3u);
  EXPECT_EQ(refcount(o.factory.get()), 2u);
  output2->Release();
  EXPECT_EQ(refcount(output), 1u);
  EXPECT_EQ(adapter->EnumOutputs(2, &output2), DXGI_ERROR_NOT_FOUND);

  IDXGIAdapter* parent = nullptr;
  ASSERT_EQ(output->GetParent(__uuidof(IDXGIAdapter), reinterpret_cast<void**>(&parent)), S_OK);
  EXPECT_EQ(parent, adapter.get());
  parent->Release();

  DXGI_OUTPUT_DESC desc;
  EXPECT_EQ(output->GetDesc(nullptr), E_INVALIDARG);
  ASSERT_EQ(output->GetDesc(&desc), S_OK);
  EXPECT_EQ(std::wstring(desc.DeviceName), L"\\\\.\\DISPLAY1");
  EXPECT_EQ(desc.DesktopCoordinates.right, 1280);
  EXPECT_EQ(desc.DesktopCoordinates.bottom, 1024);
  EXPECT_TRUE(desc.AttachedToDesktop);
  EXPECT_EQ(desc.Rotation, DXGI_MODE_ROTATION_IDENTITY);
  EXPECT_NE(desc.Monitor, nullptr);

  ComRef<IDXGIOutput6> output6;
  ASSERT_EQ(output->QueryInterface(__uuidof(IDXGIOutput6), reinterpret_cast<void**>(output6.put())), S_OK);
  DXGI_OUTPUT_DESC1 desc1;
  ASSERT_EQ(output6->GetDesc1(&desc1), S_OK);
  EXPECT_EQ(std::wstring(desc1.DeviceName), std::wstring(desc.DeviceName));
  EXPECT_EQ(desc1.BitsPerColor, 8u);
  EXPECT_EQ(desc1.ColorSpace, DXGI_COLOR_SPACE_RGB_FULL_G22_NONE_P709);
  UINT flags = 1;
  EXPECT_EQ(output6->CheckHardwareCompositionSupport(&flags), S_OK);
  EXPECT_EQ(flags, 0u);
  output6.reset();
  EXPECT_EQ(output->Release(), 0u);
  EXPECT_EQ(refcount(adapter.get()), 1u);
}

TEST(DxgiOutput, ModeListsAndClosestMatch) {
  Objects o;
  ComRef<IDXGIAdapter> adapter;
  ASSERT_EQ(o.factory->EnumAdapters(0, adapter.put()), S_OK);
  ComRef<IDXGIOutput> output;
  ASSERT_EQ(adapter->EnumOutputs(0, output.put()), S_OK);
  UINT count = 0;
  EXPECT_EQ(output->GetDisplayModeList(DXGI_FORMAT_R8G8B8A8_UNORM, 0, nullptr, nullptr), DXGI_ERROR_INVALID_CALL);
  ASSERT_EQ(output->GetDisplayModeList(DXGI_FORMAT_R8G8B8A8_UNORM, 0, &count, nullptr), S_OK);
  EXPECT_EQ(count, 3u);
  DXGI_MODE_DESC modes[3];
  ASSERT_EQ(output->GetDisplayModeList(DXGI_FORMAT_R8G8B8A8_UNORM, 0, &count, modes), S_OK);
  EXPECT_EQ(modes[0].Width, 640u);
  EXPECT_EQ(modes[2].Width, 1280u);
  ASSERT_EQ(output->GetDisplayModeList(DXGI_FORMAT_UNKNOWN, 0, &count, nullptr), S_OK);
  EXPECT_EQ(count, 0u);

  ComRef<IDXGIOutput1> output1;
  ASSERT_EQ(output->QueryInterface(__uuidof(IDXGIOutput1), reinterpret_cast<void**>(output1.put())), S_OK);
  DXGI_MODE_DESC1 modes1[3];
  count = 3;
  ASSERT_EQ(output1->GetDisplayModeList1(DXGI_FORMAT_B8G8R8A8_UNORM_SRGB, 0, &count, modes1), S_OK);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(modes1[1].Format, DXGI_FORMAT_B8G8R8A8_UNORM_SRGB);
  EXPECT_FALSE(modes1[1].Stereo);

  DXGI_MODE_DESC wanted = {}, closest;
  EXPECT_EQ(output->FindClosestMatchingMode(&wanted, &closest, nullptr), DXGI_ERROR_INVALID_CALL);
  wanted.Width = 1000;
  wanted.Height = 700;
  wanted.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  ASSERT_EQ(output->FindClosestMatchingMode(&wanted, &closest, nullptr), S_OK);
  EXPECT_EQ(closest.Width, 1024u);
  EXPECT_EQ(closest.Height, 768u);
  DXGI_MODE_DESC1 wanted1 = {}, closest1;
  wanted1.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  ASSERT_EQ(output1->FindClosestMatchingMode1(&wanted1, &closest1, nullptr), S_OK);
  EXPECT_EQ(closest1.Width, 1280u);   // a zero size prefers the desktop size
  EXPECT_EQ(closest1.RefreshRate.Numerator, 100u);
}

TEST(DxgiOutput, VblankClockGammaAndUnsupportedPaths) {
  Objects o;
  ComRef<IDXGIAdapter> adapter;
  ASSERT_EQ(o.factory->EnumAdapters(0, adapter.put()), S_OK);
  ComRef<IDXGIOutput> output;
  ASSERT_EQ(adapter->EnumOutputs(0, output.put()), S_OK);
  // The desktop mode runs at 100 Hz: ten vblank waits take about 100 ms.
  ASSERT_EQ(output->WaitForVBlank(), S_OK);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; i++)
    ASSERT_EQ(output->WaitForVBlank(), S_OK);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GT(ms, 85.0);
  EXPECT_LT(ms, 400.0);
  DXGI_FRAME_STATISTICS a, b;
  EXPECT_EQ(output->GetFrameStatistics(nullptr), E_INVALIDARG);
  ASSERT_EQ(output->GetFrameStatistics(&a), S_OK);
  output->WaitForVBlank();
  output->WaitForVBlank();
  ASSERT_EQ(output->GetFrameStatistics(&b), S_OK);
  EXPECT_GE(b.SyncRefreshCount, a.SyncRefreshCount + 2);
  EXPECT_GT(b.SyncQPCTime.QuadPart, a.SyncQPCTime.QuadPart);

  DXGI_GAMMA_CONTROL_CAPABILITIES caps;
  ASSERT_EQ(output->GetGammaControlCapabilities(&caps), S_OK);
  EXPECT_EQ(caps.NumGammaControlPoints, 1025u);
  EXPECT_EQ(caps.ControlPointPositions[1024], 1.0f);
  DXGI_GAMMA_CONTROL gamma = {};
  // test_gamma_control: windowed outputs have no gamma ramp.
  EXPECT_EQ(output->GetGammaControl(&gamma), DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);
  EXPECT_EQ(output->SetGammaControl(&gamma), DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);

  ComRef<IDXGIOutput1> output1;
  ASSERT_EQ(output->QueryInterface(__uuidof(IDXGIOutput1), reinterpret_cast<void**>(output1.put())), S_OK);
  IDXGIOutputDuplication* duplication = reinterpret_cast<IDXGIOutputDuplication*>(0x1);
  EXPECT_EQ(output1->DuplicateOutput(o.factory.get(), &duplication), DXGI_ERROR_UNSUPPORTED);
  EXPECT_EQ(duplication, nullptr);
  EXPECT_EQ(output->TakeOwnership(nullptr, TRUE), DXGI_ERROR_INVALID_CALL);
}

TEST(DxgiObjects, PrivateData) {
  Objects o;
  static const GUID key = { 0x01234567, 0x89ab, 0xcdef, { 1, 2, 3, 4, 5, 6, 7, 8 } };
  DWORD value = 0x12345678, out = 0;
  UINT size = sizeof(out);
  EXPECT_EQ(o.factory->SetPrivateData(key, sizeof(value), &value), S_OK);
  EXPECT_EQ(o.factory->GetPrivateData(key, &size, &out), S_OK);
  EXPECT_EQ(out, value);
  // An interface stored as private data is held (and released with the entry).
  ComRef<IDXGIAdapter> adapter;
  ASSERT_EQ(o.factory->EnumAdapters(0, adapter.put()), S_OK);
  ULONG before = refcount(adapter.get());
  EXPECT_EQ(adapter->SetPrivateDataInterface(key, o.factory.get()), S_OK);
  EXPECT_EQ(refcount(o.factory.get()), 3u);
  EXPECT_EQ(adapter->SetPrivateDataInterface(key, nullptr), S_OK);
  EXPECT_EQ(refcount(o.factory.get()), 2u);
  EXPECT_EQ(refcount(adapter.get()), before);
}

// CheckFeatureSupport forwards the host's feature data but never offers what the guest
// runtime does not remote: here a host whose backend has every 11.1/11.2 option.
TEST(HostCapsAnswers, FeaturesOfferOnlyWhatIsRemoted) {
  HostInfo info = hostInfo();
  npt::protocol::HostFeature options1;
  options1.feature = D3D11_FEATURE_D3D11_OPTIONS1;
  D3D11_FEATURE_DATA_D3D11_OPTIONS1 full1 = { D3D11_TILED_RESOURCES_TIER_2, TRUE, TRUE, TRUE };
  options1.size = sizeof(full1);
  std::memcpy(options1.data.data(), &full1, sizeof(full1));
  npt::protocol::HostFeature options2;
  options2.feature = D3D11_FEATURE_D3D11_OPTIONS2;
  D3D11_FEATURE_DATA_D3D11_OPTIONS2 full2 = { TRUE, TRUE, TRUE, D3D11_CONSERVATIVE_RASTERIZATION_TIER_1,
                                              D3D11_TILED_RESOURCES_TIER_2, TRUE, TRUE, TRUE };
  options2.size = sizeof(full2);
  std::memcpy(options2.data.data(), &full2, sizeof(full2));
  info.features = { options1, options2 };
  std::vector<uint8_t> blob;
  ASSERT_EQ(npt::protocol::serializeHostInfo(info, blob), npt::protocol::ErrorCode::Ok);
  HostCaps caps = HostCaps::defaults();
  ASSERT_TRUE(caps.load(blob.data(), blob.size()));

  D3D11_FEATURE_DATA_D3D11_OPTIONS1 got1 = {};
  ASSERT_EQ(caps.checkFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &got1, sizeof(got1)), S_OK);
  EXPECT_EQ(got1.TiledResourcesTier, D3D11_TILED_RESOURCES_NOT_SUPPORTED);
  EXPECT_FALSE(got1.MapOnDefaultBuffers) << "DEFAULT resources are never CPU-mapped";
  EXPECT_TRUE(got1.MinMaxFiltering) << "what is remoted stays";
  D3D11_FEATURE_DATA_D3D11_OPTIONS2 got2 = {};
  ASSERT_EQ(caps.checkFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS2, &got2, sizeof(got2)), S_OK);
  EXPECT_FALSE(got2.MapOnDefaultTextures);
  EXPECT_EQ(got2.TiledResourcesTier, D3D11_TILED_RESOURCES_NOT_SUPPORTED);
  EXPECT_TRUE(got2.StandardSwizzle);
  EXPECT_EQ(got2.ConservativeRasterizationTier, D3D11_CONSERVATIVE_RASTERIZATION_TIER_1);
}
