// SPDX-License-Identifier: MIT
#pragma once

// The implementation under test for the d3d11 contract tests: Wine's own d3d11.dll
// (no NPT_TEST_D3D11) or Neptune's (NPT_TEST_D3D11 = path of our d3d11.dll; a
// neptune-server.exe from NPT_SERVER_BIN is started under the same Wine prefix and
// NPT_SERVER points the runtime at it). Entry points are looked up at run time, so one
// program tests both.
#include <windows.h>
#include <d3d11_4.h>

#include <cstdlib>
#include <string>

namespace npt::test {

using CreateDeviceFn = HRESULT (WINAPI*)(IDXGIAdapter*, D3D_DRIVER_TYPE, HMODULE, UINT, const D3D_FEATURE_LEVEL*, UINT,
                                         UINT, ID3D11Device**, D3D_FEATURE_LEVEL*, ID3D11DeviceContext**);

class D3D11Under {
public:
  static D3D11Under& get() {
    static D3D11Under instance;
    return instance;
  }
  bool neptune() const { return m_neptune; }
  bool ready() const { return m_create != nullptr; }
  const std::string& error() const { return m_error; }

  HRESULT createDevice(ID3D11Device** device, ID3D11DeviceContext** context = nullptr,
                       D3D_FEATURE_LEVEL* level = nullptr) {
    const D3D_FEATURE_LEVEL levels[] = { D3D_FEATURE_LEVEL_11_0 };
    return m_create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, levels, 1, D3D11_SDK_VERSION, device, level, context);
  }
  CreateDeviceFn create() const { return m_create; }

  ~D3D11Under() {
    if (m_server.hProcess) {
      TerminateProcess(m_server.hProcess, 0);
      WaitForSingleObject(m_server.hProcess, 5000);
      CloseHandle(m_server.hProcess);
      CloseHandle(m_server.hThread);
    }
  }

private:
  static std::string windowsPath(std::string path) {
    if (!path.empty() && path[0] == '/')
      path = "Z:" + path;
    for (char& c : path)
      if (c == '/')
        c = '\\';
    return path;
  }

  D3D11Under() {
    const char* dll = std::getenv("NPT_TEST_D3D11");
    m_neptune = dll && *dll;
    if (m_neptune && !startServer())
      return;
    HMODULE module = LoadLibraryA(m_neptune ? windowsPath(dll).c_str() : "d3d11.dll");
    if (!module) {
      m_error = "cannot load the d3d11.dll under test";
      return;
    }
    m_create = reinterpret_cast<CreateDeviceFn>(reinterpret_cast<void*>(GetProcAddress(module, "D3D11CreateDevice")));
    if (!m_create)
      m_error = "the d3d11.dll under test exports no D3D11CreateDevice";
  }

  bool startServer() {
    // NPT_SERVER already set (a test of the missing server): use it as given.
    if (const char* preset = std::getenv("NPT_SERVER"); preset && *preset)
      return true;
    const char* bin = std::getenv("NPT_SERVER_BIN");
    if (!bin) {
      m_error = "NPT_SERVER_BIN is not set";
      return false;
    }
    char temp[MAX_PATH];
    GetTempPathA(sizeof(temp), temp);
    std::string socket = std::string(temp) + "npt-d3d11-test-" + std::to_string(GetCurrentProcessId());
    std::string rendezvous = socket + ".tcp";
    // A server of an earlier process with the same id (Wine reuses them) was terminated
    // and left its rendezvous file: waiting for the file must wait for this server's.
    DeleteFileA(rendezvous.c_str());
    std::string cmd = "\"" + windowsPath(bin) + "\" --socket \"" + socket + "\"";
    STARTUPINFOA si = {};
    si.cb = sizeof(si);
    if (!CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &si, &m_server)) {
      m_error = "cannot start " + cmd;
      return false;
    }
    for (int i = 0; i < 3000 && GetFileAttributesA(rendezvous.c_str()) == INVALID_FILE_ATTRIBUTES; i++)
      Sleep(10);
    // _putenv updates the C runtime's copy, which the guest runtime reads.
    _putenv(("NPT_SERVER=" + socket).c_str());
    return true;
  }

  bool m_neptune = false;
  CreateDeviceFn m_create = nullptr;
  std::string m_error;
  PROCESS_INFORMATION m_server = {};
};

inline ULONG refcount(IUnknown* object) {
  object->AddRef();
  return object->Release();
}

}
