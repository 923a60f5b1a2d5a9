#pragma once

// Starts neptune-server.exe (path from NPT_SERVER_BIN, set by meson) with a private
// socket path and stops it by its process handle.
#include <windows.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "neptune/transport/guest_connection.h"

class Win32ServerProcess {
public:
  // extra: further options; a later --dispatch overrides the diag default.
  explicit Win32ServerProcess(const std::string& extra = "") {
    const char* env = std::getenv("NPT_SERVER_BIN");
    if (!env)
      return;
    std::string exe = env;
    if (!exe.empty() && exe[0] == '/')
      exe = "Z:" + exe;
    for (auto& ch : exe)
      if (ch == '/')
        ch = '\\';
    char temp[MAX_PATH];
    GetTempPathA(sizeof(temp), temp);
    m_socket = std::string(temp) + "npt-test-" + std::to_string(GetCurrentProcessId()) + "-" +
               std::to_string(GetTickCount64()) + ".sock";
    std::string cmd = "\"" + exe + "\" --socket \"" + m_socket + "\" --dispatch diag " + extra;
    STARTUPINFOA si = {};
    si.cb = sizeof(si);
    if (!CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &si, &m_process))
      return;
    for (int i = 0; i < 1000 && GetFileAttributesA(rendezvous().c_str()) == INVALID_FILE_ATTRIBUTES; i++)
      Sleep(10);
  }
  ~Win32ServerProcess() {
    kill();
    DeleteFileA(rendezvous().c_str());
  }
  void kill() {
    if (!m_process.hProcess)
      return;
    TerminateProcess(m_process.hProcess, 1);
    WaitForSingleObject(m_process.hProcess, 5000);
    CloseHandle(m_process.hProcess);
    CloseHandle(m_process.hThread);
    m_process = {};
  }
  bool running() const {
    return m_process.hProcess && WaitForSingleObject(m_process.hProcess, 0) == WAIT_TIMEOUT;
  }
  std::string rendezvous() const { return m_socket + ".tcp"; }
  npt::transport::Status connect(std::unique_ptr<npt::transport::GuestConnection>* out, std::string* error = nullptr, npt::transport::Geometry g = geometry()) {
    return npt::transport::GuestConnection::connect(rendezvous().c_str(), g, out, error);
  }
  static npt::transport::Geometry geometry() {
    npt::transport::Geometry g;
    g.ring_count = 2;
    g.ring_size = 64 * 1024;
    g.bulk_size = 1 << 20;
    return g;
  }

private:
  std::string m_socket;
  PROCESS_INFORMATION m_process = {};

public:
  HANDLE process() const { return m_process.hProcess; }
};

