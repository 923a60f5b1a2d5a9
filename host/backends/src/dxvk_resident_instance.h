// SPDX-License-Identifier: MIT
#pragma once

// A Vulkan loader loads the driver (ICD) when an instance is created and unloads it when
// the last instance is destroyed. DXVK-native creates an instance per DXGI factory and per
// D3D11CreateDevice without an adapter, so a process that creates and releases devices
// one after another loads and unloads the driver each time. NVIDIA's driver (580.159,
// libGLX_nvidia.so.0) cannot be loaded again after 14 such cycles in one process: its
// vk_icdGetInstanceProcAddr returns no vkCreateInstance, the loader drops it, and DXVK
// then finds no VK_KHR_surface ("Required instance extensions not supported",
// D3D11CreateDevice E_FAIL). Seen with the executor tests on an H200 (bench/gpu/README.md).

#include <string>

namespace npt::backends {

// Once per process: creates a DXGI factory through `dxgiLibrary` (DXVK-native's
// libdxvk_dxgi.so) and never releases it, nor the library, so one Vulkan instance, and
// with it the driver, stays loaded for the process's life. Call it after DXVK's window
// system is ready (prepareDxvkWindowSystem). A failure leaves nothing held; the next
// device creation reports whatever is wrong.
void keepDxvkVulkanDriverLoaded(const std::string& dxgiLibrary);

}  // namespace npt::backends
