// SPDX-License-Identifier: MIT
// A PE guest (the Windows build of the guest library) under Wine talking to the native
// Linux server: loopback TCP handshake, the host's /dev/shm file mapped through Z:.
// The PE program comes from the Windows build directory: NPT_TRANSPORT_PE_GUEST names
// it, or NPT_WIN_BUILD_DIR (set by scripts/test) locates it; otherwise the test skips.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>

#include "server_process.h"

using namespace npt::server::testing;

namespace {

std::string pe_guest_path() {
  if (const char* p = std::getenv("NPT_TRANSPORT_PE_GUEST"))
    return p;
  if (const char* dir = std::getenv("NPT_WIN_BUILD_DIR"))
    return std::string(dir) + "/host/server/tests/transport_pe_guest.exe";
  return {};
}

bool exists(const std::string& path) {
  struct stat st;
  return !path.empty() && stat(path.c_str(), &st) == 0;
}

}

class PeGuest : public ::testing::TestWithParam<bool> {};

// Param: whether the PE guest may use raw futexes (Wine on Linux) or must fall back to
// socket wakeups (what a Windows guest without that path does).
TEST_P(PeGuest, WineGuestTalksToNativeServer) {
  std::string exe = pe_guest_path();
  if (!exists(exe))
    GTEST_SKIP() << "no PE guest (set NPT_WIN_BUILD_DIR or NPT_TRANSPORT_PE_GUEST)";
  if (std::system("command -v wine >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "wine not installed";

  ServerProcess server;
  ASSERT_TRUE(server.running());
  std::string cmd = std::string(GetParam() ? "" : "NPT_TRANSPORT_NO_RAW_FUTEX=1 ") + "timeout 120 wine '" + exe + "' 'Z:" + server.rendezvous_path() + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string output;
  char buf[512];
  while (fgets(buf, sizeof(buf), p))
    output += buf;
  int status = pclose(p);
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0) << output;
  EXPECT_NE(output.find("PASS"), std::string::npos) << output;
  std::printf("%s", output.c_str());
  // The worker unlinked the shared file once the PE guest mapped it.
  EXPECT_TRUE(server.running());
}

INSTANTIATE_TEST_SUITE_P(Wakeups, PeGuest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "RawFutex" : "SocketFallback"; });
