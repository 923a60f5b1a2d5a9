// SPDX-License-Identifier: MIT
// The guest swapchain over a stand-in for Neptune's device: INptDevice implemented on top
// of Wine's own D3D11 device (back buffers are real textures, so buffer contents can be
// read back), PresentBuffer recorded. No server: the swapchain's frames retire on the
// display clock alone. Checks validation, buffers, resize rules, present flags and
// counts, sequential-model buffer rotation, vsync pacing and the frame-latency object.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <vector>

#include <d3d11.h>

#include "dxgi/factory.h"
#include "dxgi/resource_face.h"
#include "npt/validation/resource.h"
#include "dxgi/swapchain.h"

using namespace npt::guest;

namespace {

struct PresentRecord {
  ID3D11Texture2D* texture;
  UINT interval;
  UINT flags;
};

// INptDevice over a real D3D11 device. QueryInterface hands out the real device for
// every D3D/DXGI interface, like Neptune's device object (one COM identity) would.
class StandInDevice final : public INptDevice {
public:
  explicit StandInDevice(ID3D11Device* device) : m_device(device) { m_device->AddRef(); }
  ~StandInDevice() { m_device->Release(); }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
    if (riid == kIID_INptDevice || riid == __uuidof(IUnknown)) {
      AddRef();
      *out = static_cast<INptDevice*>(this);
      return S_OK;
    }
    return m_device->QueryInterface(riid, out);
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return ++m_refs; }
  ULONG STDMETHODCALLTYPE Release() override {
    ULONG r = --m_refs;
    if (!r)
      delete this;
    return r;
  }
  UINT32 STDMETHODCALLTYPE GetObjectId() override { return 1; }
  HRESULT STDMETHODCALLTYPE CreateBackBuffer(const D3D11_TEXTURE2D_DESC* desc, ID3D11Texture2D** texture) override {
    backBuffersCreated++;
    lastBackBufferDesc = *desc;
    return m_device->CreateTexture2D(desc, nullptr, texture);
  }
  HRESULT STDMETHODCALLTYPE PresentBuffer(ID3D11Texture2D* texture, UINT interval, UINT flags) override {
    std::lock_guard<std::mutex> lock(mutex);
    presents.push_back({ texture, interval, flags });
    return S_OK;
  }
  void STDMETHODCALLTYPE GetStatistics(StatisticsSnapshot* statistics) override { *statistics = {}; }
  HRESULT STDMETHODCALLTYPE GetAdapter(IDXGIAdapter** adapter) override { return E_NOTIMPL; }

  ULONG refs() { AddRef(); return Release(); }

  std::mutex mutex;
  std::vector<PresentRecord> presents;
  std::atomic<int> backBuffersCreated{0};
  D3D11_TEXTURE2D_DESC lastBackBufferDesc = {};

private:
  ID3D11Device* m_device;
  std::atomic<ULONG> m_refs{1};
};

const npt::protocol::HostInfo& hostInfo() {
  static npt::protocol::HostInfo info = [] {
    npt::protocol::HostInfo h;
    h.adapter.luid = { 1, 0 };
    npt::protocol::HostOutput out;
    out.deviceName[0] = 'D';
    out.desktopCoordinates = { 0, 0, 1280, 1024 };
    out.attachedToDesktop = TRUE;
    DXGI_MODE_DESC mode = {};
    mode.Width = 1280;
    mode.Height = 1024;
    mode.RefreshRate = { 100, 1 };   // a 10 ms display period for the pacing checks
    mode.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    out.modes.push_back(mode);
    h.outputs.push_back(out);
    return h;
  }();
  return info;
}

