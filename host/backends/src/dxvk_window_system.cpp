// SPDX-License-Identifier: MIT
#include "dxvk_window_system.h"

#include <mutex>

#include "npt/backends/dynamic_library.h"

namespace npt::backends {

namespace {

// SDL2's ABI (SDL.h, SDL_hints.h): stable across 2.x.
constexpr uint32_t kSdlInitVideo = 0x00000020u;
using SdlInitSubSystemFn = int (*)(uint32_t flags);
using SdlGetErrorFn = const char* (*)();
using SdlSetHintFn = int (*)(const char* name, const char* value);
using SdlVulkanLoadLibraryFn = int (*)(const char* path);
using SdlGetCurrentVideoDriverFn = const char* (*)();

constexpr const char* kHowToFix =
    "DXVK-native v2.2's SDL2 window system needs an X11 or Wayland display even without windows: set DISPLAY, "
    "e.g. to an Xvfb, or WAYLAND_DISPLAY";

// The soname DXVK-native links (v2.2) or loads at run time (later versions).
constexpr const char* kSdl2Library = "libSDL2-2.0.so.0";

BackendStatus initializeSdlVideo() {
  static DynamicLibrary sdl;   // kept loaded: DXVK's instance outlives any backend object
  if (!sdl.open(kSdl2Library)) return {};   // no SDL2 here: DXVK uses another window system
  auto initSubSystem = reinterpret_cast<SdlInitSubSystemFn>(sdl.symbol("SDL_InitSubSystem"));
  auto getError = reinterpret_cast<SdlGetErrorFn>(sdl.symbol("SDL_GetError"));
  auto setHint = reinterpret_cast<SdlSetHintFn>(sdl.symbol("SDL_SetHint"));
  auto vulkanLoadLibrary = reinterpret_cast<SdlVulkanLoadLibraryFn>(sdl.symbol("SDL_Vulkan_LoadLibrary"));
  auto currentDriver = reinterpret_cast<SdlGetCurrentVideoDriverFn>(sdl.symbol("SDL_GetCurrentVideoDriver"));
  if (!initSubSystem || !getError || !vulkanLoadLibrary || !currentDriver)
    return BackendStatus::fail(BackendError::WindowSystem, E_FAIL,
                               std::string("dxvk backend: ") + kSdl2Library + " lacks the SDL2 2.0.6+ functions DXVK uses");
  // The video subsystem starts SDL's event subsystem, which by default turns SIGINT and
  // SIGTERM into SDL_QUIT events nobody reads here: the server's workers must keep
  // dying of them.
  if (setHint) setHint("SDL_NO_SIGNAL_HANDLERS", "1");
  if (initSubSystem(kSdlInitVideo) != 0)
    return BackendStatus::fail(
        BackendError::WindowSystem, E_FAIL,
        std::string("dxvk backend: SDL_InitSubSystem(VIDEO) failed: ") +
            getError() + " (" + kHowToFix + ")");
  // DXVK ignores SDL_Vulkan_LoadLibrary's result and then calls
  // SDL_Vulkan_GetInstanceExtensions, which in SDL 2.26 jumps through a null pointer on a
  // video driver without Vulkan (offscreen and dummy: what SDL picks without a display):
  // the process would crash inside D3D11CreateDevice. The loader is reference counted, so
  // loading it here first costs nothing and turns that crash into this error.
  if (vulkanLoadLibrary(nullptr) != 0)
    return BackendStatus::fail(BackendError::WindowSystem, E_FAIL,
                               std::string("dxvk backend: DXVK-native's SDL2 window system cannot load Vulkan with "
                                           "SDL's video driver '") +
                                   (currentDriver() ? currentDriver() : "?") + "': " + getError() + " (" + kHowToFix +
                                   ")");
  return {};
}

}  // namespace

BackendStatus prepareDxvkWindowSystem() {
  static std::once_flag once;
  static BackendStatus status;
  std::call_once(once, [] { status = initializeSdlVideo(); });
  return status;
}

}  // namespace npt::backends
