// SPDX-License-Identifier: MIT
#include "server_frame.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "npt/protocol/wire.h"
#include "npt_identity.h"

namespace npt::bench::gpu {

namespace {

using protocol::ObjectId;
using protocol::Payload;

// The guest runtime's: guest/core/command_stream.h kFlushThreshold, Runtime::defaultGeometry.
constexpr size_t kFlushThreshold = 64 * 1024;

transport::Geometry guestGeometry() {
  transport::Geometry g;
  g.ring_count = 1;
  g.ring_size = 4u << 20;
  g.reply_slot_count = 8;
  g.reply_slot_size = 1u << 20;
  g.push_slot_count = 1024;
  g.fence_count = 64;
  g.bulk_size = 64ull << 20;
  return g;
}

}  // namespace

ServerFrame::ServerFrame(const std::string& serverBinary, const std::vector<uint8_t>& vs,
                         const std::vector<uint8_t>& psPlain, const std::vector<uint8_t>& psSwizzled,
                         const std::vector<float>& vertices, const uint16_t (&indices)[6], UINT width, UINT height)
: m_width(width), m_height(height), m_commands(16u << 20), m_syncCommand(4096), m_reply(1u << 20),
  m_writer(m_commands.data(), m_commands.size()), m_syncWriter(m_syncCommand.data(), m_syncCommand.size()) {
  char directory[] = "/tmp/npt-gpu-bench-XXXXXX";
  if (!mkdtemp(directory)) fail("mkdtemp");
  m_directory = directory;
  m_socket = m_directory + "/neptune.sock";
  m_server = fork();
  if (m_server == 0) {
    execl(serverBinary.c_str(), serverBinary.c_str(), "--socket", m_socket.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Ready once the rendezvous file (written after both listeners) exists.
  for (int i = 0; i < 1000 && access((m_socket + ".tcp").c_str(), R_OK) != 0; i++) usleep(10000);
  transport::ProtocolIdentity identity;
  identity.major = protocol::kProtocolMajor;
  identity.minor = protocol::kProtocolMinor;
  identity.opcode_count = protocol::kOpcodeCount;
  identity.registry_hash = protocol::kRegistryHash;
  std::string error;
  if (transport::GuestConnection::connect(m_socket.c_str(), guestGeometry(), &m_guest, &error, identity) !=
      transport::kOk) {
    std::fprintf(stderr, "server mode: cannot connect to %s: %s\n", m_socket.c_str(), error.c_str());
    fail("connect");
  }

  using namespace npt::protocol;
  m_device = next();
  m_objects.context = next();
  encode_D3D11CreateDevice(m_syncWriter, 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION,
                           m_device, m_objects.context);
  call(m_syncCommand, m_syncWriter.size());
  HRESULT hr = E_FAIL;
  D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL(0);
  if (decodeReply_D3D11CreateDevice(m_reply.data(), m_replySize, &hr, &level) != ErrorCode::Ok || FAILED(hr))
    fail("D3D11CreateDevice through neptune-server");

  FrameObjects& o = m_objects;
  o.vs = next();
  encode_ID3D11Device_CreateVertexShader(m_writer, m_device, Payload::inlineBytes(vs.data(), uint32_t(vs.size())), 0,
                                         o.vs);
  o.psPlain = next();
  encode_ID3D11Device_CreatePixelShader(m_writer, m_device,
                                        Payload::inlineBytes(psPlain.data(), uint32_t(psPlain.size())), 0, o.psPlain);
  o.psSwizzled = next();
  encode_ID3D11Device_CreatePixelShader(
      m_writer, m_device, Payload::inlineBytes(psSwizzled.data(), uint32_t(psSwizzled.size())), 0, o.psSwizzled);
  const D3D11_INPUT_ELEMENT_DESC element = {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0};
  o.layout = next();
  encode_ID3D11Device_CreateInputLayout(m_writer, m_device, &element, 1,
                                        Payload::inlineBytes(vs.data(), uint32_t(vs.size())), o.layout);
  // DEFAULT buffers filled by UpdateSubresource in 32 KB pieces: the vertices travel inline
  // in the ring (the other modes give them as initial data).
  const UINT vbBytes = UINT(vertices.size() * sizeof(float));
  D3D11_BUFFER_DESC vbDesc = {vbBytes, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
  o.vertices = next();
  encode_ID3D11Device_CreateBuffer(m_writer, m_device, &vbDesc, 0, nullptr, o.vertices);
  const auto* vertexBytes = reinterpret_cast<const uint8_t*>(vertices.data());
  for (UINT offset = 0; offset < vbBytes; offset += 32768) {
    const UINT size = std::min<UINT>(32768, vbBytes - offset);
    D3D11_BOX box = {offset, 0, 0, offset + size, 1, 1};
    encode_ID3D11DeviceContext_UpdateSubresource(m_writer, o.context, o.vertices, 0, &box,
                                                 Payload::inlineBytes(vertexBytes + offset, size), 0, 0);
  }
  D3D11_BUFFER_DESC ibDesc = {sizeof(indices), D3D11_USAGE_DEFAULT, D3D11_BIND_INDEX_BUFFER, 0, 0, 0};
  o.indices = next();
  encode_ID3D11Device_CreateBuffer(m_writer, m_device, &ibDesc, 0, nullptr, o.indices);
  encode_ID3D11DeviceContext_UpdateSubresource(m_writer, o.context, o.indices, 0, nullptr,
                                               Payload::inlineBytes(indices, sizeof(indices)), 0, 0);
  D3D11_BUFFER_DESC cbDesc = {16, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
  o.rowConstants = next();
  encode_ID3D11Device_CreateBuffer(m_writer, m_device, &cbDesc, 0, nullptr, o.rowConstants);
  D3D11_TEXTURE2D_DESC rtDesc = textureDesc(width, height, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
  m_target = next();
  encode_ID3D11Device_CreateTexture2D(m_writer, m_device, &rtDesc, 0, nullptr, m_target);
  o.rtv = next();
  encode_ID3D11Device_CreateRenderTargetView(m_writer, m_device, m_target, nullptr, o.rtv);
  D3D11_TEXTURE2D_DESC stDesc = textureDesc(1, 1, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
  m_staging = next();
  encode_ID3D11Device_CreateTexture2D(m_writer, m_device, &stDesc, 0, nullptr, m_staging);
  submit();
}

ServerFrame::~ServerFrame() {
  m_guest.reset();
  if (m_server > 0) {
    kill(m_server, SIGTERM);
    waitpid(m_server, nullptr, 0);
  }
  if (!m_directory.empty()) {
    unlink((m_socket + ".tcp").c_str());
    unlink(m_socket.c_str());
    rmdir(m_directory.c_str());
  }
}

void ServerFrame::fail(const char* what) {
  std::fprintf(stderr, "server mode: %s failed%s\n", what,
               m_guest && m_guest->status() != transport::kOk ? " (the context was removed: see the server's log)" : "");
  if (m_server > 0) {
    kill(m_server, SIGTERM);
    waitpid(m_server, nullptr, 0);
  }
  std::exit(2);
}

void ServerFrame::submit() {
  if (m_writer.size() == 0) return;
  if (m_guest->submit(0, m_commands.data(), m_writer.size()) != transport::kOk) fail("submit");
  m_writer.clear();
}

const std::vector<uint8_t>& ServerFrame::call(const std::vector<uint8_t>& command, size_t size) {
  submit();
  m_replySize = 0;
  if (m_guest->call(0, command.data(), size, m_reply.data(), m_reply.size(), &m_replySize) != transport::kOk)
    fail("call");
  m_syncWriter.clear();
  return m_reply;
}

uint32_t ServerFrame::render(uint32_t frame) {
  using namespace npt::protocol;
  encodeFrame(m_writer, m_objects, frame, m_width, m_height, [this] {
    if (m_writer.size() >= kFlushThreshold) submit();
  });
  D3D11_BOX box = checkedPixelBox(m_width, m_height);
  encode_ID3D11DeviceContext_CopySubresourceRegion(m_writer, m_objects.context, m_staging, 0, 0, 0, 0, m_target, 0,
                                                   &box);
  encode_ID3D11DeviceContext_Map(m_syncWriter, m_objects.context, m_staging, 0, D3D11_MAP_READ, 0);
  call(m_syncCommand, m_syncWriter.size());
  HRESULT hr = E_FAIL;
  UINT rowPitch = 0, depthPitch = 0;
  Payload data;
  if (decodeReply_ID3D11DeviceContext_Map(m_reply.data(), m_replySize, &hr, &rowPitch, &depthPitch, &data) !=
          ErrorCode::Ok ||
      FAILED(hr) || data.isBulk || data.size < 4)
    fail("Map");
  uint32_t pixel = 0;
  std::memcpy(&pixel, data.data, 4);
  encode_ID3D11DeviceContext_Unmap(m_writer, m_objects.context, m_staging, 0, D3D11_MAP_READ, 0, nullptr,
                                   Payload::none());
  return pixel;   // the Unmap travels with the next frame's first batch
}

}  // namespace npt::bench::gpu
