// SPDX-License-Identifier: MIT
// triton_runtime_api: one neptune-server.exe for every case (neptune_server_env.h), logging
// the frames its presenter shows (the swapchain cases read them back).

#include "runtime_test_support.h"

namespace triton::test {
namespace {
NeptuneServer* server = nullptr;
}
const NeptuneServer& apiServer() { return *server; }
}  // namespace triton::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  triton::test::server = new triton::test::NeptuneServer("triton-runtime-api-test", true);
  ::testing::AddGlobalTestEnvironment(triton::test::server);
  return RUN_ALL_TESTS();
}
