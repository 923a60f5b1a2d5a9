// SPDX-License-Identifier: MIT
#pragma once

// A guest that writes protocol commands onto the wire itself (no guest runtime) through
// neptune-server.exe, and the witness a hostile test keeps beside it: a context that
// clears a render target and reads it back.
#include <windows.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <d3d11.h>

#include "../../host/server/tests/win32_server_process.h"
#include "catalogue.h"
#include "neptune/transport/status.h"

namespace npt::hostile {

using transport::Geometry;
using transport::GuestConnection;
using transport::kDeviceRemoved;
using transport::kOk;
using transport::Status;

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
inline std::vector<uint8_t> clearAndReadBack(WireGuest& guest, ObjectId firstId, float value) {
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

}  // namespace npt::hostile
