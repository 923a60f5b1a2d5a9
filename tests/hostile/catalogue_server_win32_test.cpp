// SPDX-License-Identifier: MIT
// The malformed-stream catalogue (catalogue.h) through neptune-server.exe under Wine in
// its default executor mode on wined3d: each entry on a connection of its own, beside a
// well-behaved context that clears a render target and reads it back after every entry.
// A fatal entry removes its context (DispatchFailed; the stable executor/decoder code is
// in the server log), an API-error entry answers as Windows does and its context lives
// on; the server keeps running and the other context's pixels stay right.
#include <gtest/gtest.h>
#include <windows.h>

#include <cstring>
#include <vector>

#include <d3d11.h>

#include "catalogue.h"
#include "neptune/transport/status.h"
#include "wire_guest_win32.h"

using namespace npt;
using namespace npt::transport;

namespace npt::hostile {
namespace {

TEST(CatalogueThroughWin32Server, EveryEntryEndsAsDocumentedBesideALiveContext) {
  if (!std::getenv("NPT_SERVER_BIN")) GTEST_SKIP() << "NPT_SERVER_BIN not set";
  Win32ServerProcess server("--dispatch executor");
  ASSERT_TRUE(server.running());
  WireGuest good(server);
  ASSERT_TRUE(good.connected());
  writeDeviceCreation(good.w());
  std::vector<uint8_t> reply;
  ASSERT_EQ(good.call(reply), kOk);
  ASSERT_EQ(lastReplyResult(reply.data(), reply.size()), uint32_t(S_OK));
  ObjectId nextGoodId = 10;

  for (const Entry& entry : catalogue()) {
    SCOPED_TRACE(std::string(entry.name) + " (" + entry.bugClass + ")");
    WireGuest bad(server);
    ASSERT_TRUE(bad.connected());
    writeDeviceCreation(bad.w());
    entry.write(bad.w());
    if (!entry.lastIsSync) protocol::encode_ID3D11DeviceContext_Flush(bad.w(), kContext);   // a sync end
    ASSERT_TRUE(bad.w().ok());
    const Status status = bad.call(reply);
    switch (entry.outcome) {
      case Outcome::DecoderFatal:
      case Outcome::ExecutorFatal:
        EXPECT_EQ(status, kDeviceRemoved);
        EXPECT_EQ(bad.connection().fatal_reason(), uint32_t(FatalReason::DispatchFailed));
        break;
      case Outcome::SyncError:
        ASSERT_EQ(status, kOk);
        EXPECT_EQ(lastReplyResult(reply.data(), reply.size()), entry.code);
        EXPECT_EQ(bad.connection().status(), kOk);
        break;
      case Outcome::Dropped:
        EXPECT_EQ(status, kOk);
        EXPECT_EQ(bad.connection().status(), kOk) << "dropped calls leave the context alive";
        break;
    }
    ASSERT_TRUE(server.running()) << "the server survives";
    const float value = float(nextGoodId % 2);
    const std::vector<uint8_t> pixels = clearAndReadBack(good, nextGoodId, value);
    nextGoodId += 3;
    EXPECT_EQ(pixels, std::vector<uint8_t>(64, value ? 0xff : 0x00)) << "the other context renders and reads back";
  }
}

}  // namespace
}  // namespace npt::hostile
