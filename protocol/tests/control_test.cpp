// SPDX-License-Identifier: MIT
// Control commands QueryHostInfo, BindPushSlot and PresentBuffer: encode ->
// decode -> dispatch, replies, and the refusals of the stream decoder.

#include <gtest/gtest.h>

#include "harness.h"
#include "npt/protocol/control.h"

using namespace npt::protocol;

namespace {

  struct Control : ::testing::Test {
    DecodeContext        ctx{64u << 10};
    RecordingDispatch    rec;
    std::vector<uint8_t> replies;
    uint8_t              buf[256];
    CommandWriter        w{buf, sizeof buf};
    ObjectId query = 1, predicate = 2, counter = 3, query1 = 4, texture = 5, buffer = 6, texture1 = 7;

    void SetUp() override {
      ctx.replies = &replies;
      ctx.handles.create(query, Iface_ID3D11Query);
      ctx.handles.create(predicate, Iface_ID3D11Predicate);
      ctx.handles.create(counter, Iface_ID3D11Counter);
      ctx.handles.create(query1, Iface_ID3D11Query1);
      ctx.handles.create(texture, Iface_ID3D11Texture2D);
      ctx.handles.create(buffer, Iface_ID3D11Buffer);
      ctx.handles.create(texture1, Iface_ID3D11Texture2D1);
    }
    ErrorCode run(const void* p, size_t n) {
      StreamDecoder dec(ctx, rec);
      return dec.decode(p, n).code;
    }
    ErrorCode runWords(std::initializer_list<uint32_t> words) {
      std::vector<uint32_t> v(words);
      return run(v.data(), v.size() * 4);
    }
    // Every cut of the single command in `buf` is fatal and dispatches nothing.
    void expectEveryTruncationFails() {
      for (size_t cut = 1; cut < w.size(); cut++) {
        std::vector<uint8_t> prefix(buf, buf + cut);
        size_t calls = rec.calls.size();
        EXPECT_NE(run(prefix.data(), prefix.size()), ErrorCode::Ok) << cut;
        if (cut % 4 == 0) {
          uint32_t h = packHeader(headerOpcode(reinterpret_cast<const uint32_t*>(buf)[0]), uint16_t(cut / 4));
          std::memcpy(prefix.data(), &h, 4);
          EXPECT_NE(run(prefix.data(), prefix.size()), ErrorCode::Ok) << "shortened header " << cut;
        }
        EXPECT_EQ(rec.calls.size(), calls) << cut;
      }
    }
  };

}

TEST_F(Control, QueryHostInfoRepliesWithTheDispatchBlob) {
  ASSERT_TRUE(encode_QueryHostInfo(w));
  EXPECT_EQ(w.size(), 4u);
  EXPECT_EQ(reinterpret_cast<const uint32_t*>(buf)[0], packHeader(OpQueryHostInfo, 1));
  ASSERT_EQ(run(buf, w.size()), ErrorCode::Ok);
  ASSERT_EQ(rec.calls.size(), 1u);
  EXPECT_EQ(rec.calls[0], "QueryHostInfo()");
  ASSERT_EQ(replies.size(), 4u + 4u + 48u);  // header, tag 45, 45 bytes + 3 padding
  std::vector<uint8_t> blob;
  ASSERT_EQ(decodeReply_QueryHostInfo(replies.data(), replies.size(), blob), ErrorCode::Ok);
  ASSERT_EQ(blob.size(), 45u);
  std::string s;
  canonBytes(s, blob.data(), blob.size());
  EXPECT_EQ(s, rec.outs.back());
  for (size_t n = 0; n < replies.size(); n++)
    EXPECT_NE(decodeReply_QueryHostInfo(replies.data(), n, blob), ErrorCode::Ok) << n;
  EXPECT_EQ(runWords({packHeader(OpQueryHostInfo, 2), 0}), ErrorCode::TrailingBytes);
}

TEST_F(Control, QueryHostInfoReplyMustBeOneInlineBlob) {
  std::vector<uint8_t> blob;
  uint32_t bulk[] = {packHeader(OpQueryHostInfo, 5), kPayloadBulkTag, 0, 0, 16};
  EXPECT_EQ(decodeReply_QueryHostInfo(bulk, sizeof bulk, blob), ErrorCode::BadPayload);
  uint32_t absent[] = {packHeader(OpQueryHostInfo, 2), kPayloadNullTag};
  EXPECT_EQ(decodeReply_QueryHostInfo(absent, sizeof absent, blob), ErrorCode::BadPayload);
  uint32_t longer[] = {packHeader(OpQueryHostInfo, 4), 4, 0x01020304, 0};
  EXPECT_EQ(decodeReply_QueryHostInfo(longer, sizeof longer, blob), ErrorCode::TrailingBytes);
  uint32_t other[] = {packHeader(OpPresentBuffer, 2), 0};
  EXPECT_EQ(decodeReply_QueryHostInfo(other, sizeof other, blob), ErrorCode::UnknownOpcode);
  uint32_t overlong[] = {packHeader(OpQueryHostInfo, 3), 12, 0};
  EXPECT_EQ(decodeReply_QueryHostInfo(overlong, sizeof overlong, blob), ErrorCode::Truncated);
  std::vector<uint8_t> huge(kMaxCommandBytes), out;
  EXPECT_EQ(appendReply_QueryHostInfo(out, huge), ErrorCode::EncoderOverflow);
  EXPECT_TRUE(out.empty());
}

