// SPDX-License-Identifier: MIT
#include "presenter.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#ifndef _WIN32
#include <sys/resource.h>
#endif

#include "png_file.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;

bool parsePresentMode(const char* text, PresentMode* mode) {
  if (!text || !*text || std::strcmp(text, "headless") == 0) *mode = PresentMode::Headless;
  else if (std::strcmp(text, "window") == 0) *mode = PresentMode::Window;
  else if (std::strcmp(text, "none") == 0) *mode = PresentMode::None;
  else return false;
  return true;
}

uint64_t fnv1a64(const std::vector<uint8_t>& bytes) {
  uint64_t hash = 1469598103934665603ull;
  for (uint8_t byte : bytes) hash = (hash ^ byte) * 1099511628211ull;
  return hash;
}

Presenter::Presenter(Executor& executor) : m_executor(executor) {
  const char* mode = std::getenv("NPT_PRESENT");
  if (!parsePresentMode(mode, &m_mode)) m_executor.log("present: NPT_PRESENT=%s is not window|headless|none; headless", mode);
  const char* copy = std::getenv("NPT_PRESENT_COPY");
  if (copy && std::strcmp(copy, "cpu") == 0) m_copy = PresentCopy::Cpu;
  const char* log = std::getenv("NPT_PRESENT_LOG");
  m_log = log && std::strcmp(log, "0") != 0 && *log;
  if (const char* dir = std::getenv("NPT_PRESENT_CAPTURE")) m_captureDir = dir;
}

namespace {

// CPU time of this process so far (the worker's, where contexts are processes).
double processCpuSeconds() {
#ifdef _WIN32
  FILETIME created, exited, kernel, user;
  if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user)) return 0;
  auto seconds = [](const FILETIME& t) { return double(uint64_t(t.dwHighDateTime) << 32 | t.dwLowDateTime) * 1e-7; };
  return seconds(kernel) + seconds(user);
#else
  rusage usage = {};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
#endif
}

}  // namespace

Presenter::~Presenter() {
  if (m_stats.frames)
    m_executor.log("present: %llu frames, %llu cpu copies, %llu gpu copies, %llu latency waits, process CPU %.2f s",
                   (unsigned long long)m_stats.frames, (unsigned long long)m_stats.cpuCopies,
                   (unsigned long long)m_stats.gpuCopies, (unsigned long long)m_stats.latencyWaits,
                   processCpuSeconds());
  release();
}

void Presenter::release() {
  for (ID3D11Query*& query : m_frameQueries) releaseAndClear(query);
  m_frameQueries.clear();
  m_device.reset();
  m_windows.clear();
}

void Executor::presentBuffer(ObjectId texture, uint32_t interval, uint32_t flags) {
  // Present flushes the context: legacy shared resources written so far are published.
  publishWrittenResources();
  m_presenter->present(texture, interval, flags);
}

std::string readBackRgba(DeviceState& device, ID3D11Texture2D* texture, const D3D11_TEXTURE2D_DESC& desc,
                         std::vector<uint8_t>& rgba) {
  const bool bgra = desc.Format == DXGI_FORMAT_B8G8R8A8_UNORM || desc.Format == DXGI_FORMAT_B8G8R8A8_UNORM_SRGB;
  const bool rgbaFormat = desc.Format == DXGI_FORMAT_R8G8B8A8_UNORM || desc.Format == DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
  if ((!bgra && !rgbaFormat) || desc.SampleDesc.Count != 1) return "not a single-sampled 8-bit RGBA/BGRA texture";
  D3D11_TEXTURE2D_DESC staging = desc;
  staging.MipLevels = 1;
  staging.ArraySize = 1;
  staging.Usage = D3D11_USAGE_STAGING;
  staging.BindFlags = 0;
  staging.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  staging.MiscFlags = 0;
  ID3D11Texture2D* copy = nullptr;
  if (FAILED(device.device->CreateTexture2D(&staging, nullptr, &copy))) return "staging texture creation failed";
  device.immediate->CopySubresourceRegion(copy, 0, 0, 0, 0, texture, 0, nullptr);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  bool ok = SUCCEEDED(device.immediate->Map(copy, 0, D3D11_MAP_READ, 0, &mapped));
  if (ok) {
    rgba.resize(size_t(desc.Width) * desc.Height * 4);
    for (UINT y = 0; y < desc.Height; y++) {
      const auto* row = static_cast<const uint8_t*>(mapped.pData) + size_t(y) * mapped.RowPitch;
      uint8_t* out = rgba.data() + size_t(y) * desc.Width * 4;
      std::memcpy(out, row, size_t(desc.Width) * 4);
      if (bgra)
        for (UINT x = 0; x < desc.Width; x++) std::swap(out[x * 4], out[x * 4 + 2]);
    }
    device.immediate->Unmap(copy, 0);
  }
  copy->Release();
  return ok ? std::string() : "Map of the staging copy failed";
}

void Presenter::waitForFrameLatency(DeviceState& device) {
  ID3D11Query*& slot = m_frameQueries[m_stats.frames % kFrameLatency];
  if (slot) {
    // The frame kFrameLatency presents ago must be finished before this one is queued.
    BOOL done = FALSE;
    bool waited = false;
    while (device.immediate->GetData(slot, &done, sizeof(done), 0) == S_FALSE) {
      waited = true;
      std::this_thread::yield();
    }
    if (waited) m_stats.latencyWaits++;
  } else {
    D3D11_QUERY_DESC desc = {D3D11_QUERY_EVENT, 0};
    if (FAILED(device.device->CreateQuery(&desc, &slot))) slot = nullptr;
  }
}

