// SPDX-License-Identifier: MIT
// The malformed-stream catalogue (catalogue.h) in process: each entry on its own context
// (decoder -> executor -> recording backend) beside a well-behaved context that renders
// a frame before and after. The entry must end as documented, the recording driver must
// have seen nothing invalid, a fatal context must hold no backend object, and the other
// context must be untouched.
#include <gtest/gtest.h>

#include "catalogue.h"
#include "executor_context.h"

namespace npt::hostile {
namespace {

namespace rec = backends::recording;

// A frame of a well-behaved guest: texture, view, clear, copy to staging, read back.
void goodFrame(ExecutorContext& context, bool first) {
  std::vector<uint8_t> buffer(64 * 1024);
  CommandWriter w(buffer.data(), buffer.size());
  if (first) {
    writeDeviceCreation(w);
    D3D11_TEXTURE2D_DESC target = {16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                   D3D11_BIND_RENDER_TARGET, 0, 0};
    protocol::encode_ID3D11Device_CreateTexture2D(w, kDevice, &target, 0, nullptr, 10);
    protocol::encode_ID3D11Device_CreateRenderTargetView(w, kDevice, 10, nullptr, 11);
    D3D11_TEXTURE2D_DESC staging = target;
    staging.Usage = D3D11_USAGE_STAGING;
    staging.BindFlags = 0;
    staging.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    protocol::encode_ID3D11Device_CreateTexture2D(w, kDevice, &staging, 0, nullptr, 12);
  }
  const FLOAT color[4] = {1, 0, 0, 1};
  protocol::encode_ID3D11DeviceContext_ClearRenderTargetView(w, kContext, 11, color);
  protocol::encode_ID3D11DeviceContext_CopyResource(w, kContext, 12, 10);
  protocol::encode_ID3D11DeviceContext_Map(w, kContext, 12, 0, D3D11_MAP_READ, 0);
  protocol::encode_ID3D11DeviceContext_Unmap(w, kContext, 12, 0, D3D11_MAP_READ, 0, nullptr, Payload::none());
  ASSERT_TRUE(w.ok());
  ASSERT_EQ(context.run(buffer.data(), w.size()), protocol::ErrorCode::Ok);
  ASSERT_FALSE(context.executor().isFatal()) << context.executor().fatalError().message;
  EXPECT_EQ(context.lastReplyResult(), uint32_t(S_OK)) << "the Map readback";
}

class Catalogue : public ::testing::TestWithParam<size_t> {};

TEST_P(Catalogue, EndsAsDocumentedAndLeavesTheOtherContextAlone) {
  const Entry& entry = catalogue()[GetParam()];
  SCOPED_TRACE(std::string(entry.name) + " (" + entry.bugClass + ")");
  rec::resetJournal();
  ExecutorContext good;
  goodFrame(good, true);
  const int64_t goodObjects = rec::liveObjects();
  {
    ExecutorContext hostile;
    std::vector<uint8_t> buffer(256 * 1024);
    CommandWriter w(buffer.data(), buffer.size());
    writeDeviceCreation(w);
    entry.write(w);
    ASSERT_TRUE(w.ok());
    const protocol::ErrorCode decoded = hostile.run(buffer.data(), w.size());
    executor::Executor& ex = hostile.executor();
    switch (entry.outcome) {
      case Outcome::DecoderFatal:
        EXPECT_EQ(uint32_t(decoded), entry.code) << protocol::errorName(decoded);
        EXPECT_TRUE(ex.isFatal());
        break;
      case Outcome::ExecutorFatal:
        EXPECT_EQ(decoded, protocol::ErrorCode::Ok) << protocol::errorName(decoded);
        EXPECT_TRUE(ex.isFatal());
        EXPECT_EQ(uint32_t(ex.fatalError().code), entry.code) << ex.fatalError().message;
        break;
      case Outcome::SyncError:
        EXPECT_EQ(decoded, protocol::ErrorCode::Ok) << protocol::errorName(decoded);
        EXPECT_FALSE(ex.isFatal()) << ex.fatalError().message;
        EXPECT_EQ(hostile.lastReplyResult(), entry.code);
        break;
      case Outcome::Dropped:
        EXPECT_EQ(decoded, protocol::ErrorCode::Ok) << protocol::errorName(decoded);
        EXPECT_FALSE(ex.isFatal()) << ex.fatalError().message;
        EXPECT_GT(ex.droppedCalls(), 0u) << "the invalid call is dropped with a log line";
        break;
    }
    if (ex.isFatal()) {
      EXPECT_EQ(ex.liveObjects(), 0u) << "a fatal context releases every backend object at once";
      EXPECT_EQ(rec::liveObjects(), goodObjects);
    }
  }
  EXPECT_EQ(rec::liveObjects(), goodObjects) << "the hostile context's objects are all released";
  for (const std::string& violation : rec::journal().violations) ADD_FAILURE() << "the driver saw: " << violation;
  goodFrame(good, false);
}

std::string entryName(const ::testing::TestParamInfo<size_t>& info) {
  std::string name = catalogue()[info.param].name;
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Entries, Catalogue, ::testing::Range(size_t(0), catalogue().size()), entryName);

}  // namespace
}  // namespace npt::hostile
