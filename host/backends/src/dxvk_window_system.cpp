// SPDX-License-Identifier: MIT
#include "dxvk_window_system.h"

#include <cstdlib>
#include <mutex>
#include <string>

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
using SdlGetNumVideoDisplaysFn = int (*)();
// SDL_DisplayMode: format, w, h, refresh_rate, driverdata.
struct SdlDisplayMode {
  uint32_t format;
  int w;
  int h;
  int refreshRate;
  void* driverData;
};
using SdlGetCurrentDisplayModeFn = int (*)(int displayIndex, SdlDisplayMode* mode);

constexpr const char* kHowToFix =
    "DXVK-native's SDL2 window system needs an X11 or Wayland display even without windows: set DISPLAY, "
    "e.g. to an Xvfb, or WAYLAND_DISPLAY";

// The soname DXVK-native links (v2.2) or loads at run time (later versions).
constexpr const char* kSdl2Library = "libSDL2-2.0.so.0";

// Set once by initializeSdlVideo, read by dxvkOutputsUnavailable afterwards.
std::string g_outputsUnavailable;

// DXVK-native (2.6) turns each output's current mode into a refresh period with an integer
// division by the refresh rate SDL reports (DxgiOutput::CacheMonitorData, on every
// EnumOutputs): a display that reports 0 Hz, as every Xvfb screen does, kills the process
// with SIGFPE. Such displays are found before DXVK sees them.
std::string zeroRefreshDisplays(DynamicLibrary& sdl) {
  auto count = reinterpret_cast<SdlGetNumVideoDisplaysFn>(sdl.symbol("SDL_GetNumVideoDisplays"));
  auto currentMode = reinterpret_cast<SdlGetCurrentDisplayModeFn>(sdl.symbol("SDL_GetCurrentDisplayMode"));
  if (!count || !currentMode) return "libSDL2 lacks SDL_GetNumVideoDisplays or SDL_GetCurrentDisplayMode";
  std::string zero;
  const int displays = count();
  for (int index = 0; index < displays; index++) {
    SdlDisplayMode mode = {};
    if (currentMode(index, &mode) != 0 || mode.refreshRate <= 0)
      zero += (zero.empty() ? "" : ", ") + std::to_string(index);
  }
  if (zero.empty()) return {};
  return "dxvk backend: SDL display " + zero +
         " reports a refresh rate of 0 Hz (Xvfb's screens do) and DXVK-native divides by it when it enumerates "
         "outputs, so the host describes the adapter without outputs";
}

BackendStatus initializeSdlVideo() {
  static DynamicLibrary sdl;   // kept loaded: DXVK's instance outlives any backend object
  if (!sdl.open(kSdl2Library)) return {};   // no SDL2 here: DXVK uses another window system
  // Later DXVK-native versions (2.6) carry several window systems and refuse to create an instance until
  // DXVK_WSI_DRIVER names one; the one initialized here is SDL2 (v2.2 ignores the variable).
  // A value the user set is kept.
  setenv("DXVK_WSI_DRIVER", "SDL2", 0);
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
  g_outputsUnavailable = zeroRefreshDisplays(sdl);
  return {};
}

}  // namespace

BackendStatus prepareDxvkWindowSystem() {
  static std::once_flag once;
  static BackendStatus status;
  std::call_once(once, [] { status = initializeSdlVideo(); });
  return status;
}

std::string dxvkOutputsUnavailable() {
  prepareDxvkWindowSystem();
  return g_outputsUnavailable;
}

}  // namespace npt::backends
