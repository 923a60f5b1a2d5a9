// SPDX-License-Identifier: MIT
// NPT_PRESENT=window in the Windows server (and under Wine, where the window is an X11
// window of Xvfb in CI): one Win32 window per guest swapchain, owned by the context's thread,
// which pumps its messages at every present. Frames arrive through a swapchain of the
// backend device (GPU copy). readScreen reads the pixels back through GDI from the
// screen, i.e. what the window system shows, not what the presenter meant to show.
#include <windows.h>

#include <cstdio>

#include "presenter_window.h"

namespace npt::executor {

namespace {

LRESULT CALLBACK windowProc(HWND window, UINT message, WPARAM wparam, LPARAM lparam) {
  // The window belongs to the guest's context: closing it would only lose frames.
  if (message == WM_CLOSE) return 0;
  return DefWindowProcW(window, message, wparam, lparam);
}

const wchar_t kClassName[] = L"NeptunePresenter";

bool registerClass() {
  static const bool registered = [] {
    WNDCLASSW windowClass = {};
    windowClass.lpfnWndProc = windowProc;
    windowClass.hInstance = GetModuleHandleW(nullptr);
    windowClass.hCursor = LoadCursorW(nullptr, reinterpret_cast<LPCWSTR>(IDC_ARROW));
    windowClass.lpszClassName = kClassName;
    return RegisterClassW(&windowClass) != 0 || GetLastError() == ERROR_CLASS_ALREADY_EXISTS;
  }();
  return registered;
}

class Win32Window final : public PresentWindow {
public:
  explicit Win32Window(HWND window) : m_window(window), m_swapchain(window, [this] { pumpMessages(); }) {}
  ~Win32Window() override {
    m_swapchain.release();
    DestroyWindow(m_window);
  }

  std::string show(DeviceState& device, ID3D11Texture2D* backBuffer, const D3D11_TEXTURE2D_DESC& desc,
                   uint32_t interval, PresentCopy copy, PresentStats& stats) override {
    resizeClient(desc.Width, desc.Height);
    std::string why = m_swapchain.present(device, backBuffer, desc, interval, copy, stats);
    pumpMessages();
    return why;
  }

  std::string showPixels(const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height,
                         PresentStats& stats) override {
    if (rgba.size() != size_t(width) * height * 4) return "pixel count does not match the size";
    resizeClient(width, height);
    std::vector<uint8_t> bgra(rgba);
    for (size_t i = 0; i < bgra.size(); i += 4) std::swap(bgra[i], bgra[i + 2]);
    BITMAPINFO info = bitmapInfo(width, height);
    HDC dc = GetDC(m_window);
    int lines = SetDIBitsToDevice(dc, 0, 0, width, height, 0, 0, 0, height, bgra.data(), &info, DIB_RGB_COLORS);
    ReleaseDC(m_window, dc);
    stats.cpuCopies++;
    pumpMessages();
    return lines == int(height) ? std::string() : "SetDIBitsToDevice failed";
  }

  std::string readScreen(std::vector<uint8_t>& rgba, uint32_t* width, uint32_t* height) override {
    RECT client = {};
    GetClientRect(m_window, &client);
    POINT origin = {0, 0};
    ClientToScreen(m_window, &origin);
    *width = uint32_t(client.right);
    *height = uint32_t(client.bottom);
    BITMAPINFO info = bitmapInfo(*width, *height);
    void* bits = nullptr;
    HDC screen = GetDC(nullptr);
    HDC memory = CreateCompatibleDC(screen);
    HBITMAP bitmap = CreateDIBSection(screen, &info, DIB_RGB_COLORS, &bits, nullptr, 0);
    bool ok = bitmap && bits;
    if (ok) {
      HGDIOBJ old = SelectObject(memory, bitmap);
      ok = BitBlt(memory, 0, 0, int(*width), int(*height), screen, origin.x, origin.y, SRCCOPY) != FALSE;
      GdiFlush();
      SelectObject(memory, old);
    }
    if (ok) {
      const auto* bgrx = static_cast<const uint8_t*>(bits);
      rgba.resize(size_t(*width) * *height * 4);
      for (size_t i = 0; i < rgba.size(); i += 4) {
        rgba[i] = bgrx[i + 2];
        rgba[i + 1] = bgrx[i + 1];
        rgba[i + 2] = bgrx[i];
        rgba[i + 3] = 255;
      }
    }
    if (bitmap) DeleteObject(bitmap);
    DeleteDC(memory);
    ReleaseDC(nullptr, screen);
    return ok ? std::string() : "GDI BitBlt from the screen failed";
  }

  void releaseBackend() override { m_swapchain.release(); }

private:
  static BITMAPINFO bitmapInfo(uint32_t width, uint32_t height) {
    BITMAPINFO info = {};
    info.bmiHeader.biSize = sizeof(info.bmiHeader);
    info.bmiHeader.biWidth = LONG(width);
    info.bmiHeader.biHeight = -LONG(height);  // top-down rows, like the back buffer
    info.bmiHeader.biPlanes = 1;
    info.bmiHeader.biBitCount = 32;
    info.bmiHeader.biCompression = BI_RGB;
    return info;
  }

  void resizeClient(uint32_t width, uint32_t height) {
    if (width == m_width && height == m_height) return;
    RECT frame = {0, 0, LONG(width), LONG(height)};
    AdjustWindowRect(&frame, WS_POPUP, FALSE);
    SetWindowPos(m_window, nullptr, 0, 0, frame.right - frame.left, frame.bottom - frame.top,
                 SWP_NOMOVE | SWP_NOZORDER | SWP_NOACTIVATE);
    m_width = width;
    m_height = height;
    pumpMessages();
  }

  void pumpMessages() {
    MSG message;
    while (PeekMessageW(&message, m_window, 0, 0, PM_REMOVE)) {
      TranslateMessage(&message);
      DispatchMessageW(&message);
    }
  }

  HWND m_window;
  BackendSwapchain m_swapchain;
  uint32_t m_width = 0, m_height = 0;
};

}  // namespace

std::unique_ptr<PresentWindow> openPresentWindow(int left, std::string* why) {
  if (!registerClass()) {
    *why = "RegisterClass failed (" + std::to_string(GetLastError()) + ")";
    return nullptr;
  }
  HWND window = CreateWindowExW(0, kClassName, L"Neptune", WS_POPUP | WS_VISIBLE, left, 0, 64, 64,
                                nullptr, nullptr, GetModuleHandleW(nullptr), nullptr);
  if (!window) {
    *why = "CreateWindow failed (" + std::to_string(GetLastError()) + ")";
    return nullptr;
  }
  return std::make_unique<Win32Window>(window);
}

}  // namespace npt::executor
