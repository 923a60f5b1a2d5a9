// SPDX-License-Identifier: MIT
/* A stand-in libSDL2-2.0.so.0 for DXVK-native (v2.2, 2.6) on a GPU machine without a display
   (bench/gpu/README.md). DXVK v2.2 asks SDL2 for the Vulkan instance extensions of its
   window system while it creates its instance, windows or not; with no display SDL has no
   Vulkan-capable video driver. This answers VK_KHR_surface alone (the one instance
   extension v2.2 requires; the GPU's driver has it) and refuses every window, so DXVK and
   neptune-server run headless: no swapchain, no SDL presenter (NPT_PRESENT=window fails). */
#include <string.h>

typedef struct { unsigned format; int w, h, refresh_rate; void* driverdata; } SDL_DisplayMode;
typedef struct { int x, y, w, h; } SDL_Rect;

static const char* kError = "headless SDL stand-in (bench/gpu/sdl_headless.c): no video, no windows";

/* What the host's DXVK backend calls before the first device (dxvk_window_system.cpp). */
int SDL_InitSubSystem(unsigned flags) { (void)flags; return 0; }
void SDL_QuitSubSystem(unsigned flags) { (void)flags; }
int SDL_SetHint(const char* name, const char* value) { (void)name; (void)value; return 1; }
const char* SDL_GetError(void) { return kError; }
const char* SDL_GetCurrentVideoDriver(void) { return "headless-stand-in"; }
int SDL_Vulkan_LoadLibrary(const char* path) { (void)path; return 0; }

/* What DXVK v2.2's SDL2 window system calls. */
int SDL_Vulkan_GetInstanceExtensions(void* window, unsigned* count, const char** names) {
  (void)window;
  if (!names) { *count = 1; return 1; }
  if (*count < 1) return 0;
  names[0] = "VK_KHR_surface";
  *count = 1;
  return 1;
}
int SDL_Vulkan_CreateSurface(void* window, void* instance, void* surface) { (void)window; (void)instance; (void)surface; return 0; }
int SDL_GetNumVideoDisplays(void) { return 0; }
int SDL_GetWindowDisplayIndex(void* window) { (void)window; return -1; }
int SDL_GetDisplayBounds(int index, SDL_Rect* rect) { (void)index; memset(rect, 0, sizeof(*rect)); return -1; }
int SDL_GetDisplayMode(int display, int mode, SDL_DisplayMode* out) { (void)display; (void)mode; (void)out; return -1; }
int SDL_GetCurrentDisplayMode(int display, SDL_DisplayMode* out) { (void)display; (void)out; return -1; }
int SDL_GetDesktopDisplayMode(int display, SDL_DisplayMode* out) { (void)display; (void)out; return -1; }
SDL_DisplayMode* SDL_GetClosestDisplayMode(int display, const SDL_DisplayMode* mode, SDL_DisplayMode* closest) {
  (void)display; (void)mode; (void)closest; return 0;
}
int SDL_SetWindowDisplayMode(void* window, const SDL_DisplayMode* mode) { (void)window; (void)mode; return -1; }
int SDL_SetWindowFullscreen(void* window, unsigned flags) { (void)window; (void)flags; return -1; }
/* DXVK 2.6 loads it with the others and refuses SDL2 without it. */
unsigned SDL_GetWindowFlags(void* window) { (void)window; return 0; }

/* What the host's SDL presenter links (host/executor presenter_sdl*): no window is ever made. */
void* SDL_CreateWindow(const char* title, int x, int y, int w, int h, unsigned flags) {
  (void)title; (void)x; (void)y; (void)w; (void)h; (void)flags; return 0;
}
void SDL_DestroyWindow(void* window) { (void)window; }
void SDL_GetWindowSize(void* window, int* w, int* h) { (void)window; if (w) *w = 0; if (h) *h = 0; }
void SDL_SetWindowSize(void* window, int w, int h) { (void)window; (void)w; (void)h; }
int SDL_GetWindowWMInfo(void* window, void* info) { (void)window; (void)info; return 0; }
void SDL_PumpEvents(void) { }
void* SDL_CreateRenderer(void* window, int index, unsigned flags) { (void)window; (void)index; (void)flags; return 0; }
void SDL_DestroyRenderer(void* renderer) { (void)renderer; }
void* SDL_CreateTexture(void* renderer, unsigned format, int access, int w, int h) {
  (void)renderer; (void)format; (void)access; (void)w; (void)h; return 0;
}
void SDL_DestroyTexture(void* texture) { (void)texture; }
int SDL_UpdateTexture(void* texture, const void* rect, const void* pixels, int pitch) {
  (void)texture; (void)rect; (void)pixels; (void)pitch; return -1;
}
int SDL_RenderCopy(void* renderer, void* texture, const void* src, const void* dst) {
  (void)renderer; (void)texture; (void)src; (void)dst; return -1;
}
void SDL_RenderPresent(void* renderer) { (void)renderer; }
int SDL_RenderReadPixels(void* renderer, const void* rect, unsigned format, void* pixels, int pitch) {
  (void)renderer; (void)rect; (void)format; (void)pixels; (void)pitch; return -1;
}
