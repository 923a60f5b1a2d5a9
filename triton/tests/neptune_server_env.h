// SPDX-License-Identifier: MIT
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

#include "server_launch_win32.h"

namespace triton::test {

using npt::testing::windowsPath;

// presentLog: the server logs every presented frame (NPT_PRESENT_LOG=1) into a file the
// program reads back with log().
class NeptuneServer : public ::testing::Environment {
public:
  explicit NeptuneServer(std::string name, bool presentLog = false) : name_(std::move(name)), presentLog_(presentLog) {}
  std::string log() const { return server_.log(); }
  void SetUp() override {
    // Copies: the _putenv calls below may move what getenv pointed at.
    const char* binEnv = std::getenv("NPT_SERVER_BIN");
    const char* targetEnv = std::getenv("NPT_TEST_D3D11");
    ASSERT_TRUE(binEnv && targetEnv) << "NPT_SERVER_BIN and NPT_TEST_D3D11 must be set";
    const std::string bin = binEnv, target = targetEnv;
    npt::testing::ServerProcess::Options options;
    options.name = name_;
    options.arguments = "--watchdog-ms 120000";
    options.presentLog = presentLog_;
    ASSERT_TRUE(server_.start(bin, options)) << bin;
    // The C runtime's copy (read by the guest runtime) and the process's.
    _putenv(("NPT_SERVER=" + server_.socket()).c_str());
    SetEnvironmentVariableA("NPT_SERVER", server_.socket().c_str());
    _putenv(("TRITON_TARGET_D3D11=" + windowsPath(target)).c_str());
    SetEnvironmentVariableA("TRITON_TARGET_D3D11", windowsPath(target).c_str());
  }
  // Ends the server now (host loss); TearDown then has nothing to stop.
  void terminate() { server_.kill(1); }
  void TearDown() override { server_.kill(0); }

private:
  std::string name_;
  bool presentLog_;
  npt::testing::ServerProcess server_;
};

}  // namespace triton::test
