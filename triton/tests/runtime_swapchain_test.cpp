// SPDX-License-Identifier: MIT
// Swapchains through the API-level runtime: D3D11CreateDeviceAndSwapChain, or the factory
// reached from the device (IDXGIDevice -> adapter -> IDXGIFactory), give an IDXGISwapChain
// whose Present goes through Triton's DXGI DDI (pfnPresent, then
// pfnRotateResourceIdentities) to the Neptune guest runtime and the host presenter of
// this program's neptune-server.exe, which logs each shown frame's checksum
// (NPT_PRESENT_LOG): the frames an application drew arrive in order, with its sync
// interval, for the bitblt and the flip models.

#include <algorithm>
#include <cstdio>
#include <string>

#include <dxgi1_2.h>

#include "runtime_test_support.h"

namespace triton::test {
namespace {

using Microsoft::WRL::ComPtr;

constexpr UINT kWidth = 64, kHeight = 32;

using CreateDeviceAndSwapChain = decltype(&D3D11CreateDeviceAndSwapChain);

HWND window() {
  return CreateWindowExA(0, "STATIC", "triton-runtime-swapchain", WS_POPUP, 0, 0, int(kWidth), int(kHeight), nullptr,
                         nullptr, GetModuleHandleA(nullptr), nullptr);
}

DXGI_SWAP_CHAIN_DESC swapChainDesc(HWND hwnd, DXGI_SWAP_EFFECT effect, UINT buffers) {
  DXGI_SWAP_CHAIN_DESC desc{};
  desc.BufferDesc = {kWidth, kHeight, {0, 1}, DXGI_FORMAT_R8G8B8A8_UNORM};
  desc.SampleDesc.Count = 1;
  desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
  desc.BufferCount = buffers;
  desc.OutputWindow = hwnd;
  desc.Windowed = TRUE;
  desc.SwapEffect = effect;
  return desc;
}

// FNV-1a 64 of a frame of one colour, as the presenter logs it.
std::string expectedLine(const FLOAT colour[4], UINT interval) {
  uint64_t hash = 1469598103934665603ull;
  for (UINT pixel = 0; pixel < kWidth * kHeight; ++pixel)
    for (int c = 0; c < 4; ++c)
      hash = (hash ^ uint8_t(colour[c] * 255.0f + 0.5f)) * 1099511628211ull;
  char line[128];
  std::snprintf(line, sizeof(line), "%ux%u interval %u flags 0x0 checksum %016llx", kWidth, kHeight, interval,
                static_cast<unsigned long long>(hash));
  return line;
}

// Waits until the host has executed everything the context sent (an event query).
void finish(ID3D11Device* device, ID3D11DeviceContext* context) {
  const D3D11_QUERY_DESC desc{D3D11_QUERY_EVENT, 0};
  ComPtr<ID3D11Query> query;
  ASSERT_EQ(device->CreateQuery(&desc, &query), S_OK);
  context->End(query.Get());
  context->Flush();
  BOOL done = FALSE;
  for (int i = 0; i < 5000 && context->GetData(query.Get(), &done, sizeof(done), 0) != S_OK; ++i)
    Sleep(1);
}

// Draws (clears) each frame into buffer 0 and presents it; the server log must show the
// frames in order.
void presentFrames(ID3D11Device* device, ID3D11DeviceContext* context, IDXGISwapChain* swapchain) {
  const FLOAT colours[4][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}};
  const UINT intervals[4] = {0, 1, 0, 2};
  const std::string before = apiServer().log();
  UINT presentsBefore = 0;
  ASSERT_EQ(swapchain->GetLastPresentCount(&presentsBefore), S_OK);
  for (int frame = 0; frame < 4; ++frame) {
    ComPtr<ID3D11Texture2D> backBuffer;
    ASSERT_EQ(swapchain->GetBuffer(0, __uuidof(ID3D11Texture2D), &backBuffer), S_OK);
    ComPtr<ID3D11RenderTargetView> rtv;
    ASSERT_EQ(device->CreateRenderTargetView(backBuffer.Get(), nullptr, &rtv), S_OK);
    context->ClearRenderTargetView(rtv.Get(), colours[frame]);
    ASSERT_EQ(swapchain->Present(intervals[frame], 0), S_OK) << frame;
  }
  UINT presents = 0;
  ASSERT_EQ(swapchain->GetLastPresentCount(&presents), S_OK);
  EXPECT_EQ(presents, presentsBefore + 4);
  finish(device, context);
  std::string log;
  for (int attempt = 0; attempt < 1000; ++attempt) {   // the server's log reaches the file a little later
    log = apiServer().log().substr(before.size());
    if (std::count(log.begin(), log.end(), '\n') >= 4 && log.find(expectedLine(colours[3], intervals[3])) != std::string::npos)
      break;
    Sleep(10);
  }
  size_t at = 0;
  for (int frame = 0; frame < 4; ++frame) {
    const std::string expected = expectedLine(colours[frame], intervals[frame]);
    const size_t found = log.find(expected, at);
    EXPECT_NE(found, std::string::npos) << "no \"" << expected << "\" (in order) in the server log:\n" << log;
    if (found != std::string::npos)
      at = found + 1;
  }
  EXPECT_EQ(device->GetDeviceRemovedReason(), S_OK);
}

TEST(RuntimeSwapChain, CreateDeviceAndSwapChainPresentsThroughTheDriver) {
  Loaded runtime = loadRuntime();
  ASSERT_TRUE(runtime.module);
  auto create = reinterpret_cast<CreateDeviceAndSwapChain>(
      reinterpret_cast<void*>(GetProcAddress(runtime.module, "D3D11CreateDeviceAndSwapChain")));
  ASSERT_TRUE(create);
  HWND hwnd = window();
  ASSERT_TRUE(hwnd);
  for (DXGI_SWAP_EFFECT effect : {DXGI_SWAP_EFFECT_DISCARD, DXGI_SWAP_EFFECT_FLIP_DISCARD}) {
    const DXGI_SWAP_CHAIN_DESC desc = swapChainDesc(hwnd, effect, effect == DXGI_SWAP_EFFECT_DISCARD ? 1 : 2);
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_0;
    ComPtr<IDXGISwapChain> swapchain;
    ComPtr<ID3D11Device> device;
    ComPtr<ID3D11DeviceContext> context;
    ASSERT_EQ(create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &desc, &swapchain,
                     &device, nullptr, &context),
              S_OK);
    ComPtr<ID3D11Device> owner;
    ASSERT_EQ(swapchain->GetDevice(__uuidof(ID3D11Device), &owner), S_OK);
    EXPECT_EQ(owner.Get(), device.Get());
    presentFrames(device.Get(), context.Get(), swapchain.Get());
  }
  DestroyWindow(hwnd);
}

