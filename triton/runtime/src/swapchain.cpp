// SPDX-License-Identifier: MIT
// IDXGISwapChain over the driver's DXGI DDI, as the runtime presents: the buffers are
// ordinary resources of the device; Present is pfnPresent of buffer 0 (Flags.Blt for the
// bitblt models, Flags.Flip for the flip models, the sync interval as flip interval,
// this swapchain as the DXGI context pfnPresentCb hands back), and with more than one
// buffer pfnRotateResourceIdentities then moves every buffer's identity one place on,
// so buffer 0 is always the one to draw next.

#include <vector>

#include "device.h"
#include "dxgi.h"
#include "objects.h"

namespace triton::runtime {
namespace {

bool flipModel(DXGI_SWAP_EFFECT effect) {
  return effect == DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL || effect == DXGI_SWAP_EFFECT_FLIP_DISCARD;
}

class SwapChain final : public IDXGISwapChain {
public:
  SwapChain(Device* device, IDXGIFactory* factory, const DXGI_SWAP_CHAIN_DESC& desc)
      : device_(device), factory_(factory), desc_(desc) {
    device_->AddRef();
    factory_->AddRef();
  }
  ~SwapChain() {
    releaseBuffers();
    factory_->Release();
    device_->Release();
  }

  HRESULT createBuffers() {
    D3D11_TEXTURE2D_DESC t{};
    t.Width = desc_.BufferDesc.Width;
    t.Height = desc_.BufferDesc.Height;
    t.MipLevels = 1;
    t.ArraySize = 1;
    t.Format = desc_.BufferDesc.Format;
    t.SampleDesc = desc_.SampleDesc;
    t.Usage = D3D11_USAGE_DEFAULT;
    if (desc_.BufferUsage & DXGI_USAGE_RENDER_TARGET_OUTPUT) t.BindFlags |= D3D11_BIND_RENDER_TARGET;
    if (desc_.BufferUsage & DXGI_USAGE_SHADER_INPUT) t.BindFlags |= D3D11_BIND_SHADER_RESOURCE;
    if (desc_.BufferUsage & DXGI_USAGE_UNORDERED_ACCESS) t.BindFlags |= D3D11_BIND_UNORDERED_ACCESS;
    for (UINT i = 0; i < desc_.BufferCount; ++i) {
      ID3D11Texture2D* buffer = nullptr;
      const HRESULT hr = device_->CreateTexture2D(&t, nullptr, &buffer);
      if (FAILED(hr)) {
        releaseBuffers();
        return hr;
      }
      buffers_.push_back(buffer);
    }
    return S_OK;
  }

  // IUnknown
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
    if (!out)
      return E_POINTER;
    *out = nullptr;
    if (riid == __uuidof(IUnknown) || riid == __uuidof(IDXGIObject) || riid == __uuidof(IDXGIDeviceSubObject) ||
        riid == __uuidof(IDXGISwapChain)) {
      *out = static_cast<IDXGISwapChain*>(this);
      AddRef();
      return S_OK;
    }
    return E_NOINTERFACE;
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return ++refs_; }
  ULONG STDMETHODCALLTYPE Release() override {
    const ULONG refs = --refs_;
    if (!refs)
      delete this;
    return refs;
  }

  // IDXGIObject, IDXGIDeviceSubObject
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override {
    return privateData_.set(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* object) override {
    return privateData_.setInterface(guid, object);
  }
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override {
    return privateData_.get(guid, size, data);
  }
  HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override {
    return factory_->QueryInterface(riid, parent);
  }
  HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void** out) override { return device_->QueryInterface(riid, out); }

