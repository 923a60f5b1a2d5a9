// SPDX-License-Identifier: MIT
#include "swapchain.h"

#include <algorithm>

#include "../core/log.h"
#include "../core/runtime.h"
#include "adapter.h"
#include "output.h"
#include "resource_face.h"
#include "d3d11/texture.h"

namespace npt::guest::dxgi {

namespace {

constexpr std::chrono::microseconds kRetirePollInterval{200};

UINT bindFlagsOf(DXGI_USAGE usage) {
  UINT bind = 0;
  if (usage & DXGI_USAGE_RENDER_TARGET_OUTPUT) bind |= D3D11_BIND_RENDER_TARGET;
  if (usage & DXGI_USAGE_SHADER_INPUT) bind |= D3D11_BIND_SHADER_RESOURCE;
  if (usage & DXGI_USAGE_UNORDERED_ACCESS) bind |= D3D11_BIND_UNORDERED_ACCESS;
  return bind;
}

// Width/height 0 take the window's client size (CreateSwapChain*, ResizeBuffers); a
// minimised or zero-sized window still gets 1x1 buffers.
void clientSize(HWND window, UINT* width, UINT* height) {
  RECT rect = {};
  GetClientRect(window, &rect);
  if (*width == 0)
    *width = std::max<LONG>(rect.right - rect.left, 1);
  if (*height == 0)
    *height = std::max<LONG>(rect.bottom - rect.top, 1);
}

}

SwapChain::SwapChain(Factory* factory, IUnknown* device, INptDevice* nptDevice, HWND window)
: m_factory(factory), m_device(device), m_nptDevice(nptDevice), m_window(window) {
  // One device reference, as on Windows (test_create_swapchain: 2 -> 3); the INptDevice
  // is the same object, kept alive by it.
  m_device->AddRef();
  // Windows' swapchain holds two references on its factory (test_create_swapchain: a
  // factory at 2 goes to 4); the parent reference is m_factory, this is the second.
  m_factory->AddRef();
}

SwapChain::~SwapChain() {
  {
    std::lock_guard<std::mutex> lock(m_frameMutex);
    m_stopping = true;
  }
  m_frameChanged.notify_all();
  if (m_retireThread.joinable())
    m_retireThread.join();
  releaseBuffers();
  if (m_latencySemaphore)
    CloseHandle(m_latencySemaphore);
  m_device->Release();
  m_factory->Release();
}

HRESULT SwapChain::init(const DXGI_SWAP_CHAIN_DESC1& desc, const DXGI_SWAP_CHAIN_FULLSCREEN_DESC& fullscreen,
                        IDXGIOutput* restrictToOutput) {
  m_desc = desc;
  m_fullscreenDesc = fullscreen;
  m_fullscreenDesc.Windowed = TRUE;   // see createSwapChain
  if (m_desc.AlphaMode == DXGI_ALPHA_MODE_UNSPECIFIED)
    m_desc.AlphaMode = DXGI_ALPHA_MODE_IGNORE;
  clientSize(m_window, &m_desc.Width, &m_desc.Height);
  m_restrictToOutput.reset(restrictToOutput);

  ComRef<IDXGIOutput> output;
  if (SUCCEEDED(GetContainingOutput(output.put())))
    m_refreshPeriod = static_cast<Output*>(output.get())->refreshPeriod();
  else
    m_refreshPeriod = std::chrono::nanoseconds(16666667);

  if (m_desc.Flags & DXGI_SWAP_CHAIN_FLAG_FRAME_LATENCY_WAITABLE_OBJECT) {
    m_maxFrameLatency = kDefaultWaitableFrameLatency;
    // Every retired frame releases it whether or not the application waited
    // (test_frame_latency_event), so its maximum count is not the latency.
    m_latencySemaphore = CreateSemaphoreW(nullptr, LONG(m_maxFrameLatency), 0x7fffffff, nullptr);
    if (!m_latencySemaphore)
      return E_OUTOFMEMORY;
  } else {
    // IDXGIDevice1's default maximum frame latency.
    m_maxFrameLatency = kDefaultFrameLatency;
  }
  HRESULT hr = createBuffers();
  if (FAILED(hr))
    return hr;
  m_retireThread = std::thread([this] { retireLoop(); });
  return S_OK;
}

HRESULT SwapChain::createBuffers() {
  D3D11_TEXTURE2D_DESC desc = {};
  desc.Width = m_desc.Width;
  desc.Height = m_desc.Height;
  desc.MipLevels = 1;
  desc.ArraySize = 1;
  desc.Format = m_desc.Format;
  desc.SampleDesc = m_desc.SampleDesc;
  desc.Usage = D3D11_USAGE_DEFAULT;
  desc.BindFlags = bindFlagsOf(m_desc.BufferUsage);
  if (m_desc.Flags & DXGI_SWAP_CHAIN_FLAG_GDI_COMPATIBLE)
    desc.MiscFlags |= D3D11_RESOURCE_MISC_GDI_COMPATIBLE;
  for (UINT i = 0; i < m_desc.BufferCount; i++) {
    ID3D11Texture2D* texture = nullptr;
    HRESULT hr = m_nptDevice->CreateBackBuffer(&desc, &texture);
    if (FAILED(hr)) {
      NPT_ERROR("swapchain: back buffer %u (%ux%u, format %u) could not be created: 0x%08x", i, desc.Width,
                desc.Height, unsigned(desc.Format), unsigned(hr));
      releaseBuffers();
      return hr;
    }
    // IDXGIResource::GetUsage of a back buffer (test_swapchain_parameters). Only
    // Neptune's textures carry the DXGI face (a stand-in device's may not).
    bool neptuneTexture = setResourceUsage(texture, backBufferUsage(m_desc.BufferUsage, m_desc.SwapEffect, i));
    if (neptuneTexture) {
      // The swapchain's own hold is private, as Windows' swapchain holds its buffers:
      // no public reference, so no device reference (test_create_swapchain: the device
      // count rises by one, the swapchain's); GetBuffer hands out public ones.
      auto* neptune = static_cast<Texture2D*>(static_cast<ID3D11Texture2D1*>(texture));
      neptune->addRefPrivate();
      texture->Release();
    }
    m_buffers.push_back({ texture, neptuneTexture });
  }
  return S_OK;
}

void SwapChain::releaseBuffers() {
  for (const BackBuffer& buffer : m_buffers) {
    if (buffer.privateHold)
      static_cast<Texture2D*>(static_cast<ID3D11Texture2D1*>(buffer.texture))->releasePrivate();
    else
      buffer.texture->Release();
  }
  m_buffers.clear();
}

bool SwapChain::buffersReferenced() const {
  for (const BackBuffer& buffer : m_buffers) {
    if (buffer.privateHold) {
      // Windows counts views too, and what a context still binds: a view holds a private
      // reference on its resource, and bindings keep the view (so its reference) alive.
      // The swapchain's own hold is the one private reference left when nothing else is.
      const Texture2D* texture = static_cast<Texture2D*>(static_cast<ID3D11Texture2D1*>(buffer.texture));
      if (texture->publicRefs() > 0 || texture->privateRefs() > 1)
        return true;
      continue;
    }
    buffer.texture->AddRef();
    if (buffer.texture->Release() > 1)
      return true;
  }
  return false;
}

HRESULT SwapChain::QueryInterface(REFIID riid, void** object) {
  if (!object)
    return E_POINTER;
  *object = nullptr;
  if (riid == __uuidof(IUnknown) || riid == __uuidof(IDXGIObject) || riid == __uuidof(IDXGIDeviceSubObject) ||
      riid == __uuidof(IDXGISwapChain) || riid == __uuidof(IDXGISwapChain1) || riid == __uuidof(IDXGISwapChain2) ||
      riid == __uuidof(IDXGISwapChain3) || riid == __uuidof(IDXGISwapChain4))
    return returnInterface(this, object);
  return E_NOINTERFACE;
}

HRESULT SwapChain::GetParent(REFIID riid, void** parent) {
  if (!parent)
    return E_POINTER;
  return m_factory->QueryInterface(riid, parent);
}

HRESULT SwapChain::GetDevice(REFIID riid, void** device) {
  if (!device)
    return E_POINTER;
  return m_device->QueryInterface(riid, device);
}

UINT SwapChain::frameLatencyLocked() const {
  // With a waitable object the application paces itself on it (test_frame_latency_event
  // presents 5 frames at latency 1 without waiting); Present only keeps the queue bounded.
  if (m_latencySemaphore)
    return kMaxFrameLatency;
  return m_maxFrameLatency ? m_maxFrameLatency : kDefaultFrameLatency;
}

HRESULT SwapChain::Present(UINT syncInterval, UINT flags) {
  return presentCommon(syncInterval, flags);
}

HRESULT SwapChain::Present1(UINT syncInterval, UINT flags, const DXGI_PRESENT_PARAMETERS* parameters) {
  HRESULT hr = validatePresentParameters(parameters, m_desc.SwapEffect, m_desc.Width, m_desc.Height);
  if (FAILED(hr))
    return hr;
  // Dirty and scroll rectangles are optimisation hints; the host presents the whole
  // buffer, which is what they describe the result of.
  return presentCommon(syncInterval, flags);
}

HRESULT SwapChain::presentCommon(UINT syncInterval, UINT flags) {
  PresentState state = { m_desc.SwapEffect, m_desc.Flags, m_fullscreenDesc.Windowed != FALSE };
  HRESULT hr = validatePresent(state, syncInterval, flags);
  if (FAILED(hr))
    return hr;
  // test_swapchain_present: a minimised window is occluded (test presents included);
  // nothing is shown, the application is told to stop rendering.
  if (IsIconic(m_window))
    return DXGI_STATUS_OCCLUDED;
  if (flags & DXGI_PRESENT_TEST)
    return S_OK;

  // Without a waitable object the device's IDXGIDevice1 latency applies (default 3).
  UINT deviceLatency = kDefaultFrameLatency;
  ComRef<IDXGIDevice1> dxgiDevice;
  if (!m_latencySemaphore &&
      SUCCEEDED(m_device->QueryInterface(__uuidof(IDXGIDevice1), reinterpret_cast<void**>(dxgiDevice.put()))) &&
      SUCCEEDED(dxgiDevice->GetMaximumFrameLatency(&deviceLatency)) && deviceLatency == 0)
    deviceLatency = kDefaultFrameLatency;
  {
    std::unique_lock<std::mutex> lock(m_frameMutex);
    if (!m_latencySemaphore)
      m_maxFrameLatency = deviceLatency;
    while (m_pending.size() >= frameLatencyLocked()) {
      if (flags & DXGI_PRESENT_DO_NOT_WAIT)
        return DXGI_ERROR_WAS_STILL_DRAWING;
      m_frameChanged.wait(lock);
    }
  }

  hr = m_nptDevice->PresentBuffer(m_buffers[0].texture, syncInterval, flags & ~UINT(DXGI_PRESENT_DO_NOT_WAIT));
  if (FAILED(hr))
    return hr;
  if (m_desc.SwapEffect == DXGI_SWAP_EFFECT_SEQUENTIAL || m_desc.SwapEffect == DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL)
    rotateSequentialBuffers();

  uint64_t sequence = 0;
  Runtime* runtime = nullptr;
  if (SUCCEEDED(Runtime::acquire(&runtime)))
    sequence = runtime->connection().submitted(runtime->stream().ring());
  {
    std::lock_guard<std::mutex> lock(m_frameMutex);
    m_pending.push_back({ sequence, syncInterval });
    m_presentCount++;
  }
  m_frameChanged.notify_all();
  return S_OK;
}

void SwapChain::rotateSequentialBuffers() {
  // Sequential models keep the presented frames in the other buffers (read-only to the
  // application): after a present, buffer i+1 holds what buffer i held. The copies are
  // commands on the immediate context, ordered after the PresentBuffer on the ring.
  if (m_buffers.size() < 2)
    return;
  ComRef<ID3D11Device> device;
  if (FAILED(m_device->QueryInterface(__uuidof(ID3D11Device), reinterpret_cast<void**>(device.put()))))
    return;
  ComRef<ID3D11DeviceContext> context;
  device->GetImmediateContext(context.put());
  for (size_t i = m_buffers.size() - 1; i > 0; i--)
    context->CopyResource(m_buffers[i].texture, m_buffers[i - 1].texture);
}

void SwapChain::retireLoop() {
  Runtime* runtime = nullptr;
  Runtime::acquire(&runtime);
  for (;;) {
    PendingFrame frame;
    {
      std::unique_lock<std::mutex> lock(m_frameMutex);
      m_frameChanged.wait(lock, [&] { return m_stopping || !m_pending.empty(); });
      if (m_stopping)
        return;
      frame = m_pending.front();
    }
    // The host executed the present (or is gone: nothing will ever execute again).
    if (runtime) {
      uint32_t ring = runtime->stream().ring();
      while (runtime->connection().executed(ring) < frame.sequence &&
             runtime->connection().status() == transport::kOk) {
        {
          std::lock_guard<std::mutex> lock(m_frameMutex);
          if (m_stopping)
            return;
        }
        std::this_thread::sleep_for(kRetirePollInterval);
      }
    }
    // Vsync: the frame is shown at the first vblank at least syncInterval vblanks after
    // the previous frame was shown.
    UINT64 vblank = vblankIndex(std::chrono::steady_clock::now(), m_refreshPeriod);
    if (frame.syncInterval) {
      UINT64 target = std::max(vblank + 1, m_lastRetireVblank + frame.syncInterval);
      auto when = vblankEpoch() + m_refreshPeriod * int64_t(target);
      // In slices, so that destruction does not wait for a long sync interval.
      for (;;) {
        auto sliceEnd = std::min(when, std::chrono::steady_clock::now() + std::chrono::milliseconds(5));
        sleepUntil(sliceEnd);
        {
          std::lock_guard<std::mutex> lock(m_frameMutex);
          if (m_stopping)
            return;
        }
        if (sliceEnd == when)
          break;
      }
      vblank = target;
    }
    {
      std::lock_guard<std::mutex> lock(m_frameMutex);
      m_pending.pop_front();
      m_retiredCount++;
      m_lastRetireVblank = vblank;
      QueryPerformanceCounter(&m_lastRetireQpc);
      if (m_latencySemaphore)
        ReleaseSemaphore(m_latencySemaphore, 1, nullptr);
    }
    m_frameChanged.notify_all();
  }
}

HRESULT SwapChain::GetBuffer(UINT index, REFIID riid, void** surface) {
  if (!surface)
    return DXGI_ERROR_INVALID_CALL;
  *surface = nullptr;
  // test_swapchain_parameters: DISCARD models expose buffer 0 only.
  if (index >= accessibleBufferCount(m_desc.SwapEffect, UINT(m_buffers.size())))
    return DXGI_ERROR_INVALID_CALL;
  return m_buffers[index].texture->QueryInterface(riid, surface);
}

HRESULT SwapChain::SetFullscreenState(BOOL fullscreen, IDXGIOutput* target) {
  // Windowed is the only state (the host presenter has no exclusive mode yet).
  if (!fullscreen)
    return target ? DXGI_ERROR_INVALID_CALL : S_OK;
  // The documented answer when fullscreen cannot be entered now; applications keep
  // running windowed.
  return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT SwapChain::GetFullscreenState(BOOL* fullscreen, IDXGIOutput** target) {
  if (fullscreen)
    *fullscreen = FALSE;
  if (target)
    *target = nullptr;
  return S_OK;
}

HRESULT SwapChain::GetDesc(DXGI_SWAP_CHAIN_DESC* desc) {
  if (!desc)
    return E_INVALIDARG;
  desc->BufferDesc.Width = m_desc.Width;
  desc->BufferDesc.Height = m_desc.Height;
  desc->BufferDesc.RefreshRate = m_fullscreenDesc.RefreshRate;
  desc->BufferDesc.Format = m_desc.Format;
  desc->BufferDesc.ScanlineOrdering = m_fullscreenDesc.ScanlineOrdering;
  desc->BufferDesc.Scaling = m_fullscreenDesc.Scaling;
  desc->SampleDesc = m_desc.SampleDesc;
  desc->BufferUsage = m_desc.BufferUsage;
  desc->BufferCount = m_desc.BufferCount;
  desc->OutputWindow = m_window;
  desc->Windowed = m_fullscreenDesc.Windowed;
  desc->SwapEffect = m_desc.SwapEffect;
  desc->Flags = m_desc.Flags;
  return S_OK;
}

HRESULT SwapChain::GetDesc1(DXGI_SWAP_CHAIN_DESC1* desc) {
  if (!desc)
    return E_INVALIDARG;
  *desc = m_desc;
  return S_OK;
}

HRESULT SwapChain::GetFullscreenDesc(DXGI_SWAP_CHAIN_FULLSCREEN_DESC* desc) {
  if (!desc)
    return E_INVALIDARG;
  *desc = m_fullscreenDesc;
  return S_OK;
}

HRESULT SwapChain::GetHwnd(HWND* hwnd) {
  if (!hwnd)
    return DXGI_ERROR_INVALID_CALL;
  *hwnd = m_window;
  return S_OK;
}

HRESULT SwapChain::GetCoreWindow(REFIID riid, void** window) {
  if (window)
    *window = nullptr;
  // An HWND swapchain has no CoreWindow.
  return DXGI_ERROR_INVALID_CALL;
}

HRESULT SwapChain::ResizeBuffers(UINT count, UINT width, UINT height, DXGI_FORMAT format, UINT flags) {
  HRESULT hr = validateResizeBuffers(m_desc, count, format, flags);
  if (FAILED(hr))
    return hr;
  // Windows refuses while the application holds any back buffer reference.
  if (buffersReferenced())
    return DXGI_ERROR_INVALID_CALL;
  DXGI_SWAP_CHAIN_DESC1 previous = m_desc;
  if (count)
    m_desc.BufferCount = count;
  if (format != DXGI_FORMAT_UNKNOWN)
    m_desc.Format = format;
  m_desc.Width = width;
  m_desc.Height = height;
  clientSize(m_window, &m_desc.Width, &m_desc.Height);
  m_desc.Flags = flags;
  releaseBuffers();
  hr = createBuffers();
  if (FAILED(hr)) {
    // Keep a usable swapchain: the previous buffers' description is known to work.
    m_desc = previous;
    if (FAILED(createBuffers()))
      NPT_ERROR("swapchain: the previous back buffers could not be recreated either");
  }
  return hr;
}

HRESULT SwapChain::ResizeBuffers1(UINT count, UINT width, UINT height, DXGI_FORMAT format, UINT flags,
                                  const UINT* creationNodeMask, IUnknown* const* presentQueue) {
  // Node masks and present queues are D3D12 concepts (test_swapchain_resize: a D3D11
  // swapchain given them is an invalid call).
  if (creationNodeMask || presentQueue)
    return DXGI_ERROR_INVALID_CALL;
  return ResizeBuffers(count, width, height, format, flags);
}

HRESULT SwapChain::ResizeTarget(const DXGI_MODE_DESC* mode) {
  if (!mode)
    return DXGI_ERROR_INVALID_CALL;
  // Windowed: the window's client area becomes the mode's size (zero keeps a side).
  RECT client = {};
  GetClientRect(m_window, &client);
  LONG width = mode->Width ? LONG(mode->Width) : client.right - client.left;
  LONG height = mode->Height ? LONG(mode->Height) : client.bottom - client.top;
  RECT rect = { 0, 0, width, height };
  LONG style = GetWindowLongW(m_window, GWL_STYLE);
  LONG exStyle = GetWindowLongW(m_window, GWL_EXSTYLE);
  AdjustWindowRectEx(&rect, DWORD(style), GetMenu(m_window) != nullptr, DWORD(exStyle));
  SetWindowPos(m_window, nullptr, 0, 0, rect.right - rect.left, rect.bottom - rect.top,
               SWP_NOMOVE | SWP_NOZORDER | SWP_NOACTIVATE);
  return S_OK;
}

HRESULT SwapChain::GetContainingOutput(IDXGIOutput** output) {
  if (!output)
    return DXGI_ERROR_INVALID_CALL;
  *output = nullptr;
  if (m_restrictToOutput) {
    *output = addRefed(m_restrictToOutput.get());
    return S_OK;
  }
  const protocol::HostInfo& host = m_factory->host();
  if (host.outputs.empty())
    return DXGI_ERROR_NOT_FOUND;
  // The output whose desktop rectangle overlaps the window most (output 0 otherwise).
  RECT window = {};
  GetWindowRect(m_window, &window);
  UINT best = 0;
  LONGLONG bestArea = -1;
  for (UINT i = 0; i < host.outputs.size(); i++) {
    RECT overlap;
    LONGLONG area = IntersectRect(&overlap, &window, &host.outputs[i].desktopCoordinates)
        ? LONGLONG(overlap.right - overlap.left) * (overlap.bottom - overlap.top) : 0;
    if (area > bestArea) {
      bestArea = area;
      best = i;
    }
  }
  ComRef<Adapter> adapter;
  *adapter.put() = Adapter::create(m_factory.get());
  return adapter->EnumOutputs(best, output);
}

HRESULT SwapChain::GetFrameStatistics(DXGI_FRAME_STATISTICS* stats) {
  if (!stats)
    return DXGI_ERROR_INVALID_CALL;
  std::lock_guard<std::mutex> lock(m_frameMutex);
  // Before the first frame was shown there is nothing to report (Windows' answer).
  if (m_retiredCount == 0)
    return DXGI_ERROR_FRAME_STATISTICS_DISJOINT;
  *stats = {};
  stats->PresentCount = m_retiredCount;
  stats->PresentRefreshCount = UINT(m_lastRetireVblank);
  stats->SyncRefreshCount = UINT(m_lastRetireVblank);
  stats->SyncQPCTime = m_lastRetireQpc;
  return S_OK;
}

HRESULT SwapChain::GetLastPresentCount(UINT* count) {
  if (!count)
    return DXGI_ERROR_INVALID_CALL;
  std::lock_guard<std::mutex> lock(m_frameMutex);
  *count = m_presentCount;
  return S_OK;
}

BOOL SwapChain::IsTemporaryMonoSupported() {
  return FALSE;
}

HRESULT SwapChain::GetRestrictToOutput(IDXGIOutput** output) {
  if (!output)
    return E_INVALIDARG;
  *output = addRefed(m_restrictToOutput.get());
  return S_OK;
}

HRESULT SwapChain::SetBackgroundColor(const DXGI_RGBA* color) {
  if (!color)
    return E_INVALIDARG;
  // Shown only where a flip-model buffer does not cover the window (Scaling NONE); the
  // headless presenter has no such area, the colour is kept for GetBackgroundColor.
  m_backgroundColor = *color;
  return S_OK;
}

HRESULT SwapChain::GetBackgroundColor(DXGI_RGBA* color) {
  if (!color)
    return E_INVALIDARG;
  *color = m_backgroundColor;
  return S_OK;
}

HRESULT SwapChain::SetRotation(DXGI_MODE_ROTATION rotation) {
  // Rotation is a flip-model feature.
  if (!isFlipModel(m_desc.SwapEffect))
    return DXGI_ERROR_INVALID_CALL;
  if (rotation < DXGI_MODE_ROTATION_IDENTITY || rotation > DXGI_MODE_ROTATION_ROTATE270)
    return E_INVALIDARG;
  // The presenter shows buffers unrotated.
  if (rotation != DXGI_MODE_ROTATION_IDENTITY)
    return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
  m_rotation = rotation;
  return S_OK;
}

HRESULT SwapChain::GetRotation(DXGI_MODE_ROTATION* rotation) {
  if (!rotation)
    return E_INVALIDARG;
  *rotation = m_rotation;
  return S_OK;
}

HRESULT SwapChain::SetSourceSize(UINT width, UINT height) {
  if (!width || !height || width > m_desc.Width || height > m_desc.Height)
    return E_INVALIDARG;
  m_sourceWidth = width;
  m_sourceHeight = height;
  return S_OK;
}

HRESULT SwapChain::GetSourceSize(UINT* width, UINT* height) {
  if (!width || !height)
    return E_INVALIDARG;
  *width = m_sourceWidth ? m_sourceWidth : m_desc.Width;
  *height = m_sourceHeight ? m_sourceHeight : m_desc.Height;
  return S_OK;
}

HRESULT SwapChain::SetMaximumFrameLatency(UINT latency) {
  // Only swapchains created with a waitable object have their own latency.
  if (!m_latencySemaphore)
    return DXGI_ERROR_INVALID_CALL;
  if (latency == 0 || latency > kMaxFrameLatency)
    return DXGI_ERROR_INVALID_CALL;
  std::lock_guard<std::mutex> lock(m_frameMutex);
  // A larger latency admits that many more frames at once.
  if (latency > m_maxFrameLatency)
    ReleaseSemaphore(m_latencySemaphore, LONG(latency - m_maxFrameLatency), nullptr);
  m_maxFrameLatency = latency;
  m_frameChanged.notify_all();
  return S_OK;
}

HRESULT SwapChain::GetMaximumFrameLatency(UINT* latency) {
  if (!latency || !m_latencySemaphore)
    return DXGI_ERROR_INVALID_CALL;
  std::lock_guard<std::mutex> lock(m_frameMutex);
  *latency = m_maxFrameLatency;
  return S_OK;
}

HANDLE SwapChain::GetFrameLatencyWaitableObject() {
  if (!m_latencySemaphore)
    return nullptr;
  // The caller closes what it gets (documented), so it gets its own handle.
  HANDLE handle = nullptr;
  if (!DuplicateHandle(GetCurrentProcess(), m_latencySemaphore, GetCurrentProcess(), &handle, 0, FALSE,
                       DUPLICATE_SAME_ACCESS))
    return nullptr;
  return handle;
}

HRESULT SwapChain::SetMatrixTransform(const DXGI_MATRIX_3X2_F* matrix) {
  // Composition swapchains only; this is an HWND swapchain.
  return DXGI_ERROR_INVALID_CALL;
}

HRESULT SwapChain::GetMatrixTransform(DXGI_MATRIX_3X2_F* matrix) {
  return DXGI_ERROR_INVALID_CALL;
}

UINT SwapChain::GetCurrentBackBufferIndex() {
  // D3D11 swapchains always render to buffer 0 (test_swapchain_backbuffer_index).
  return 0;
}

HRESULT SwapChain::CheckColorSpaceSupport(DXGI_COLOR_SPACE_TYPE colorSpace, UINT* support) {
  if (!support)
    return E_INVALIDARG;
  *support = colorSpaceSupport(m_desc.Format, colorSpace);
  return S_OK;
}

HRESULT SwapChain::SetColorSpace1(DXGI_COLOR_SPACE_TYPE colorSpace) {
  if (!(colorSpaceSupport(m_desc.Format, colorSpace) & DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT_FLAG_PRESENT))
    return E_INVALIDARG;
  m_colorSpace = colorSpace;
  return S_OK;
}

HRESULT SwapChain::SetHDRMetaData(DXGI_HDR_METADATA_TYPE type, UINT size, void* metadata) {
  HRESULT hr = validateHdrMetaData(type, size, metadata);
  if (FAILED(hr))
    return hr;
  // The SDR presenter has no use for mastering metadata; accepting it is what an SDR
  // display on Windows does too.
  m_hdrType = type;
  return S_OK;
}

HRESULT createSwapChain(Factory* factory, IUnknown* device, HWND window, const DXGI_SWAP_CHAIN_DESC1& desc,
                        const DXGI_SWAP_CHAIN_FULLSCREEN_DESC& fullscreen, IDXGIOutput* restrictToOutput,
                        SwapChainTarget target, IDXGISwapChain1** swapchain) {
  *swapchain = nullptr;
  ComRef<ID3D11Device> d3d11;
  device->QueryInterface(__uuidof(ID3D11Device), reinterpret_cast<void**>(d3d11.put()));

  SwapChainCaps caps;
  caps.tearingSupported = true;   // Factory::CheckFeatureSupport(PRESENT_ALLOW_TEARING)
  caps.qualityLevels = [&](DXGI_FORMAT format, UINT count) -> UINT {
    UINT levels = 0;
    if (d3d11)
      d3d11->CheckMultisampleQualityLevels(format, count, &levels);
    return levels;
  };
  HRESULT hr = validateSwapChainDesc(desc, target, caps);
  if (FAILED(hr))
    return hr;

  INptDevice* nptDevice = nullptr;
  if (FAILED(device->QueryInterface(kIID_INptDevice, reinterpret_cast<void**>(&nptDevice)))) {
    // A device of another D3D implementation (or no device): its buffers cannot be
    // presented through Neptune.
    NPT_ERROR("CreateSwapChain: the device is not a Neptune D3D11 device");
    return DXGI_ERROR_INVALID_CALL;
  }
  SwapChain* object = new SwapChain(factory, device, nptDevice, window);
  nptDevice->Release();   // the swapchain's reference on `device` keeps it alive
  object->AddRef();
  hr = object->init(desc, fullscreen, restrictToOutput);
  if (FAILED(hr)) {
    object->Release();
    return hr;
  }
  *swapchain = object;
  if (!fullscreen.Windowed) {
    NPT_INFO("CreateSwapChain: fullscreen requested; the swapchain is windowed (DXGI_STATUS_OCCLUDED)");
    return DXGI_STATUS_OCCLUDED;
  }
  return S_OK;
}

}
