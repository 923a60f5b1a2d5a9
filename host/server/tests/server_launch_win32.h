// SPDX-License-Identifier: MIT
#pragma once

// neptune-server.exe for a Windows test program (server, guest, Triton tests under Wine):
// started on a private socket, found through its rendezvous file, stopped by its process
// handle. Header-only and without project dependencies, so any test program can use it.
#include <windows.h>

#include <string>

namespace npt::testing {

// A Unix path becomes its Z: path; a Windows path stays as it is.
inline std::string windowsPath(std::string path) {
  if (!path.empty() && path[0] == '/')
    path = "Z:" + path;
  for (char& c : path)
    if (c == '/')
      c = '\\';
  return path;
}

class ServerProcess {
public:
  struct Options {
    std::string name = "npt-test";   // the socket's file name starts with it
    std::string arguments;           // further command-line options
    // The server logs every presented frame (NPT_PRESENT_LOG=1) and its output goes to a
    // file the test reads with log().
    bool presentLog = false;
  };

  ServerProcess() = default;
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;
  ~ServerProcess() {
    kill(0);
    DeleteFileA(rendezvous().c_str());
    if (!m_log.empty())
      DeleteFileA(m_log.c_str());
  }

  // True once the server accepts guests (it writes its rendezvous file then; waits up to 60 s).
  bool start(const std::string& binary, const Options& options) {
    char temp[MAX_PATH];
    GetTempPathA(sizeof(temp), temp);
    m_socket = std::string(temp) + options.name + "-" + std::to_string(GetCurrentProcessId());
    // Wine reuses process ids: an earlier program's server may have left this rendezvous file.
    DeleteFileA(rendezvous().c_str());
    std::string cmd = "\"" + windowsPath(binary) + "\" --socket \"" + m_socket + "\" " + options.arguments;
    STARTUPINFOA si = {};
    si.cb = sizeof(si);
    HANDLE log = INVALID_HANDLE_VALUE;
    if (options.presentLog) {
      m_log = m_socket + ".log";
      SECURITY_ATTRIBUTES inherit = {sizeof(inherit), nullptr, TRUE};
      log = CreateFileA(m_log.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inherit,
                        CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
      si.dwFlags = STARTF_USESTDHANDLES;
      si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
      si.hStdOutput = log;
      si.hStdError = log;
      SetEnvironmentVariableA("NPT_PRESENT_LOG", "1");   // for the server's environment only
    }
    const BOOL started = CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, options.presentLog, 0, nullptr, nullptr,
                                        &si, &m_process);
    if (options.presentLog) {
      SetEnvironmentVariableA("NPT_PRESENT_LOG", nullptr);
      CloseHandle(log);
    }
    if (!started)
      return false;
    for (int i = 0; i < 6000 && GetFileAttributesA(rendezvous().c_str()) == INVALID_FILE_ATTRIBUTES && running(); ++i)
      Sleep(10);
    return GetFileAttributesA(rendezvous().c_str()) != INVALID_FILE_ATTRIBUTES;
  }

  // Ends the server now (a host loss); nothing is left to stop afterwards.
  void kill(UINT exitCode = 1) {
    if (!m_process.hProcess)
      return;
    TerminateProcess(m_process.hProcess, exitCode);
    WaitForSingleObject(m_process.hProcess, 5000);
    CloseHandle(m_process.hProcess);
    CloseHandle(m_process.hThread);
    m_process = {};
  }
  bool running() const { return m_process.hProcess && WaitForSingleObject(m_process.hProcess, 0) == WAIT_TIMEOUT; }
  HANDLE process() const { return m_process.hProcess; }
  // What guests give NPT_SERVER.
  const std::string& socket() const { return m_socket; }
  std::string rendezvous() const { return m_socket + ".tcp"; }

  // Everything the server wrote so far (Options::presentLog only).
  std::string log() const {
    std::string text;
    HANDLE file = CreateFileA(m_log.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                              nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file == INVALID_HANDLE_VALUE)
      return text;
    char buffer[4096];
    DWORD got = 0;
    while (ReadFile(file, buffer, sizeof(buffer), &got, nullptr) && got)
      text.append(buffer, got);
    CloseHandle(file);
    return text;
  }

private:
  std::string m_socket;
  std::string m_log;
  PROCESS_INFORMATION m_process = {};
};

}  // namespace npt::testing
