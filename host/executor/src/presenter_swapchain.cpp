// SPDX-License-Identifier: MIT
// A swapchain of the context's backend device for the presenter's window: the back buffer
// reaches the window by a GPU copy on the device that rendered it, so a presented frame
// costs no CPU copy (PresentCopy::Cpu is the read-back-and-upload baseline).
#include <cstdio>
#include <thread>

#include "presenter_window.h"
#include "records.h"

namespace npt::executor {

namespace {

// Formats a windowed bit-blt swapchain accepts; CopySubresourceRegion needs the same one.
bool isDisplayFormat(DXGI_FORMAT format) {
  switch (format) {
    case DXGI_FORMAT_R8G8B8A8_UNORM: case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB:
    case DXGI_FORMAT_B8G8R8A8_UNORM: case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB:
    case DXGI_FORMAT_R10G10B10A2_UNORM: case DXGI_FORMAT_R16G16B16A16_FLOAT:
      return true;
    default:
      return false;
  }
}

std::string hresultText(const char* what, HRESULT hr) {
  char text[96];
  std::snprintf(text, sizeof(text), "%s failed (0x%08x)", what, unsigned(hr));
  return text;
}

}  // namespace

void BackendSwapchain::release() {
  releaseAndClear(m_staging);
  releaseAndClear(m_swapchain);
  releaseAndClear(m_device);
  m_width = m_height = 0;
  m_format = DXGI_FORMAT_UNKNOWN;
}

std::string BackendSwapchain::create(DeviceState& device, const D3D11_TEXTURE2D_DESC& desc) {
  release();
  IDXGIDevice* dxgiDevice = nullptr;
  HRESULT hr = device.device->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void**>(&dxgiDevice));
  if (FAILED(hr)) return hresultText("QueryInterface(IDXGIDevice)", hr);
  IDXGIAdapter* adapter = nullptr;
  hr = dxgiDevice->GetAdapter(&adapter);
  dxgiDevice->Release();
  if (FAILED(hr)) return hresultText("IDXGIDevice::GetAdapter", hr);
  IDXGIFactory* factory = nullptr;
  hr = adapter->GetParent(__uuidof(IDXGIFactory), reinterpret_cast<void**>(&factory));
  adapter->Release();
  if (FAILED(hr)) return hresultText("IDXGIAdapter::GetParent(IDXGIFactory)", hr);
  // One buffer, bit-blt model: every present is a copy into the window's buffer anyway,
  // and it is the model every backend (wined3d included) implements.
  DXGI_SWAP_CHAIN_DESC swapDesc = {};
  swapDesc.BufferDesc.Width = desc.Width;
  swapDesc.BufferDesc.Height = desc.Height;
  swapDesc.BufferDesc.Format = desc.Format;
  swapDesc.SampleDesc.Count = 1;
  swapDesc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
  swapDesc.BufferCount = 1;
  swapDesc.OutputWindow = m_window;
  swapDesc.Windowed = TRUE;
  swapDesc.SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
  hr = factory->CreateSwapChain(device.device, &swapDesc, &m_swapchain);
  factory->Release();
  if (FAILED(hr)) return hresultText("IDXGIFactory::CreateSwapChain", hr);
  m_device = device.device;
  m_device->AddRef();
  m_width = desc.Width;
  m_height = desc.Height;
  m_format = desc.Format;
  return presentBlackAndSettle(device);
}