TEST(RuntimeSwapChain, FactoryOfTheDeviceCreatesSwapChains) {
  Loaded runtime = loadRuntime();
  ComPtr<ID3D11DeviceContext> context;
  ComPtr<ID3D11Device> device = createDevice(runtime, D3D_FEATURE_LEVEL_11_0, &context);
  ASSERT_TRUE(device);
  ComPtr<IDXGIDevice> dxgiDevice;
  ASSERT_EQ(device.As(&dxgiDevice), S_OK);
  ComPtr<ID3D11Device> back;
  ASSERT_EQ(dxgiDevice.As(&back), S_OK);
  EXPECT_EQ(back.Get(), device.Get());
  ComPtr<IDXGIAdapter> adapter;
  ASSERT_EQ(dxgiDevice->GetAdapter(&adapter), S_OK);
  ComPtr<IDXGIOutput> output;
  EXPECT_EQ(adapter->EnumOutputs(0, &output), DXGI_ERROR_NOT_FOUND);
  ComPtr<IDXGIFactory> factory;
  ASSERT_EQ(adapter->GetParent(__uuidof(IDXGIFactory), &factory), S_OK);

  HWND hwnd = window();
  ASSERT_TRUE(hwnd);
  DXGI_SWAP_CHAIN_DESC desc = swapChainDesc(hwnd, DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, 3);
  ComPtr<IDXGISwapChain> swapchain;
  ASSERT_EQ(factory->CreateSwapChain(device.Get(), &desc, &swapchain), S_OK);
  DXGI_SWAP_CHAIN_DESC got{};
  ASSERT_EQ(swapchain->GetDesc(&got), S_OK);
  EXPECT_EQ(got.BufferCount, 3u);
  EXPECT_EQ(got.BufferDesc.Width, kWidth);
  ComPtr<ID3D11Texture2D> third;
  EXPECT_EQ(swapchain->GetBuffer(2, __uuidof(ID3D11Texture2D), &third), S_OK);   // flip model: every buffer
  presentFrames(device.Get(), context.Get(), swapchain.Get());

  // Buffers still referenced block ResizeBuffers; released, the new size takes effect.
  EXPECT_EQ(swapchain->ResizeBuffers(0, 32, 16, DXGI_FORMAT_UNKNOWN, 0), DXGI_ERROR_INVALID_CALL);
  third.Reset();
  ASSERT_EQ(swapchain->ResizeBuffers(0, 32, 16, DXGI_FORMAT_UNKNOWN, 0), S_OK);
  ComPtr<ID3D11Texture2D> resized;
  ASSERT_EQ(swapchain->GetBuffer(0, __uuidof(ID3D11Texture2D), &resized), S_OK);
  D3D11_TEXTURE2D_DESC t{};
  resized->GetDesc(&t);
  EXPECT_EQ(t.Width, 32u);
  EXPECT_EQ(t.Height, 16u);
  EXPECT_EQ(swapchain->SetFullscreenState(TRUE, nullptr), DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);

  // A discard model gives out buffer 0 only, a sequential one every buffer (IDXGISwapChain::
  // GetBuffer's documentation; Wine's test_swapchain_flip); a flip model needs two buffers;
  // not a device of this runtime.
  desc = swapChainDesc(hwnd, DXGI_SWAP_EFFECT_DISCARD, 2);
  ComPtr<IDXGISwapChain> blt;
  ASSERT_EQ(factory->CreateSwapChain(device.Get(), &desc, &blt), S_OK);
  ComPtr<ID3D11Texture2D> second;
  EXPECT_EQ(blt->GetBuffer(1, __uuidof(ID3D11Texture2D), &second), DXGI_ERROR_INVALID_CALL);
  desc = swapChainDesc(hwnd, DXGI_SWAP_EFFECT_SEQUENTIAL, 2);
  ComPtr<IDXGISwapChain> sequential;
  ASSERT_EQ(factory->CreateSwapChain(device.Get(), &desc, &sequential), S_OK);
  EXPECT_EQ(sequential->GetBuffer(1, __uuidof(ID3D11Texture2D), &second), S_OK);
  desc = swapChainDesc(hwnd, DXGI_SWAP_EFFECT_FLIP_DISCARD, 1);
  ComPtr<IDXGISwapChain> refused;
  EXPECT_EQ(factory->CreateSwapChain(device.Get(), &desc, &refused), DXGI_ERROR_INVALID_CALL);
  ComPtr<ID3D11Device> system = createDevice(loadSystem(), D3D_FEATURE_LEVEL_11_0);
  if (system) {
    desc = swapChainDesc(hwnd, DXGI_SWAP_EFFECT_DISCARD, 1);
    EXPECT_EQ(factory->CreateSwapChain(system.Get(), &desc, &refused), DXGI_ERROR_INVALID_CALL);
  }
  DestroyWindow(hwnd);
}

}  // namespace
}  // namespace triton::test
