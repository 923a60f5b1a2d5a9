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

// presentLog: the server logs every presented frame (NPT_PRESENT_LOG=1) into a file the
// program reads back with log().
class NeptuneServer : public ::testing::Environment {
public:
  explicit NeptuneServer(std::string name, bool presentLog = false) : name_(std::move(name)), presentLog_(presentLog) {}
  std::string log() const {
    std::string text;
    HANDLE file = CreateFileA(log_.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
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
  void SetUp() override {
    // Copies: the _putenv calls below may move what getenv pointed at.
    const char* binEnv = std::getenv("NPT_SERVER_BIN");
    const char* targetEnv = std::getenv("NPT_TEST_D3D11");
    ASSERT_TRUE(binEnv && targetEnv) << "NPT_SERVER_BIN and NPT_TEST_D3D11 must be set";
    const std::string bin = binEnv, target = targetEnv;
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
    HANDLE log = INVALID_HANDLE_VALUE;
    if (presentLog_) {
      log_ = socket + ".log";
      SECURITY_ATTRIBUTES inherit{sizeof(inherit), nullptr, TRUE};
      log = CreateFileA(log_.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inherit,
                        CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
      si.dwFlags = STARTF_USESTDHANDLES;
      si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
      si.hStdOutput = log;
      si.hStdError = log;
      SetEnvironmentVariableA("NPT_PRESENT_LOG", "1");   // the server's environment only
    }
    const BOOL started =
        CreateProcessA(nullptr, cmd.data(), nullptr, nullptr, presentLog_, 0, nullptr, nullptr, &si, &server_);
    if (presentLog_) {
      SetEnvironmentVariableA("NPT_PRESENT_LOG", nullptr);
      CloseHandle(log);
    }
    ASSERT_TRUE(started) << cmd;
    for (int i = 0; i < 6000 && GetFileAttributesA(rendezvous.c_str()) == INVALID_FILE_ATTRIBUTES; ++i)
      Sleep(10);
    // The C runtime's copy (read by the guest runtime) and the process's.
    _putenv(("NPT_SERVER=" + socket).c_str());
    SetEnvironmentVariableA("NPT_SERVER", socket.c_str());
    _putenv(("TRITON_TARGET_D3D11=" + windowsPath(target)).c_str());
    SetEnvironmentVariableA("TRITON_TARGET_D3D11", windowsPath(target).c_str());
  }
  // Ends the server now (host loss); TearDown then has nothing to stop.
  void terminate() {
    if (!server_.hProcess)
      return;
    TerminateProcess(server_.hProcess, 1);
    WaitForSingleObject(server_.hProcess, 5000);
    CloseHandle(server_.hProcess);
    CloseHandle(server_.hThread);
    server_ = {};
  }
  void TearDown() override {
    if (server_.hProcess) {
      TerminateProcess(server_.hProcess, 0);
      WaitForSingleObject(server_.hProcess, 5000);
      CloseHandle(server_.hProcess);
      CloseHandle(server_.hThread);
    }
    if (!log_.empty())
      DeleteFileA(log_.c_str());
  }

private:
  std::string name_;
  bool presentLog_;
  std::string log_;
  PROCESS_INFORMATION server_{};
};

}  // namespace triton::test