// The backend finishes setting up a new swapchain's window on its first present, and the
// window system may act on that later, on the window's thread. Under Wine, wined3d's first
// present (on its command-stream thread) makes winex11 create the window's GL drawable
// (create_client_window), which hands the window a frame change (WindowPosChanged,
// SWP_FRAMECHANGED) that its thread handles at its next message pump; if a frame was already
// on the screen then, the window shows black from then on until the next present. So the
// first frame of a presenter window was lost whenever wined3d's thread presented before the
// window's pump ran, and the second one when it presented just after (PresenterTest failed
// under CI that way, both paths, about one run in three here). A new swapchain therefore
// presents one black frame, waits until the backend has executed that present and lets the
// window handle what it caused, before any guest frame is shown.
std::string BackendSwapchain::presentBlackAndSettle(DeviceState& device) {
  ID3D11Texture2D* target = nullptr;
  HRESULT hr = m_swapchain->GetBuffer(0, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&target));
  if (FAILED(hr)) return hresultText("IDXGISwapChain::GetBuffer", hr);
  ID3D11RenderTargetView* view = nullptr;
  hr = device.device->CreateRenderTargetView(target, nullptr, &view);
  target->Release();
  if (FAILED(hr)) return hresultText("CreateRenderTargetView(swapchain buffer)", hr);
  const float black[4] = {0, 0, 0, 1};
  device.immediate->ClearRenderTargetView(view, black);
  view->Release();
  hr = m_swapchain->Present(0, 0);
  if (FAILED(hr)) return hresultText("IDXGISwapChain::Present", hr);
  D3D11_QUERY_DESC queryDesc = {D3D11_QUERY_EVENT, 0};
  ID3D11Query* presented = nullptr;
  hr = device.device->CreateQuery(&queryDesc, &presented);
  if (FAILED(hr)) return hresultText("CreateQuery(EVENT)", hr);
  device.immediate->End(presented);
  BOOL done = FALSE;
  while ((hr = device.immediate->GetData(presented, &done, sizeof(done), 0)) == S_FALSE) std::this_thread::yield();
  presented->Release();
  if (FAILED(hr)) return hresultText("GetData(EVENT) after the first present", hr);
  if (m_settleWindow) m_settleWindow();
  return {};
}

std::string BackendSwapchain::present(DeviceState& device, ID3D11Texture2D* backBuffer,
                                      const D3D11_TEXTURE2D_DESC& desc, uint32_t interval, PresentCopy copy,
                                      PresentStats& stats) {
  if (!isDisplayFormat(desc.Format)) return "format " + std::to_string(unsigned(desc.Format)) + " is not displayable";
  if (copy == PresentCopy::Cpu && desc.SampleDesc.Count != 1) return "the CPU path takes single-sampled frames only";
  if (m_device != device.device) {
    std::string why = create(device, desc);
    if (!why.empty()) return why;
  } else if (desc.Width != m_width || desc.Height != m_height || desc.Format != m_format) {
    releaseAndClear(m_staging);
    HRESULT hr = m_swapchain->ResizeBuffers(1, desc.Width, desc.Height, desc.Format, 0);
    if (FAILED(hr)) return hresultText("IDXGISwapChain::ResizeBuffers", hr);
    m_width = desc.Width;
    m_height = desc.Height;
    m_format = desc.Format;
  }
  ID3D11Texture2D* target = nullptr;
  HRESULT hr = m_swapchain->GetBuffer(0, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(&target));
  if (FAILED(hr)) return hresultText("IDXGISwapChain::GetBuffer", hr);
  std::string why;
  if (copy == PresentCopy::Gpu) {
    if (desc.SampleDesc.Count > 1)
      device.immediate->ResolveSubresource(target, 0, backBuffer, 0, desc.Format);
    else
      device.immediate->CopySubresourceRegion(target, 0, 0, 0, 0, backBuffer, 0, nullptr);
    stats.gpuCopies++;
  } else {
    // The baseline a backend without sharing would need: the frame into memory, then up again.
    std::vector<uint8_t> frame;
    D3D11_TEXTURE2D_DESC stagingDesc = desc;
    stagingDesc.MipLevels = stagingDesc.ArraySize = 1;
    stagingDesc.Usage = D3D11_USAGE_STAGING;
    stagingDesc.BindFlags = stagingDesc.MiscFlags = 0;
    stagingDesc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    if (!m_staging) hr = device.device->CreateTexture2D(&stagingDesc, nullptr, &m_staging);
    D3D11_MAPPED_SUBRESOURCE mapped = {};
    if (SUCCEEDED(hr)) {
      device.immediate->CopySubresourceRegion(m_staging, 0, 0, 0, 0, backBuffer, 0, nullptr);
      hr = device.immediate->Map(m_staging, 0, D3D11_MAP_READ, 0, &mapped);
    }
    if (SUCCEEDED(hr)) {
      frame.assign(static_cast<const uint8_t*>(mapped.pData),
                   static_cast<const uint8_t*>(mapped.pData) + size_t(mapped.RowPitch) * desc.Height);
      device.immediate->Unmap(m_staging, 0);
      device.immediate->UpdateSubresource(target, 0, nullptr, frame.data(), mapped.RowPitch, 0);
      stats.cpuCopies += 2;
    } else {
      why = hresultText("the CPU path's readback", hr);
    }
  }
  target->Release();
  if (!why.empty()) return why;
  hr = m_swapchain->Present(interval, 0);
  if (FAILED(hr)) return hresultText("IDXGISwapChain::Present", hr);
  return {};
}

}  // namespace npt::executor