class SwapChainTest : public ::testing::Test {
protected:
  void SetUp() override {
    D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_0;
    ASSERT_EQ(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1, D3D11_SDK_VERSION,
                                &realDevice, nullptr, &context), S_OK);
    device = new StandInDevice(realDevice);
    *factory.put() = dxgi::Factory::create(&hostInfo(), 0);
    window = CreateWindowA("static", "swapchain_test", WS_OVERLAPPEDWINDOW | WS_VISIBLE, 0, 0, 640, 480,
                           nullptr, nullptr, nullptr, nullptr);
  }
  void TearDown() override {
    factory.reset();
    if (device)
      EXPECT_EQ(device->Release(), 0u);
    if (context)
      context->Release();
    if (realDevice)
      realDevice->Release();
    DestroyWindow(window);
  }
  DXGI_SWAP_CHAIN_DESC1 desc1(DXGI_SWAP_EFFECT effect, UINT buffers, UINT flags = 0) {
    DXGI_SWAP_CHAIN_DESC1 d = {};
    d.Width = 64;
    d.Height = 32;
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.SampleDesc.Count = 1;
    d.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    d.BufferCount = buffers;
    d.SwapEffect = effect;
    d.Flags = flags;
    return d;
  }
  HRESULT create(const DXGI_SWAP_CHAIN_DESC1& d, IDXGISwapChain1** swapchain) {
    return factory->CreateSwapChainForHwnd(static_cast<INptDevice*>(device), window, &d, nullptr, nullptr, swapchain);
  }
  uint32_t pixel(ID3D11Texture2D* texture) {
    D3D11_TEXTURE2D_DESC d;
    texture->GetDesc(&d);
    d.Usage = D3D11_USAGE_STAGING;
    d.BindFlags = 0;
    d.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    d.MiscFlags = 0;
    ComRef<ID3D11Texture2D> staging;
    EXPECT_EQ(realDevice->CreateTexture2D(&d, nullptr, staging.put()), S_OK);
    context->CopyResource(staging.get(), texture);
    D3D11_MAPPED_SUBRESOURCE map;
    EXPECT_EQ(context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &map), S_OK);
    uint32_t value = *static_cast<const uint32_t*>(map.pData);
    context->Unmap(staging.get(), 0);
    return value;
  }
  void clear(ID3D11Texture2D* texture, float r) {
    ComRef<ID3D11RenderTargetView> rtv;
    ASSERT_EQ(realDevice->CreateRenderTargetView(texture, nullptr, rtv.put()), S_OK);
    const float color[4] = { r, 0, 0, 1 };
    context->ClearRenderTargetView(rtv.get(), color);
  }

  ID3D11Device* realDevice = nullptr;
  ID3D11DeviceContext* context = nullptr;
  StandInDevice* device = nullptr;
  ComRef<dxgi::Factory> factory;
  HWND window = nullptr;
};

ULONG refcount(IUnknown* object) {
  object->AddRef();
  return object->Release();
}

}

TEST_F(SwapChainTest, CreationHoldsDeviceAndTwoFactoryReferences) {
  ULONG deviceRefs = device->refs();
  IDXGISwapChain1* swapchain = nullptr;
  ASSERT_EQ(create(desc1(DXGI_SWAP_EFFECT_FLIP_DISCARD, 2), &swapchain), S_OK);
  EXPECT_EQ(device->backBuffersCreated.load(), 2);
  // test_create_swapchain: 1 -> 3 factory references (two held by the swapchain).
  EXPECT_EQ(refcount(factory.get()), 3u);
  EXPECT_EQ(device->refs(), deviceRefs + 1);
  D3D11_TEXTURE2D_DESC t = device->lastBackBufferDesc;
  EXPECT_EQ(t.Width, 64u);
  EXPECT_EQ(t.BindFlags, UINT(D3D11_BIND_RENDER_TARGET));
  EXPECT_EQ(t.Usage, D3D11_USAGE_DEFAULT);
  EXPECT_EQ(t.MipLevels, 1u);
  ComRef<IDXGIFactory2> parent;
  ASSERT_EQ(swapchain->GetParent(__uuidof(IDXGIFactory2), reinterpret_cast<void**>(parent.put())), S_OK);
  EXPECT_EQ(static_cast<void*>(parent.get()), static_cast<void*>(factory.get()));
  parent.reset();
  for (const IID& iid : { __uuidof(IDXGIObject), __uuidof(IDXGIDeviceSubObject), __uuidof(IDXGISwapChain),
                          __uuidof(IDXGISwapChain2), __uuidof(IDXGISwapChain3), __uuidof(IDXGISwapChain4) }) {
    ComRef<IUnknown> other;
    EXPECT_EQ(swapchain->QueryInterface(iid, reinterpret_cast<void**>(other.put())), S_OK);
  }
  EXPECT_EQ(swapchain->Release(), 0u);
  EXPECT_EQ(refcount(factory.get()), 1u);
  EXPECT_EQ(device->refs(), deviceRefs);
}

