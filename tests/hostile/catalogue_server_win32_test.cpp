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

#include "../../host/server/tests/win32_server_process.h"
#include "catalogue.h"
#include "neptune/transport/status.h"

using namespace npt;
using namespace npt::transport;

namespace npt::hostile {
namespace {

class WireGuest {
public:
  explicit WireGuest(Win32ServerProcess& server) : m_buffer(512 * 1024), m_writer(m_buffer.data(), m_buffer.size()) {
    Geometry g;
    g.ring_count = 1;
    g.ring_size = 1u << 20;
    g.reply_slot_count = 4;
    g.reply_slot_size = 1u << 20;
    g.push_slot_count = 64;
    g.bulk_size = 8u << 20;
    m_geometry = g;
    std::string error;
    m_status = server.connect(&m_connection, &error, g);
  }
  bool connected() const { return m_status == kOk; }
  CommandWriter& w() { return m_writer; }
  GuestConnection& connection() { return *m_connection; }
  Status call(std::vector<uint8_t>& reply) {
    reply.assign(1u << 20, 0);
    size_t size = 0;
    Status s = m_connection->call(0, m_buffer.data(), m_writer.size(), reply.data(), reply.size(), &size);
    m_writer.clear();
    reply.resize(s == kOk ? size : 0);
    return s;
  }
  const uint8_t* bulk(const protocol::BulkRef& ref) const {
    return m_connection->shared_base() + m_geometry.bulk_offset() + ref.offset;
  }

private:
  std::unique_ptr<GuestConnection> m_connection;
  Status m_status = kDeviceRemoved;
  Geometry m_geometry;
  std::vector<uint8_t> m_buffer;
  CommandWriter m_writer;
};

// Clears a fresh 4x4 target to `value` and reads it back: the 64 bytes the guest sees.
std::vector<uint8_t> clearAndReadBack(WireGuest& guest, ObjectId firstId, float value) {
  const ObjectId texture = firstId, rtv = firstId + 1, staging = firstId + 2;
  D3D11_TEXTURE2D_DESC target = {4, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                 D3D11_BIND_RENDER_TARGET, 0, 0};
  D3D11_TEXTURE2D_DESC readable = target;
  readable.Usage = D3D11_USAGE_STAGING;
  readable.BindFlags = 0;
  readable.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  protocol::encode_ID3D11Device_CreateTexture2D(guest.w(), kDevice, &target, 0, nullptr, texture);
  protocol::encode_ID3D11Device_CreateRenderTargetView(guest.w(), kDevice, texture, nullptr, rtv);
  protocol::encode_ID3D11Device_CreateTexture2D(guest.w(), kDevice, &readable, 0, nullptr, staging);
  const FLOAT color[4] = {value, value, value, value};
  protocol::encode_ID3D11DeviceContext_ClearRenderTargetView(guest.w(), kContext, rtv, color);
  protocol::encode_ID3D11DeviceContext_CopyResource(guest.w(), kContext, staging, texture);
  protocol::encode_ID3D11DeviceContext_Map(guest.w(), kContext, staging, 0, D3D11_MAP_READ, 0);
  std::vector<uint8_t> reply;
  if (guest.call(reply) != kOk) return {};
  HRESULT hr = E_FAIL;
  UINT rowPitch = 0, depthPitch = 0;
  Payload data;
  if (protocol::decodeReply_ID3D11DeviceContext_Map(reply.data(), reply.size(), &hr, &rowPitch, &depthPitch, &data) !=
          protocol::ErrorCode::Ok || hr != S_OK)
    return {};
  std::vector<uint8_t> bytes;
  if (data.isBulk) bytes.assign(guest.bulk(data.bulk), guest.bulk(data.bulk) + data.bulk.size);
  else if (!data.isNull) bytes.assign(static_cast<const uint8_t*>(data.data), static_cast<const uint8_t*>(data.data) + data.size);
  protocol::encode_ID3D11DeviceContext_Unmap(guest.w(), kContext, staging, 0, D3D11_MAP_READ, 0, nullptr, Payload::none());
  for (ObjectId id : {rtv, texture, staging}) {
    guest.w().u32(protocol::packHeader(protocol::OpDestroyObject, 2));
    guest.w().u32(id);
  }
  protocol::encode_ID3D11DeviceContext_Flush(guest.w(), kContext);
  guest.call(reply);
  return bytes;
}

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
