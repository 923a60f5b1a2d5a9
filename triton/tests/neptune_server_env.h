#pragma once

// A neptune-server.exe for a whole test program, so that Triton's target is the Neptune
// guest runtime: NPT_SERVER_BIN is the server, NPT_TEST_D3D11 the guest d3d11.dll (a copy
// named neptune_d3d11.dll, so it never meets another d3d11.dll). The guest finds the
// server through NPT_SERVER (its socket's .tcp rendezvous file); Triton loads the guest
// through TRITON_TARGET_D3D11.

#include <windows.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace triton::test {

inline std::string windowsPath(std::string path) {
  if (!path.empty() && path[0] == '/') path = "Z:" + path;
  for (char& c : path)
    if (c == '/') c = '\\';
  return path;
}

class NeptuneServer : public ::testing::Environment {
public:
  explicit NeptuneServer(std::string name) : name_(std::move(name)) {}
  void SetUp() override {
    const char* bin = std::getenv("NPT_SERVER_BIN");
    const char* target = std::getenv("NPT_TEST_D3D11");
    ASSERT_TRUE(bin && target) << "NPT_SERVER_BIN and NPT_TEST_D3D11 must be set";
    char temp[MAX_PATH];
    GetTempPathA(sizeof(temp), temp);
    const std::string socket = std::string(temp) + name_ + "-" + std::to_string(GetCurrentProcessId());
    const std::string rendezvous = socket + ".tcp";
    // Wine reuses process ids: a terminated server of an earlier program with this id may
    // have left its rendezvous file, which would be taken for this server's.
    DeleteFileA(rendezvous.c_str());
    std::string cmd = "\"" + windowsPath(bin) + "\" --socket \"" + socket + "\" --watchdog-ms 120000";
    STARTUPINFOA si{};
    si.cb = sizeof(si);
    ASSERT_TRUE(CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr, &si, &server_)) << cmd;
    for (int i = 0; i < 6000 && GetFileAttributesA(rendezvous.c_str()) == INVALID_FILE_ATTRIBUTES; ++i)
      Sleep(10);
    // The C runtime's copy (read by the guest runtime) and the process's.
    _putenv(("NPT_SERVER=" + socket).c_str());
    SetEnvironmentVariableA("NPT_SERVER", socket.c_str());
    _putenv(("TRITON_TARGET_D3D11=" + windowsPath(target)).c_str());
    SetEnvironmentVariableA("TRITON_TARGET_D3D11", windowsPath(target).c_str());
  }
  void TearDown() override {
    if (server_.hProcess) {
      TerminateProcess(server_.hProcess, 0);
      WaitForSingleObject(server_.hProcess, 5000);
      CloseHandle(server_.hProcess);
      CloseHandle(server_.hThread);
    }
  }

private:
  std::string name_;
  PROCESS_INFORMATION server_{};
};

}  // namespace triton::test