TEST_F(SwapChainTest, ZeroSizeTakesTheClientAreaAndFullscreenIsWindowed) {
  auto d = desc1(DXGI_SWAP_EFFECT_DISCARD, 1);
  d.Width = d.Height = 0;
  ComRef<IDXGISwapChain1> swapchain;
  ASSERT_EQ(create(d, swapchain.put()), S_OK);
  RECT client;
  GetClientRect(window, &client);
  DXGI_SWAP_CHAIN_DESC1 got;
  ASSERT_EQ(swapchain->GetDesc1(&got), S_OK);
  EXPECT_EQ(LONG(got.Width), client.right);
  EXPECT_EQ(LONG(got.Height), client.bottom);
  EXPECT_EQ(got.AlphaMode, DXGI_ALPHA_MODE_IGNORE);

  EXPECT_EQ(swapchain->SetFullscreenState(TRUE, nullptr), DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);
  ComRef<IDXGIOutput> output;
  ASSERT_EQ(swapchain->GetContainingOutput(output.put()), S_OK);
  EXPECT_EQ(swapchain->SetFullscreenState(FALSE, output.get()), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(swapchain->SetFullscreenState(FALSE, nullptr), S_OK);

  DXGI_SWAP_CHAIN_FULLSCREEN_DESC fs = {};
  fs.Windowed = FALSE;
  fs.RefreshRate = { 60, 1 };
  ComRef<IDXGISwapChain1> fullscreen;
  EXPECT_EQ(factory->CreateSwapChainForHwnd(static_cast<INptDevice*>(device), window, &d, &fs, nullptr, fullscreen.put()),
            DXGI_STATUS_OCCLUDED);
  ASSERT_TRUE(fullscreen);
  DXGI_SWAP_CHAIN_FULLSCREEN_DESC gotFs;
  ASSERT_EQ(fullscreen->GetFullscreenDesc(&gotFs), S_OK);
  EXPECT_TRUE(gotFs.Windowed);
  EXPECT_EQ(gotFs.RefreshRate.Numerator, 60u);
}

TEST_F(SwapChainTest, BuffersPresentAndResize) {
  ComRef<IDXGISwapChain1> swapchain;
  ASSERT_EQ(create(desc1(DXGI_SWAP_EFFECT_FLIP_DISCARD, 3), swapchain.put()), S_OK);
  ComRef<ID3D11Texture2D> buffer;
  ASSERT_EQ(swapchain->GetBuffer(0, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(buffer.put())), S_OK);
  ComRef<ID3D11Texture2D> other;
  EXPECT_EQ(swapchain->GetBuffer(1, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(other.put())),
            DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(swapchain->GetBuffer(0, __uuidof(ID3D11Texture2D), nullptr), DXGI_ERROR_INVALID_CALL);

  UINT count = 7;
  ASSERT_EQ(swapchain->GetLastPresentCount(&count), S_OK);
  EXPECT_EQ(count, 0u);
  DXGI_FRAME_STATISTICS stats;
  EXPECT_EQ(swapchain->GetFrameStatistics(&stats), DXGI_ERROR_FRAME_STATISTICS_DISJOINT);
  EXPECT_EQ(swapchain->Present(0, 0), S_OK);
  EXPECT_EQ(swapchain->Present(0, DXGI_PRESENT_TEST), S_OK);
  EXPECT_EQ(swapchain->Present(5, 0), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(swapchain->Present(0, DXGI_PRESENT_ALLOW_TEARING), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(swapchain->Present1(0, 0, nullptr), DXGI_ERROR_INVALID_CALL);
  DXGI_PRESENT_PARAMETERS params = {};
  EXPECT_EQ(swapchain->Present1(2, 0, &params), S_OK);
  ASSERT_EQ(swapchain->GetLastPresentCount(&count), S_OK);
  EXPECT_EQ(count, 2u);   // TEST and refused presents do not count
  {
    std::lock_guard<std::mutex> lock(device->mutex);
    ASSERT_EQ(device->presents.size(), 2u);
    EXPECT_EQ(device->presents[0].texture, buffer.get());   // always buffer 0
    EXPECT_EQ(device->presents[1].interval, 2u);
  }

  // ResizeBuffers: refused while the application holds a buffer.
  EXPECT_EQ(swapchain->ResizeBuffers(0, 128, 64, DXGI_FORMAT_UNKNOWN, 0), DXGI_ERROR_INVALID_CALL);
  buffer.reset();
  EXPECT_EQ(swapchain->ResizeBuffers(1, 128, 64, DXGI_FORMAT_UNKNOWN, 0), DXGI_ERROR_INVALID_CALL);  // flip needs 2
  EXPECT_EQ(swapchain->ResizeBuffers(0, 128, 64, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 0), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(swapchain->ResizeBuffers(0, 128, 64, DXGI_FORMAT_UNKNOWN, DXGI_SWAP_CHAIN_FLAG_FRAME_LATENCY_WAITABLE_OBJECT),
            DXGI_ERROR_INVALID_CALL);
  ASSERT_EQ(swapchain->ResizeBuffers(2, 128, 64, DXGI_FORMAT_B8G8R8A8_UNORM, 0), S_OK);
  DXGI_SWAP_CHAIN_DESC1 got;
  ASSERT_EQ(swapchain->GetDesc1(&got), S_OK);
  EXPECT_EQ(got.Width, 128u);
  EXPECT_EQ(got.BufferCount, 2u);
  EXPECT_EQ(got.Format, DXGI_FORMAT_B8G8R8A8_UNORM);
  ASSERT_EQ(swapchain->GetBuffer(0, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(buffer.put())), S_OK);
  D3D11_TEXTURE2D_DESC t;
  buffer->GetDesc(&t);
  EXPECT_EQ(t.Width, 128u);
  EXPECT_EQ(t.Format, DXGI_FORMAT_B8G8R8A8_UNORM);
  buffer.reset();
  ComRef<IDXGISwapChain3> swapchain3;
  ASSERT_EQ(swapchain->QueryInterface(__uuidof(IDXGISwapChain3), reinterpret_cast<void**>(swapchain3.put())), S_OK);
  EXPECT_EQ(swapchain3->GetCurrentBackBufferIndex(), 0u);
  UINT mask[2] = { 1, 1 };
  EXPECT_EQ(swapchain3->ResizeBuffers1(2, 128, 64, DXGI_FORMAT_UNKNOWN, 0, mask, nullptr), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(swapchain3->ResizeBuffers1(2, 128, 64, DXGI_FORMAT_UNKNOWN, 0, nullptr, nullptr), S_OK);

  // Frames retire: statistics appear. Frames retire on the swapchain's own schedule (the
  // device's work, then the sync interval), which a loaded machine stretches: wait, bounded.
  HRESULT hr = DXGI_ERROR_FRAME_STATISTICS_DISJOINT;
  for (int waited = 0; waited < 10000; waited += 10) {
    hr = swapchain->GetFrameStatistics(&stats);
    if (hr == S_OK && stats.PresentCount == 2u)
      break;
    Sleep(10);
  }
  ASSERT_EQ(hr, S_OK);
  EXPECT_EQ(stats.PresentCount, 2u);
}

TEST_F(SwapChainTest, SequentialModelRotatesBufferContents) {
  ComRef<IDXGISwapChain1> swapchain;
  ASSERT_EQ(create(desc1(DXGI_SWAP_EFFECT_SEQUENTIAL, 3), swapchain.put()), S_OK);
  ComRef<ID3D11Texture2D> b0, b1, b2;
  ASSERT_EQ(swapchain->GetBuffer(0, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(b0.put())), S_OK);
  ASSERT_EQ(swapchain->GetBuffer(1, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(b1.put())), S_OK);
  ASSERT_EQ(swapchain->GetBuffer(2, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(b2.put())), S_OK);
  clear(b0.get(), 1.0f);
  ASSERT_EQ(swapchain->Present(0, 0), S_OK);
  clear(b0.get(), 0.0f);
  ASSERT_EQ(swapchain->Present(0, 0), S_OK);
  // Buffer 1 holds the last presented frame (black), buffer 2 the one before (red).
  EXPECT_EQ(pixel(b1.get()) & 0xff, 0x00u);
  EXPECT_EQ(pixel(b2.get()) & 0xff, 0xffu);
  EXPECT_EQ(pixel(b0.get()) & 0xff, 0x00u);   // sequential: buffer 0 is preserved
}

TEST_F(SwapChainTest, SyncIntervalPacesFramesToTheDisplayClock) {
  ComRef<IDXGISwapChain1> swapchain;
  ASSERT_EQ(create(desc1(DXGI_SWAP_EFFECT_FLIP_DISCARD, 2, DXGI_SWAP_CHAIN_FLAG_FRAME_LATENCY_WAITABLE_OBJECT),
                   swapchain.put()), S_OK);
  ComRef<IDXGISwapChain2> swapchain2;
  ASSERT_EQ(swapchain->QueryInterface(__uuidof(IDXGISwapChain2), reinterpret_cast<void**>(swapchain2.put())), S_OK);
  HANDLE waitable = swapchain2->GetFrameLatencyWaitableObject();
  ASSERT_NE(waitable, nullptr);
  ASSERT_EQ(WaitForSingleObject(waitable, 1000), WAIT_OBJECT_0);
  // 20 frames at sync interval 1 on a 100 Hz output: about 200 ms; at interval 2, 400 ms.
  for (UINT interval : { 1u, 2u }) {
    auto start = std::chrono::steady_clock::now();
    for (int frame = 0; frame < 20; frame++) {
      ASSERT_EQ(swapchain->Present(interval, 0), S_OK);
      ASSERT_EQ(WaitForSingleObject(waitable, 1000), WAIT_OBJECT_0);
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GT(ms, 180.0 * interval) << interval;
    EXPECT_LT(ms, 400.0 * interval) << interval;
  }
  // Interval 0 does not wait for the display.
  auto start = std::chrono::steady_clock::now();
  for (int frame = 0; frame < 20; frame++) {
    ASSERT_EQ(swapchain->Present(0, 0), S_OK);
    ASSERT_EQ(WaitForSingleObject(waitable, 1000), WAIT_OBJECT_0);
  }
  double zeroMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(zeroMs, 150.0);
  DXGI_FRAME_STATISTICS stats;
  ASSERT_EQ(swapchain->GetFrameStatistics(&stats), S_OK);
  EXPECT_EQ(stats.PresentCount, 60u);
  CloseHandle(waitable);
}

TEST_F(SwapChainTest, DoNotWaitReportsAFullQueue) {
  // Device latency 3 (IDXGIDevice1 default); interval 4 on 100 Hz keeps frames queued.
  ComRef<IDXGISwapChain1> swapchain;
  ASSERT_EQ(create(desc1(DXGI_SWAP_EFFECT_FLIP_DISCARD, 2), swapchain.put()), S_OK);
  HRESULT last = S_OK;
  int accepted = 0;
  for (int i = 0; i < 6 && last == S_OK; i++) {
    last = swapchain->Present(4, DXGI_PRESENT_DO_NOT_WAIT);
    if (last == S_OK)
      accepted++;
  }
  EXPECT_EQ(last, DXGI_ERROR_WAS_STILL_DRAWING);
  EXPECT_EQ(accepted, 3);
  // Without DO_NOT_WAIT, Present waits for a slot instead.
  EXPECT_EQ(swapchain->Present(4, 0), S_OK);
}

TEST_F(SwapChainTest, SwapChain1To4Setters) {
  ComRef<IDXGISwapChain1> swapchain;
  ASSERT_EQ(create(desc1(DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 2), swapchain.put()), S_OK);
  ComRef<IDXGISwapChain4> s4;
  ASSERT_EQ(swapchain->QueryInterface(__uuidof(IDXGISwapChain4), reinterpret_cast<void**>(s4.put())), S_OK);
  DXGI_RGBA color = { 0.25f, 0.5f, 0.75f, 1.0f }, got = {};
  EXPECT_EQ(s4->SetBackgroundColor(&color), S_OK);
  EXPECT_EQ(s4->GetBackgroundColor(&got), S_OK);
  EXPECT_EQ(got.g, 0.5f);
  EXPECT_EQ(s4->SetRotation(DXGI_MODE_ROTATION_IDENTITY), S_OK);
  EXPECT_EQ(s4->SetRotation(DXGI_MODE_ROTATION_ROTATE90), DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);
  DXGI_MODE_ROTATION rotation;
  EXPECT_EQ(s4->GetRotation(&rotation), S_OK);
  EXPECT_EQ(rotation, DXGI_MODE_ROTATION_IDENTITY);
  UINT w = 0, h = 0;
  EXPECT_EQ(s4->SetSourceSize(32, 16), S_OK);
  EXPECT_EQ(s4->GetSourceSize(&w, &h), S_OK);
  EXPECT_EQ(w, 32u);
  EXPECT_EQ(h, 16u);
  EXPECT_EQ(s4->SetSourceSize(65, 16), E_INVALIDARG);
  EXPECT_EQ(s4->SetSourceSize(0, 16), E_INVALIDARG);
  DXGI_MATRIX_3X2_F matrix = {};
  EXPECT_EQ(s4->SetMatrixTransform(&matrix), DXGI_ERROR_INVALID_CALL);
  UINT support = 0;
  EXPECT_EQ(s4->CheckColorSpaceSupport(DXGI_COLOR_SPACE_RGB_FULL_G22_NONE_P709, &support), S_OK);
  EXPECT_EQ(support, UINT(DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT_FLAG_PRESENT));
  EXPECT_EQ(s4->SetColorSpace1(DXGI_COLOR_SPACE_RGB_FULL_G22_NONE_P709), S_OK);
  EXPECT_EQ(s4->SetColorSpace1(DXGI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020), E_INVALIDARG);
  DXGI_HDR_METADATA_HDR10 hdr = {};
  EXPECT_EQ(s4->SetHDRMetaData(DXGI_HDR_METADATA_TYPE_HDR10, sizeof(hdr), &hdr), S_OK);
  EXPECT_EQ(s4->SetHDRMetaData(DXGI_HDR_METADATA_TYPE_HDR10, 4, &hdr), E_INVALIDARG);
  EXPECT_FALSE(s4->IsTemporaryMonoSupported());
  ComRef<IDXGIOutput> restrict;
  EXPECT_EQ(s4->GetRestrictToOutput(restrict.put()), S_OK);
  EXPECT_FALSE(restrict);
  HWND hwnd = nullptr;
  EXPECT_EQ(s4->GetHwnd(&hwnd), S_OK);
  EXPECT_EQ(hwnd, window);
  ComRef<IUnknown> core;
  EXPECT_EQ(s4->GetCoreWindow(__uuidof(IUnknown), reinterpret_cast<void**>(core.put())), DXGI_ERROR_INVALID_CALL);
  // A minimised window is occluded: nothing is presented.
  ShowWindow(window, SW_MINIMIZE);
  EXPECT_EQ(s4->Present(0, 0), DXGI_STATUS_OCCLUDED);
  EXPECT_EQ(s4->Present(0, DXGI_PRESENT_TEST), DXGI_STATUS_OCCLUDED);
  ShowWindow(window, SW_RESTORE);
  // ResizeTarget sizes the window's client area.
  DXGI_MODE_DESC mode = {};
  mode.Width = 300;
  mode.Height = 200;
  EXPECT_EQ(s4->ResizeTarget(&mode), S_OK);
  RECT client;
  GetClientRect(window, &client);
  EXPECT_EQ(client.right, 300);
  EXPECT_EQ(client.bottom, 200);
  EXPECT_EQ(s4->ResizeTarget(nullptr), DXGI_ERROR_INVALID_CALL);
}

// The DXGI face a Neptune resource embeds, here over one of Wine's textures (the face
// forwards identity, private data and mapping to its owner).
TEST_F(SwapChainTest, ResourceFaceAnswersDxgiInterfaces) {
  D3D11_TEXTURE2D_DESC desc = {};
  desc.Width = 4;
  desc.Height = 2;
  desc.MipLevels = 1;
  desc.ArraySize = 1;
  desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  desc.SampleDesc.Count = 1;
  desc.Usage = D3D11_USAGE_STAGING;
  desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
  ComRef<ID3D11Texture2D> texture;
  ASSERT_EQ(realDevice->CreateTexture2D(&desc, nullptr, texture.put()), S_OK);
  dxgi::DxgiResourceFace face(texture.get(), dxgi::DxgiResourceFace::Kind::Surface,
                              npt::validation::dxgiUsageOf(desc.BindFlags, desc.Usage));
  EXPECT_EQ(face.query(__uuidof(IDXGISurface2)), static_cast<void*>(static_cast<IDXGISurface2*>(&face)));
  EXPECT_EQ(face.query(__uuidof(IDXGIResource1)), static_cast<void*>(static_cast<IDXGIResource1*>(&face)));
  EXPECT_EQ(face.query(__uuidof(IDXGIObject)), static_cast<void*>(static_cast<IDXGIResource1*>(&face)));
  EXPECT_EQ(face.query(__uuidof(ID3D11Texture2D)), nullptr);
  dxgi::DxgiResourceFace bufferFace(texture.get(), dxgi::DxgiResourceFace::Kind::Resource, 0);
  EXPECT_EQ(bufferFace.query(__uuidof(IDXGISurface)), nullptr);
  EXPECT_NE(bufferFace.query(__uuidof(IDXGIResource)), nullptr);

  DXGI_USAGE usage = 0;
  ASSERT_EQ(face.GetUsage(&usage), S_OK);
  EXPECT_EQ(usage, DXGI_USAGE(DXGI_CPU_ACCESS_READ_WRITE));
  face.setUsage(DXGI_USAGE_BACK_BUFFER | DXGI_USAGE_RENDER_TARGET_OUTPUT);
  ASSERT_EQ(face.GetUsage(&usage), S_OK);
  EXPECT_EQ(usage, DXGI_USAGE(DXGI_USAGE_BACK_BUFFER | DXGI_USAGE_RENDER_TARGET_OUTPUT));
  EXPECT_EQ(npt::validation::dxgiUsageOf(D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE, D3D11_USAGE_DEFAULT),
            DXGI_USAGE(DXGI_USAGE_RENDER_TARGET_OUTPUT | DXGI_USAGE_SHADER_INPUT));

  DXGI_SURFACE_DESC surfaceDesc;
  ASSERT_EQ(face.GetDesc(&surfaceDesc), S_OK);
  EXPECT_EQ(surfaceDesc.Width, 4u);
  EXPECT_EQ(surfaceDesc.Height, 2u);
  EXPECT_EQ(surfaceDesc.Format, DXGI_FORMAT_R8G8B8A8_UNORM);

  // Map writes through to the texture: read back with D3D11's own Map.
  DXGI_MAPPED_RECT rect;
  EXPECT_EQ(face.Map(&rect, 0), DXGI_ERROR_INVALID_CALL);
  ASSERT_EQ(face.Map(&rect, DXGI_MAP_WRITE), S_OK);
  *reinterpret_cast<uint32_t*>(rect.pBits) = 0x11223344u;
  ASSERT_EQ(face.Unmap(), S_OK);
  D3D11_MAPPED_SUBRESOURCE mapped;
  ASSERT_EQ(context->Map(texture.get(), 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  EXPECT_EQ(*static_cast<uint32_t*>(mapped.pData), 0x11223344u);
  context->Unmap(texture.get(), 0);

  // Parent and device: the texture's device.
  ComRef<IDXGIDevice> parent;
  ASSERT_EQ(face.GetParent(__uuidof(IDXGIDevice), reinterpret_cast<void**>(parent.put())), S_OK);
  ComRef<IDXGIDevice> realDxgi;
  ASSERT_EQ(realDevice->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void**>(realDxgi.put())), S_OK);
  EXPECT_EQ(parent.get(), realDxgi.get());
  ComRef<ID3D11Texture2D> back;
  UINT subresource = 7;
  ASSERT_EQ(face.GetResource(__uuidof(ID3D11Texture2D), reinterpret_cast<void**>(back.put()), &subresource), S_OK);
  EXPECT_EQ(back.get(), texture.get());
  EXPECT_EQ(subresource, 0u);

  HDC hdc = reinterpret_cast<HDC>(1);
  EXPECT_EQ(face.GetDC(FALSE, &hdc), DXGI_ERROR_INVALID_CALL);   // not GDI-compatible
  EXPECT_EQ(hdc, nullptr);
  HANDLE shared = reinterpret_cast<HANDLE>(1);
  EXPECT_EQ(face.GetSharedHandle(&shared), DXGI_ERROR_INVALID_CALL);
  EXPECT_EQ(shared, nullptr);
  ASSERT_EQ(face.SetEvictionPriority(DXGI_RESOURCE_PRIORITY_HIGH), S_OK);
  UINT priority = 0;
  ASSERT_EQ(face.GetEvictionPriority(&priority), S_OK);
  EXPECT_EQ(priority, texture->GetEvictionPriority());   // the owner's (Wine 8 keeps none)
  static const GUID key = { 0x1, 0x2, 0x3, { 4, 5, 6, 7, 8, 9, 10, 11 } };
  DWORD value = 42, out = 0;
  UINT size = sizeof(out);
  ASSERT_EQ(face.SetPrivateData(key, sizeof(value), &value), S_OK);
  ASSERT_EQ(texture->GetPrivateData(key, &size, &out), S_OK);   // shared with the D3D11 face
  EXPECT_EQ(out, 42u);
}
