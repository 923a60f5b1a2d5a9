// SPDX-License-Identifier: MIT
// A server that accepts the connection but never answers the handshake: device creation
// fails with E_FAIL after NPT_CONNECT_TIMEOUT_MS instead of hanging ("nothing
// hangs"). Neptune only; part of guest_d3d11_no_server.
#include <winsock2.h>
#include <ws2tcpip.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "d3d11_test_env.h"

namespace {

// A loopback TCP socket that listens and never accepts: the kernel completes the
// connection, the guest's Hello lands in the backlog, and no Welcome ever comes.
class SilentServer {
public:
  SilentServer() {
    WSADATA data;
    if (WSAStartup(MAKEWORD(2, 2), &data) != 0) return;
    m_started = true;
    m_socket = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (m_socket == INVALID_SOCKET) return;
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int size = sizeof(address);
    if (bind(m_socket, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 || listen(m_socket, 4) != 0 ||
        getsockname(m_socket, reinterpret_cast<sockaddr*>(&address), &size) != 0)
      return;
    m_port = ntohs(address.sin_port);
  }
  ~SilentServer() {
    if (m_socket != INVALID_SOCKET) closesocket(m_socket);
    if (m_started) WSACleanup();
  }
  unsigned port() const { return m_port; }

private:
  bool m_started = false;
  SOCKET m_socket = INVALID_SOCKET;
  unsigned m_port = 0;
};

// Sets an environment variable in the C runtime's copy (which the guest runtime reads)
// for the scope's duration.
class ScopedEnv {
public:
  ScopedEnv(const char* name, const std::string& value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_old = old, m_had = true;
    _putenv((m_name + "=" + value).c_str());
  }
  ~ScopedEnv() { _putenv((m_name + "=" + (m_had ? m_old : std::string())).c_str()); }

private:
  std::string m_name, m_old;
  bool m_had = false;
};

using npt::test::D3D11Under;

TEST(NoServer, AServerThatNeverAnswersFailsAfterTheConnectTimeout) {
  D3D11Under& under = D3D11Under::get();
  if (!under.neptune()) GTEST_SKIP() << "Neptune only";
  ASSERT_TRUE(under.ready()) << under.error();
  SilentServer server;
  ASSERT_NE(server.port(), 0u);
  char directory[MAX_PATH] = {};
  ASSERT_NE(GetTempPathA(sizeof(directory), directory), 0u);
  const std::string socketPath = std::string(directory) + "npt-silent-" + std::to_string(GetCurrentProcessId());
  const std::string rendezvous = socketPath + ".tcp";
  FILE* file = std::fopen(rendezvous.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fprintf(file, "%u silent-token\n", server.port());
  std::fclose(file);
  {
    ScopedEnv address("NPT_SERVER", socketPath);
    ScopedEnv timeout("NPT_CONNECT_TIMEOUT_MS", "700");
    ID3D11Device* device = reinterpret_cast<ID3D11Device*>(1);
    ID3D11DeviceContext* context = reinterpret_cast<ID3D11DeviceContext*>(1);
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(under.createDevice(&device, &context), E_FAIL);
    auto elapsed = std::chrono::steady_clock::now() - start;
    EXPECT_GE(elapsed, std::chrono::milliseconds(600)) << "it waited for the Welcome";
    EXPECT_LT(elapsed, std::chrono::seconds(4)) << "bounded by NPT_CONNECT_TIMEOUT_MS";
    EXPECT_EQ(device, nullptr);
    EXPECT_EQ(context, nullptr);
  }
  DeleteFileA(rendezvous.c_str());
}

}  // namespace