TEST_F(Control, BindPushSlotAcceptsEveryAsynchronousFamily) {
  for (ObjectId id : {query, predicate, counter, query1}) {
    w.clear();
    ASSERT_TRUE(encode_BindPushSlot(w, id, 17));
    EXPECT_EQ(w.size(), 12u);
    ASSERT_EQ(run(buf, w.size()), ErrorCode::Ok) << id;
    EXPECT_EQ(rec.calls.back(), "BindPushSlot(query=" + std::to_string(id) + ";slot=11;)");
  }
  EXPECT_TRUE(replies.empty()) << "not a sync command";
  expectEveryTruncationFails();
}

TEST_F(Control, BindPushSlotRefusals) {
  EXPECT_EQ(runWords({packHeader(OpBindPushSlot, 3), texture, 0}), ErrorCode::WrongObjectType);
  EXPECT_EQ(runWords({packHeader(OpBindPushSlot, 3), 999, 0}), ErrorCode::UnknownObject);
  EXPECT_EQ(runWords({packHeader(OpBindPushSlot, 3), 0, 0}), ErrorCode::NullNotAllowed);
  EXPECT_EQ(runWords({packHeader(OpBindPushSlot, 2), query}), ErrorCode::Truncated);
  EXPECT_EQ(runWords({packHeader(OpBindPushSlot, 4), query, 0, 0}), ErrorCode::TrailingBytes);
  ctx.pushSlotCount = 64;
  EXPECT_EQ(runWords({packHeader(OpBindPushSlot, 3), query, 63}), ErrorCode::Ok);
  EXPECT_EQ(runWords({packHeader(OpBindPushSlot, 3), query, 64}), ErrorCode::CountTooLarge);
  EXPECT_EQ(runWords({packHeader(OpBindPushSlot, 3), query, 0xffffffffu}), ErrorCode::CountTooLarge);
  EXPECT_EQ(rec.calls.size(), 1u);
  EXPECT_FALSE(encode_BindPushSlot(w, 0, 1));
}

TEST_F(Control, PresentBufferTakesALiveTexture2D) {
  ASSERT_TRUE(encode_PresentBuffer(w, texture, 1, 0x200));
  EXPECT_EQ(w.size(), 16u);
  ASSERT_EQ(run(buf, w.size()), ErrorCode::Ok);
  EXPECT_EQ(rec.calls.back(), "PresentBuffer(texture=5;interval=1;flags=200;)");
  w.clear();
  ASSERT_TRUE(encode_PresentBuffer(w, texture1, 0, 0));
  ASSERT_EQ(run(buf, w.size()), ErrorCode::Ok);
  expectEveryTruncationFails();
  EXPECT_EQ(runWords({packHeader(OpPresentBuffer, 4), buffer, 0, 0}), ErrorCode::WrongObjectType);
  EXPECT_EQ(runWords({packHeader(OpPresentBuffer, 4), query, 0, 0}), ErrorCode::WrongObjectType);
  EXPECT_EQ(runWords({packHeader(OpPresentBuffer, 4), 0, 0, 0}), ErrorCode::NullNotAllowed);
  EXPECT_EQ(runWords({packHeader(OpPresentBuffer, 4), 12345, 0, 0}), ErrorCode::UnknownObject);
  EXPECT_EQ(runWords({packHeader(OpPresentBuffer, 5), texture, 0, 0, 0}), ErrorCode::TrailingBytes);
  // A destroyed back buffer cannot be presented.
  EXPECT_EQ(runWords({packHeader(OpDestroyObject, 2), texture, packHeader(OpPresentBuffer, 4), texture, 0, 0}),
            ErrorCode::UnknownObject);
  EXPECT_FALSE(encode_PresentBuffer(w, 0, 0, 0));
}

TEST_F(Control, SharedHandleClosedTakesALiveObject) {
  ASSERT_TRUE(encode_SharedHandleClosed(w, texture));
  EXPECT_EQ(w.size(), 8u);
  ASSERT_EQ(run(buf, w.size()), ErrorCode::Ok);
  EXPECT_EQ(rec.calls.back(), "SharedHandleClosed(object=5;)");
  expectEveryTruncationFails();
  // Any live object reaches the executor (it judges which have a shared entry).
  EXPECT_EQ(runWords({packHeader(OpSharedHandleClosed, 2), buffer}), ErrorCode::Ok);
  EXPECT_EQ(runWords({packHeader(OpSharedHandleClosed, 2), 0}), ErrorCode::NullNotAllowed);
  EXPECT_EQ(runWords({packHeader(OpSharedHandleClosed, 2), 12345}), ErrorCode::UnknownObject);
  EXPECT_EQ(runWords({packHeader(OpSharedHandleClosed, 3), texture, 0}), ErrorCode::TrailingBytes);
  EXPECT_EQ(runWords({packHeader(OpSharedHandleClosed, 1)}), ErrorCode::Truncated);
  EXPECT_EQ(runWords({packHeader(OpDestroyObject, 2), texture, packHeader(OpSharedHandleClosed, 2), texture}),
            ErrorCode::UnknownObject);
  EXPECT_FALSE(encode_SharedHandleClosed(w, 0));
}

TEST_F(Control, ControlCommandsNeedNoSelectionAndKeepIt) {
  ObjectId context = 20;
  ctx.handles.create(context, Iface_ID3D11DeviceContext);
  ASSERT_TRUE(encode_ID3D11DeviceContext_Draw(w, context, 3, 0));
  ASSERT_TRUE(encode_PresentBuffer(w, texture, 0, 0));
  ASSERT_TRUE(encode_BindPushSlot(w, query, 2));
  ASSERT_TRUE(encode_ID3D11DeviceContext_Draw(w, context, 6, 0));
  EXPECT_EQ(w.size(), 8u + 12 + 16 + 12 + 12) << "the second Draw reuses the selection";
  ASSERT_EQ(run(buf, w.size()), ErrorCode::Ok);
  ASSERT_EQ(rec.calls.size(), 4u);
}
