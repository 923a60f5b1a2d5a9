// SPDX-License-Identifier: MIT
#pragma once

// DXVK-native asks its window system for the Vulkan instance extensions while it creates
// the instance, i.e. inside CreateDXGIFactory1 and D3D11CreateDevice, even when nothing
// will ever be presented. With the SDL2 window system (DXVK's default for native builds,
// v2.2 and later; in 2.6 chosen at run time by DXVK_WSI_DRIVER, which this sets to SDL2
// when unset) that is SDL_Vulkan_GetInstanceExtensions, which fails unless the
// process initialized SDL's video subsystem first ("Video subsystem has not been
// initialized"): every device creation then fails with E_FAIL. An application using
// DXVK-native initializes SDL itself; the host is that application, so the dxvk backend
// does it before the first device.

#include "npt/backends/backend.h"

namespace npt::backends {

// Initializes SDL2's video subsystem once per process, through the libSDL2 that
// DXVK-native uses (the same soname, hence the same library instance; a DXVK built
// without SDL2 leaves nothing to do). The subsystem is never shut down: DXVK's instance
// lives as long as its library. Fails with BackendError::WindowSystem when SDL has no
// video driver here (no DISPLAY or Wayland socket): the message says so.
BackendStatus prepareDxvkWindowSystem();

// Backend::outputsUnavailable of the dxvk backend: why enumerating DXVK's outputs would
// crash on this machine's displays (a display SDL reports at 0 Hz), or empty.
std::string dxvkOutputsUnavailable();

}  // namespace npt::backends