  // IDXGISwapChain
  HRESULT STDMETHODCALLTYPE Present(UINT syncInterval, UINT flags) override {
    if (syncInterval > 4)
      return DXGI_ERROR_INVALID_CALL;
    if (flags & DXGI_PRESENT_TEST)
      return device_->GetDeviceRemovedReason();   // nothing is occluded here
    harness::Device& ddiDevice = device_->ddiDevice();
    std::lock_guard<std::recursive_mutex> lock(device_->lock());
    ddi::DXGI_DDI_ARG_PRESENT args{};
    args.hDevice = reinterpret_cast<ddi::DXGI_DDI_HDEVICE>(device_->handle().pDrvPrivate);
    args.hSurfaceToPresent = dxgiHandle(buffers_[0]);
    args.pDXGIContext = this;
    if (flipModel(desc_.SwapEffect))
      args.Flags.Flip = 1;
    else
      args.Flags.Blt = 1;
    args.FlipInterval = ddi::DXGI_DDI_FLIP_INTERVAL_TYPE(syncInterval);
    HRESULT hr = ddiDevice.dxgi1_2.pfnPresent(&args);
    if (SUCCEEDED(hr) && buffers_.size() > 1) {
      std::vector<ddi::DXGI_DDI_HRESOURCE> handles;
      for (ID3D11Texture2D* buffer : buffers_)
        handles.push_back(dxgiHandle(buffer));
      ddi::DXGI_DDI_ARG_ROTATE_RESOURCE_IDENTITIES rotate{args.hDevice, handles.data(), UINT(handles.size())};
      hr = ddiDevice.dxgi1_2.pfnRotateResourceIdentities(&rotate);
    }
    if (FAILED(hr)) {
      hr = apiError(hr);
      device_->noteError(hr);
      return hr;
    }
    ++presents_;
    return S_OK;
  }
  HRESULT STDMETHODCALLTYPE GetBuffer(UINT index, REFIID riid, void** out) override {
    if (!out)
      return DXGI_ERROR_INVALID_CALL;
    *out = nullptr;
    // The discard models give out buffer 0 only; the sequential ones every buffer (Wine's
    // dxgi and d3d11 suites: test_swapchain_parameters, test_swapchain_flip).
    const bool discards = desc_.SwapEffect == DXGI_SWAP_EFFECT_DISCARD || desc_.SwapEffect == DXGI_SWAP_EFFECT_FLIP_DISCARD;
    if (index >= buffers_.size() || (index > 0 && discards))
      return DXGI_ERROR_INVALID_CALL;
    return buffers_[index]->QueryInterface(riid, out);
  }
  HRESULT STDMETHODCALLTYPE SetFullscreenState(BOOL fullscreen, IDXGIOutput*) override {
    // Exclusive fullscreen has no host side (Triton's SetDisplayMode refuses it too).
    return fullscreen ? DXGI_ERROR_NOT_CURRENTLY_AVAILABLE : S_OK;
  }
  HRESULT STDMETHODCALLTYPE GetFullscreenState(BOOL* fullscreen, IDXGIOutput** output) override {
    if (fullscreen) *fullscreen = FALSE;
    if (output) *output = nullptr;
    return S_OK;
  }
  HRESULT STDMETHODCALLTYPE GetDesc(DXGI_SWAP_CHAIN_DESC* desc) override {
    if (!desc)
      return E_INVALIDARG;
    *desc = desc_;
    return S_OK;
  }
  HRESULT STDMETHODCALLTYPE ResizeBuffers(UINT count, UINT width, UINT height, DXGI_FORMAT format,
                                          UINT flags) override {
    // Every reference to a buffer but the swapchain's must be gone, as DXGI requires.
    for (ID3D11Texture2D* buffer : buffers_) {
      buffer->AddRef();
      if (buffer->Release() > 1)
        return DXGI_ERROR_INVALID_CALL;
    }
    DXGI_SWAP_CHAIN_DESC next = desc_;
    if (count) next.BufferCount = count;
    if (format != DXGI_FORMAT_UNKNOWN) next.BufferDesc.Format = format;
    next.BufferDesc.Width = width ? width : windowWidth();
    next.BufferDesc.Height = height ? height : windowHeight();
    next.Flags = flags;
    releaseBuffers();
    desc_ = next;
    return createBuffers();
  }
  HRESULT STDMETHODCALLTYPE ResizeTarget(const DXGI_MODE_DESC* mode) override {
    return mode ? S_OK : DXGI_ERROR_INVALID_CALL;
  }
  HRESULT STDMETHODCALLTYPE GetContainingOutput(IDXGIOutput** output) override {
    if (output) *output = nullptr;
    return DXGI_ERROR_UNSUPPORTED;   // the adapter has no outputs
  }
  HRESULT STDMETHODCALLTYPE GetFrameStatistics(DXGI_FRAME_STATISTICS* stats) override {
    if (stats) *stats = {};
    return DXGI_ERROR_FRAME_STATISTICS_DISJOINT;
  }
  HRESULT STDMETHODCALLTYPE GetLastPresentCount(UINT* count) override {
    if (!count)
      return E_INVALIDARG;
    *count = presents_;
    return S_OK;
  }

private:
  static ddi::DXGI_DDI_HRESOURCE dxgiHandle(ID3D11Texture2D* buffer) {
    return reinterpret_cast<ddi::DXGI_DDI_HRESOURCE>(static_cast<Texture2D*>(buffer)->handle.pDrvPrivate);
  }
  UINT windowWidth() const {
    RECT r{};
    return GetClientRect(desc_.OutputWindow, &r) && r.right > r.left ? UINT(r.right - r.left) : 8u;
  }
  UINT windowHeight() const {
    RECT r{};
    return GetClientRect(desc_.OutputWindow, &r) && r.bottom > r.top ? UINT(r.bottom - r.top) : 8u;
  }
  void releaseBuffers() {
    for (ID3D11Texture2D* buffer : buffers_)
      buffer->Release();
    buffers_.clear();
  }

  std::atomic<ULONG> refs_{1};
  Device* device_;
  IDXGIFactory* factory_;
  DXGI_SWAP_CHAIN_DESC desc_;
  std::vector<ID3D11Texture2D*> buffers_;
  UINT presents_ = 0;
  PrivateData privateData_;
};

}  // namespace

HRESULT createSwapChain(Device* device, IDXGIFactory* factory, const DXGI_SWAP_CHAIN_DESC& d, IDXGISwapChain** out) {
  DXGI_SWAP_CHAIN_DESC desc = d;
  const bool flip = flipModel(desc.SwapEffect);
  if (!desc.BufferCount || desc.BufferCount > DXGI_MAX_SWAP_CHAIN_BUFFERS || (flip && desc.BufferCount < 2) ||
      (flip && desc.SampleDesc.Count != 1) || !desc.OutputWindow)
    return DXGI_ERROR_INVALID_CALL;
  // A zero size is the window's client area.
  RECT client{};
  if ((!desc.BufferDesc.Width || !desc.BufferDesc.Height) && GetClientRect(desc.OutputWindow, &client)) {
    if (!desc.BufferDesc.Width) desc.BufferDesc.Width = std::max<LONG>(client.right - client.left, 1);
    if (!desc.BufferDesc.Height) desc.BufferDesc.Height = std::max<LONG>(client.bottom - client.top, 1);
  }
  if (!desc.Windowed)
    return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;   // no exclusive fullscreen (SetFullscreenState)
  auto* swapchain = new SwapChain(device, factory, desc);
  const HRESULT hr = swapchain->createBuffers();
  if (FAILED(hr)) {
    swapchain->Release();
    return hr;
  }
  *out = swapchain;
  return S_OK;
}

}  // namespace triton::runtime
