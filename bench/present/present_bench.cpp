// SPDX-License-Identifier: MIT
// Present throughput of a guest swapchain (bench/present): clears the back buffer to a
// colour that changes every frame and presents with sync interval 0, --frames times, then
// waits for the last frame (a 1-pixel readback of the back buffer, which executes after
// every present). Prints frames/s and this process's CPU time. Through Neptune the
// presenting is the host's (NPT_PRESENT on the server), so run.py compares host paths.
#include <windows.h>

#include <d3d11.h>
#include <dxgi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

double processCpuSeconds() {
  FILETIME created, exited, kernel, user;
  GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user);
  auto seconds = [](const FILETIME& t) { return double(uint64_t(t.dwHighDateTime) << 32 | t.dwLowDateTime) * 1e-7; };
  return seconds(kernel) + seconds(user);
}

int fail(const char* what, HRESULT hr) {
  std::fprintf(stderr, "bench-present: %s failed (0x%08lx)\n", what, (unsigned long)hr);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned width = 1920, height = 1080, frames = 120;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--size")) std::sscanf(argv[i + 1], "%ux%u", &width, &height);
    else if (!std::strcmp(argv[i], "--frames")) frames = unsigned(std::atoi(argv[i + 1]));
  }
  HWND window = CreateWindowExW(0, L"STATIC", L"bench-present", WS_POPUP, 0, 0, int(width), int(height), nullptr,
                                nullptr, GetModuleHandleW(nullptr), nullptr);
  DXGI_SWAP_CHAIN_DESC desc = {};
  desc.BufferDesc = { width, height, { 0, 1 }, DXGI_FORMAT_R8G8B8A8_UNORM };
  desc.SampleDesc.Count = 1;
  desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
  desc.BufferCount = 2;
  desc.OutputWindow = window;
  desc.Windowed = TRUE;
  desc.SwapEffect = DXGI_SWAP_EFFECT_FLIP_DISCARD;
  IDXGISwapChain* swapchain = nullptr;
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  HRESULT hr = D3D11CreateDeviceAndSwapChain(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0,
                                             D3D11_SDK_VERSION, &desc, &swapchain, &device, nullptr, &context);
  if (FAILED(hr)) return fail("D3D11CreateDeviceAndSwapChain", hr);
  ID3D11Texture2D* backBuffer = nullptr;
  ID3D11RenderTargetView* view = nullptr;
  if (FAILED(hr = swapchain->GetBuffer(0, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&backBuffer))))
    return fail("GetBuffer", hr);
  if (FAILED(hr = device->CreateRenderTargetView(backBuffer, nullptr, &view))) return fail("CreateRenderTargetView", hr);
  D3D11_TEXTURE2D_DESC pixelDesc = { 1, 1, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_STAGING, 0,
                                     D3D11_CPU_ACCESS_READ, 0 };
  ID3D11Texture2D* pixel = nullptr;
  if (FAILED(hr = device->CreateTexture2D(&pixelDesc, nullptr, &pixel))) return fail("CreateTexture2D", hr);

  LARGE_INTEGER frequency, begin, end;
  QueryPerformanceFrequency(&frequency);
  const double cpuBegin = processCpuSeconds();
  QueryPerformanceCounter(&begin);
  for (unsigned frame = 0; frame < frames; frame++) {
    const float colour[4] = { float(frame % 7) / 6.0f, float(frame % 5) / 4.0f, float(frame % 3) / 2.0f, 1.0f };
    context->ClearRenderTargetView(view, colour);
    if (FAILED(hr = swapchain->Present(0, 0))) return fail("Present", hr);
  }
  const D3D11_BOX box = { 0, 0, 0, 1, 1, 1 };
  context->CopySubresourceRegion(pixel, 0, 0, 0, 0, backBuffer, 0, &box);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  if (FAILED(hr = context->Map(pixel, 0, D3D11_MAP_READ, 0, &mapped))) return fail("Map", hr);
  context->Unmap(pixel, 0);
  QueryPerformanceCounter(&end);
  const double seconds = double(end.QuadPart - begin.QuadPart) / double(frequency.QuadPart);
  std::printf("present %ux%u: %u frames in %.3f s: %.1f frames/s, guest CPU %.3f s\n", width, height, frames, seconds,
              frames / seconds, processCpuSeconds() - cpuBegin);
  pixel->Release();
  view->Release();
  backBuffer->Release();
  swapchain->Release();
  context->Release();
  device->Release();
  DestroyWindow(window);
  return 0;
}
