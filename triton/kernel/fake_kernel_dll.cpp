// SPDX-License-Identifier: MIT
// The fake kernel as a DLL, for programs that are not tests of their own: triton/runtime's
// d3d11.dll loads it when TRITON_KERNEL_DLL names it (the triton-kernel-samples suite), so
// that an unmodified sample runs app -> runtime -> Triton -> kernel callbacks -> this fake
// kernel -> neptune-server.exe. The runtime plays Microsoft's runtime; this plays the KMD.

#include <windows.h>

#include <cstdlib>
#include <string>

#include "fake_kernel.h"
#include "server_rendezvous.h"

// Fills *callbacks with the fake kernel's escape/allocate/deallocate/lock/unlock for the
// server NPT_SERVER names, and removes NPT_SERVER from the process's environment: only the
// fake kernel may reach the server (a guest runtime that connected by itself would hide a
// broken kernel path). Once per process; S_OK, or E_FAIL without NPT_SERVER.
extern "C" __declspec(dllexport) HRESULT TritonFakeKernelCallbacks(triton::ddi::D3DDDI_DEVICECALLBACKS* callbacks) {
  static triton::kernel::FakeKernel* kernel = nullptr;   // kept until the process ends, as a connection
  if (!callbacks)
    return E_INVALIDARG;
  if (!kernel) {
    const char* server = std::getenv("NPT_SERVER");
    if (!server || !*server)
      return E_FAIL;
    kernel = new triton::kernel::FakeKernel(npt::guest::serverRendezvousPath(server));
    _putenv_s("NPT_SERVER", "");
    SetEnvironmentVariableA("NPT_SERVER", nullptr);
  }
  *callbacks = triton::kernel::FakeKernel::callbacks();
  return S_OK;
}