void Presenter::present(ObjectId texture, uint32_t interval, uint32_t flags) {
  const char* method = "PresentBuffer";
  ID3D11Texture2D* backBuffer = nullptr;
  Record* record = nullptr;
  if (!m_executor.resolveAs(texture, InterfaceId::ID3D11Texture2D, false, method, &backBuffer, &record)) return;
  if (m_mode == PresentMode::None) {
    m_stats.frames++;
    return;
  }
  DeviceState& device = *record->device;
  if (m_device != record->device) {
    for (ID3D11Query*& query : m_frameQueries) releaseAndClear(query);
    m_frameQueries.assign(kFrameLatency, nullptr);
    m_device = record->device;
  }
  waitForFrameLatency(device);
  m_stats.frames++;
  D3D11_TEXTURE2D_DESC desc = {};
  backBuffer->GetDesc(&desc);

  PresentWindow* window = nullptr;
  if (m_mode == PresentMode::Window && !m_windowFailed) {
    showInWindow(texture, device, backBuffer, desc, interval);
    for (WindowSlot& slot : m_windows)
      if (slot.backBuffer == texture) window = slot.window.get();
  } else {
    device.immediate->Flush();
  }
  if (ID3D11Query* query = m_frameQueries[(m_stats.frames - 1) % kFrameLatency]) device.immediate->End(query);
  if (m_log || !m_captureDir.empty()) logFrame(device, texture, backBuffer, desc, interval, flags, window);
}

void Presenter::showInWindow(ObjectId texture, DeviceState& device, ID3D11Texture2D* backBuffer,
                             const D3D11_TEXTURE2D_DESC& desc, uint32_t interval) {
  std::string why;
  WindowSlot* slot = windowFor(texture, &why);
  if (slot) {
    slot->width = desc.Width;
    why = slot->window->show(device, backBuffer, desc, interval, m_copy, m_stats);
    if (!why.empty()) {
      // No backend swapchain for this frame: the frame goes through memory instead.
      std::vector<uint8_t> rgba;
      std::string readWhy = readBackRgba(device, backBuffer, desc, rgba);
      if (readWhy.empty()) {
        m_stats.cpuCopies++;
        readWhy = slot->window->showPixels(rgba, desc.Width, desc.Height, m_stats);
      }
      if (!readWhy.empty()) why += "; " + readWhy;
      else why.clear();
    }
  }
  if (!why.empty()) {
    m_executor.log("present: window: %s; presenting headless from now on", why.c_str());
    m_windowFailed = true;
    m_windows.clear();
  }
}

Presenter::WindowSlot* Presenter::windowFor(ObjectId backBuffer, std::string* why) {
  closeWindowsOfDestroyedBuffers();
  for (WindowSlot& slot : m_windows)
    if (slot.backBuffer == backBuffer) return &slot;
  int left = 0;
  for (const WindowSlot& slot : m_windows) left = std::max(left, slot.left + int(slot.width));
  std::unique_ptr<PresentWindow> window = openPresentWindow(left, why);
  if (!window) return nullptr;
  m_windows.push_back(WindowSlot{backBuffer, left, 0, std::move(window)});
  return &m_windows.back();
}

void Presenter::closeWindowsOfDestroyedBuffers() {
  // A quiet table lookup (a few per present): a destroyed id is no error here, only a
  // swapchain the guest released.
  std::erase_if(m_windows, [this](const WindowSlot& slot) {
    objects::ObjectInfo* info = nullptr;
    return !m_executor.m_table.lookup(slot.backBuffer, InterfaceId::ID3D11Texture2D, &info).ok();
  });
}

void Presenter::logFrame(DeviceState& device, ObjectId texture, ID3D11Texture2D* backBuffer,
                         const D3D11_TEXTURE2D_DESC& desc, uint32_t interval, uint32_t flags,
                         PresentWindow* window) {
  // Diagnostics, not part of presenting: these readbacks are not in the copy counters.
  std::vector<uint8_t> rgba;
  std::string why = readBackRgba(device, backBuffer, desc, rgba);
  if (!why.empty()) {
    m_executor.log("present: frame %llu: texture %u (format %u, %u samples) cannot be read back: %s",
                   (unsigned long long)m_stats.frames, texture, unsigned(desc.Format), desc.SampleDesc.Count,
                   why.c_str());
    return;
  }
  if (m_log) {
    // In window mode, also what the window system shows (alpha forced to 255).
    // The window system shows a present some time after the backend returned from it
    // (wined3d presents on its own thread, the X server draws later still): read until the
    // screen shows the frame, for at most 1 s, then log what it shows.
    char screen[64] = "";
    std::vector<uint8_t> shown, opaque(rgba);
    for (size_t i = 3; i < opaque.size(); i += 4) opaque[i] = 255;
    uint32_t width = 0, height = 0;
    bool read = false;
    for (int attempt = 0; window && attempt < 500; attempt++) {
      read = window->readScreen(shown, &width, &height).empty();
      if (!read || shown == opaque) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (read)
      std::snprintf(screen, sizeof(screen), " window %ux%u checksum %016llx", width, height,
                    (unsigned long long)fnv1a64(shown));
    m_executor.log("present: frame %llu texture %u %ux%u interval %u flags 0x%x checksum %016llx cpu-copies %llu%s",
                   (unsigned long long)m_stats.frames, texture, desc.Width, desc.Height, interval, flags,
                   (unsigned long long)fnv1a64(rgba), (unsigned long long)m_stats.cpuCopies, screen);
  }
  if (!m_captureDir.empty()) {
    char name[64];
    std::snprintf(name, sizeof(name), "/frame-%04llu.png", (unsigned long long)m_stats.frames);
    why = writePngFile(m_captureDir + name, desc.Width, desc.Height, rgba);
    if (!why.empty()) m_executor.log("present: capture: %s", why.c_str());
  }
}

}  // namespace npt::executor
