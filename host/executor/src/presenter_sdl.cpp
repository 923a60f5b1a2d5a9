// SPDX-License-Identifier: MIT
// NPT_PRESENT=window in the native Linux server: an SDL2 window per guest swapchain (the worker
// process owns it). With DXVK-native the backend swapchain is created for the window
// itself: DXVK-native's WSI takes an SDL_Window* where Windows takes an HWND, so frames
// arrive by a GPU copy as in the Windows server. Frames from memory (no backend
// swapchain) go through an SDL renderer's streaming texture. readScreen reads the window
// back from the X server (XGetImage) under X11, or from the renderer on SDL's
// memory-only drivers (dummy, offscreen).
// First: X11's headers (through SDL_syswm.h) define macros such as Status and Bool.
#include "presenter_window.h"

#include <SDL.h>
#include <SDL_syswm.h>

#ifdef NPT_PRESENT_X11
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#endif

namespace npt::executor {

namespace {

std::string sdlError(const char* what) { return std::string(what) + " failed: " + SDL_GetError(); }

class SdlWindow final : public PresentWindow {
public:
  explicit SdlWindow(SDL_Window* window)
      : m_window(window), m_swapchain(reinterpret_cast<HWND>(window), [] { SDL_PumpEvents(); }) {}
  ~SdlWindow() override {
    m_swapchain.release();
    if (m_texture) SDL_DestroyTexture(m_texture);
    if (m_renderer) SDL_DestroyRenderer(m_renderer);
    SDL_DestroyWindow(m_window);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
  }

  std::string show(DeviceState& device, ID3D11Texture2D* backBuffer, const D3D11_TEXTURE2D_DESC& desc,
                   uint32_t interval, PresentCopy copy, PresentStats& stats) override {
    if (m_renderer) return "the window already shows frames from memory";
    resize(desc.Width, desc.Height);
    std::string why = m_swapchain.present(device, backBuffer, desc, interval, copy, stats);
    SDL_PumpEvents();
    return why;
  }

  std::string showPixels(const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height,
                         PresentStats& stats) override {
    if (rgba.size() != size_t(width) * height * 4) return "pixel count does not match the size";
    resize(width, height);
    if (!m_renderer && !(m_renderer = SDL_CreateRenderer(m_window, -1, 0))) return sdlError("SDL_CreateRenderer");
    if (!m_texture || width != m_textureWidth || height != m_textureHeight) {
      if (m_texture) SDL_DestroyTexture(m_texture);
      m_texture = SDL_CreateTexture(m_renderer, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STREAMING, int(width),
                                    int(height));
      if (!m_texture) return sdlError("SDL_CreateTexture");
      m_textureWidth = width;
      m_textureHeight = height;
    }
    if (SDL_UpdateTexture(m_texture, nullptr, rgba.data(), int(width * 4)) != 0) return sdlError("SDL_UpdateTexture");
    stats.cpuCopies++;
    SDL_RenderCopy(m_renderer, m_texture, nullptr, nullptr);
    SDL_RenderPresent(m_renderer);
    SDL_PumpEvents();
    return {};
  }

  std::string readScreen(std::vector<uint8_t>& rgba, uint32_t* width, uint32_t* height) override {
    int w = 0, h = 0;
    SDL_GetWindowSize(m_window, &w, &h);
    *width = uint32_t(w);
    *height = uint32_t(h);
    rgba.assign(size_t(w) * h * 4, 0);
#ifdef NPT_PRESENT_X11
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (SDL_GetWindowWMInfo(m_window, &info) && info.subsystem == SDL_SYSWM_X11) {
      XSync(info.info.x11.display, False);
      XImage* image = XGetImage(info.info.x11.display, info.info.x11.window, 0, 0, unsigned(w), unsigned(h),
                                AllPlanes, ZPixmap);
      if (!image) return "XGetImage failed";
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          unsigned long pixel = XGetPixel(image, x, y);
          uint8_t* out = rgba.data() + (size_t(y) * w + x) * 4;
          out[0] = uint8_t((pixel & image->red_mask) >> __builtin_ctzl(image->red_mask));
          out[1] = uint8_t((pixel & image->green_mask) >> __builtin_ctzl(image->green_mask));
          out[2] = uint8_t((pixel & image->blue_mask) >> __builtin_ctzl(image->blue_mask));
          out[3] = 255;
        }
      XDestroyImage(image);
      return {};
    }
#endif
    if (!m_renderer) return "no renderer to read back on this video driver";
    if (SDL_RenderReadPixels(m_renderer, nullptr, SDL_PIXELFORMAT_RGBA32, rgba.data(), w * 4) != 0)
      return sdlError("SDL_RenderReadPixels");
    for (size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
    return {};
  }

  void releaseBackend() override { m_swapchain.release(); }

private:
  void resize(uint32_t width, uint32_t height) {
    int w = 0, h = 0;
    SDL_GetWindowSize(m_window, &w, &h);
    if (uint32_t(w) == width && uint32_t(h) == height) return;
    SDL_SetWindowSize(m_window, int(width), int(height));
    // Not every driver tells its renderer about the new size (offscreen keeps the old
    // viewport): a new renderer starts from the window's size.
    if (m_texture) SDL_DestroyTexture(m_texture);
    if (m_renderer) SDL_DestroyRenderer(m_renderer);
    m_texture = nullptr;
    m_renderer = nullptr;
    SDL_PumpEvents();
  }

  SDL_Window* m_window;
  BackendSwapchain m_swapchain;
  SDL_Renderer* m_renderer = nullptr;
  SDL_Texture* m_texture = nullptr;
  uint32_t m_textureWidth = 0, m_textureHeight = 0;
};

}  // namespace

std::unique_ptr<PresentWindow> openPresentWindow(int left, std::string* why) {
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
    *why = sdlError("SDL_InitSubSystem(VIDEO)");
    return nullptr;
  }
  // DXVK-native's SDL2 surface needs a Vulkan-capable window; drivers without Vulkan
  // (dummy, offscreen) get a plain one, shown from memory.
  SDL_Window* window = SDL_CreateWindow("Neptune", left, 0, 64, 64, SDL_WINDOW_SHOWN | SDL_WINDOW_VULKAN);
  if (!window) window = SDL_CreateWindow("Neptune", left, 0, 64, 64, SDL_WINDOW_SHOWN);
  if (!window) {
    *why = sdlError("SDL_CreateWindow");
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return nullptr;
  }
  return std::make_unique<SdlWindow>(window);
}

}  // namespace npt::executor
