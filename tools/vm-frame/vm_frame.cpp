// SPDX-License-Identifier: MIT
// neptune-vm-frame: renders many_draws' frame (bench/gpu/frame_commands.h: a 100x100 grid
// of quads, one DrawIndexed each, the pixel shader switched at every draw) through a
// Neptune transport to a server's backend, reads the whole render target back and writes
// it as raw RGBA. A native guest program for the VM test (tests/vm): inside the VM it
// speaks to the host through the shared-memory device (QEMU ivshmem); on the host the
// same program through the server's socket gives the bytes to compare with.
//
//   neptune-vm-frame --output FILE [--transport ivshmem|socket] [--device PATH]
//                    [--server SOCKET] [--size WxH] [--frames N] [--pause-mid-frame]
//
// Exit status: 0 rendered and every cell has its expected colour; 1 the context failed
// (removed, refused, readback failed); 2 usage or connection; 3 wrong pixels.
#if defined(_WIN32)
#include <windows.h>
#else
#include <unistd.h>
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../../bench/gpu/frame_commands.h"
#include "../../guest/core/server_rendezvous.h"
#include "dxbc/asm/assembler.h"
#include "neptune/transport/guest_connection.h"
#include "npt/protocol/wire.h"
#include "npt_encode.h"
#include "npt_identity.h"

namespace {

using namespace npt;
using namespace npt::bench::gpu;
using protocol::ObjectId;
using protocol::Payload;

// The guest runtime's flush threshold (guest/core/command_stream.h).
constexpr size_t kFlushThreshold = 64 * 1024;

[[noreturn]] void die(int status, const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "neptune-vm-frame: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
  std::exit(status);
}

std::vector<uint8_t> assemble(const char* text, const char* name) {
  std::vector<uint8_t> container;
  dxbc::sm::AssemblyResult result = dxbc::sm::assembleContainer(text, container);
  if (!result.ok)
    die(2, "assembling a shader", result.error.format(name));
  return container;
}

class Frame {
public:
  Frame(std::unique_ptr<transport::GuestConnection> guest, UINT width, UINT height)
  : m_guest(std::move(guest)), m_width(width), m_height(height), m_commands(16u << 20), m_sync(4096),
    m_reply(1u << 20), m_writer(m_commands.data(), m_commands.size()), m_syncWriter(m_sync.data(), m_sync.size()) {}

  void create() {
    using namespace npt::protocol;
    m_device = next();
    m_objects.context = next();
    encode_D3D11CreateDevice(m_syncWriter, 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION,
                             m_device, m_objects.context);
    call();
    HRESULT hr = E_FAIL;
    D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL(0);
    if (decodeReply_D3D11CreateDevice(m_reply.data(), m_replySize, &hr, &level) != ErrorCode::Ok || FAILED(hr))
      die(1, "D3D11CreateDevice failed on the host");
    const std::vector<uint8_t> vs = assemble(kVertexShader, "vs");
    const std::vector<uint8_t> psPlain = assemble(kPixelShaderPlain, "ps_plain");
    const std::vector<uint8_t> psSwizzled = assemble(kPixelShaderSwizzled, "ps_swizzled");
    FrameObjects& o = m_objects;
    o.vs = next();
    encode_ID3D11Device_CreateVertexShader(m_writer, m_device, Payload::inlineBytes(vs.data(), uint32_t(vs.size())),
                                           0, o.vs);
    o.psPlain = next();
    encode_ID3D11Device_CreatePixelShader(m_writer, m_device,
                                          Payload::inlineBytes(psPlain.data(), uint32_t(psPlain.size())), 0, o.psPlain);
    o.psSwizzled = next();
    encode_ID3D11Device_CreatePixelShader(
        m_writer, m_device, Payload::inlineBytes(psSwizzled.data(), uint32_t(psSwizzled.size())), 0, o.psSwizzled);
    const D3D11_INPUT_ELEMENT_DESC element = {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0,
                                              D3D11_INPUT_PER_VERTEX_DATA, 0};
    o.layout = next();
    encode_ID3D11Device_CreateInputLayout(m_writer, m_device, &element, 1,
                                          Payload::inlineBytes(vs.data(), uint32_t(vs.size())), o.layout);
    // Four vertices per cell; a draw picks its cell with BaseVertexLocation.
    std::vector<float> vertices;
    const float cell = 2.0f / kGrid;
    for (uint32_t row = 0; row < kGrid; row++)
      for (uint32_t column = 0; column < kGrid; column++) {
        const float x0 = -1.0f + cell * float(column), x1 = x0 + cell;
        const float y0 = 1.0f - cell * float(row), y1 = y0 - cell;
        for (float v : {x0, y0, x1, y0, x0, y1, x1, y1})
          vertices.push_back(v);
      }
    const UINT vbBytes = UINT(vertices.size() * sizeof(float));
    D3D11_BUFFER_DESC vbDesc = {vbBytes, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    o.vertices = next();
    encode_ID3D11Device_CreateBuffer(m_writer, m_device, &vbDesc, 0, nullptr, o.vertices);
    const auto* vertexBytes = reinterpret_cast<const uint8_t*>(vertices.data());
    for (UINT offset = 0; offset < vbBytes; offset += 32768) {
      const UINT size = vbBytes - offset < 32768 ? vbBytes - offset : 32768;
      D3D11_BOX box = {offset, 0, 0, offset + size, 1, 1};
      encode_ID3D11DeviceContext_UpdateSubresource(m_writer, o.context, o.vertices, 0, &box,
                                                   Payload::inlineBytes(vertexBytes + offset, size), 0, 0);
    }
    const uint16_t indices[6] = {0, 1, 2, 2, 1, 3};
    D3D11_BUFFER_DESC ibDesc = {sizeof(indices), D3D11_USAGE_DEFAULT, D3D11_BIND_INDEX_BUFFER, 0, 0, 0};
    o.indices = next();
    encode_ID3D11Device_CreateBuffer(m_writer, m_device, &ibDesc, 0, nullptr, o.indices);
    encode_ID3D11DeviceContext_UpdateSubresource(m_writer, o.context, o.indices, 0, nullptr,
                                                 Payload::inlineBytes(indices, sizeof(indices)), 0, 0);
    D3D11_BUFFER_DESC cbDesc = {16, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
    o.rowConstants = next();
    encode_ID3D11Device_CreateBuffer(m_writer, m_device, &cbDesc, 0, nullptr, o.rowConstants);
    D3D11_TEXTURE2D_DESC rtDesc = textureDesc(m_width, m_height, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
    m_target = next();
    encode_ID3D11Device_CreateTexture2D(m_writer, m_device, &rtDesc, 0, nullptr, m_target);
    o.rtv = next();
    encode_ID3D11Device_CreateRenderTargetView(m_writer, m_device, m_target, nullptr, o.rtv);
    D3D11_TEXTURE2D_DESC stDesc = textureDesc(m_width, m_height, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
    m_staging = next();
    encode_ID3D11Device_CreateTexture2D(m_writer, m_device, &stDesc, 0, nullptr, m_staging);
    submit();
  }

  // Renders frame `frame`; with pauseMidFrame the program stops after half of its rows
  // (a kill test's victim) and never returns.
  void render(uint32_t frame, bool pauseMidFrame) {
    uint32_t rows = 0;
    encodeFrame(m_writer, m_objects, frame, m_width, m_height, [&] {
      if (m_writer.size() >= kFlushThreshold)
        submit();
      if (pauseMidFrame && ++rows == kGrid / 2) {
        submit();
        std::fprintf(stderr, "neptune-vm-frame: paused mid-frame (worker %u)\n", m_guest->worker_pid());
        std::fflush(stderr);
        for (;;) {
#if defined(_WIN32)
          Sleep(INFINITE);
#else
          pause();
#endif
        }
      }
    });
  }

  // The whole render target, tightly packed RGBA rows.
  std::vector<uint8_t> readBack() {
    using namespace npt::protocol;
    encode_ID3D11DeviceContext_CopyResource(m_writer, m_objects.context, m_staging, m_target);
    encode_ID3D11DeviceContext_Map(m_syncWriter, m_objects.context, m_staging, 0, D3D11_MAP_READ, 0);
    call();
    HRESULT hr = E_FAIL;
    UINT rowPitch = 0, depthPitch = 0;
    Payload data;
    if (decodeReply_ID3D11DeviceContext_Map(m_reply.data(), m_replySize, &hr, &rowPitch, &depthPitch, &data) !=
            ErrorCode::Ok || FAILED(hr))
      die(1, "Map of the readback failed");
    const uint8_t* bytes = data.isBulk ? m_guest->region_bytes(0, data.bulk.region, data.bulk.offset, data.bulk.size)
                                       : static_cast<const uint8_t*>(data.data);
    const uint64_t rowBytes = uint64_t(m_width) * 4;
    if (!bytes || rowPitch < rowBytes || uint64_t(rowPitch) * (m_height - 1) + rowBytes > data.size)
      die(1, "the readback is smaller than the render target");
    std::vector<uint8_t> pixels(rowBytes * m_height);
    for (UINT y = 0; y < m_height; y++)
      std::memcpy(pixels.data() + y * rowBytes, bytes + uint64_t(y) * rowPitch, rowBytes);
    encode_ID3D11DeviceContext_Unmap(m_writer, m_objects.context, m_staging, 0, D3D11_MAP_READ, 0, nullptr,
                                     Payload::none());
    submit();
    return pixels;
  }

  // Cells whose centre pixel is not the frame's row colour (odd columns swizzled), at most
  // one off per channel.
  uint32_t wrongCells(const std::vector<uint8_t>& pixels, uint32_t frame) const {
    uint32_t wrong = 0;
    for (uint32_t row = 0; row < kGrid; row++) {
      float c[4];
      rowColour(row, frame, c);
      for (uint32_t column = 0; column < kGrid; column++) {
        const float expected[4] = {column & 1 ? c[2] : c[0], c[1], column & 1 ? c[0] : c[2], c[3]};
        const uint32_t x = uint32_t((column + 0.5) * m_width / kGrid), y = uint32_t((row + 0.5) * m_height / kGrid);
        const uint8_t* p = pixels.data() + (uint64_t(y) * m_width + x) * 4;
        for (int k = 0; k < 4; k++)
          if (std::abs(int(p[k]) - int(std::lround(expected[k] * 255.0f))) > 1) {
            wrong++;
            break;
          }
      }
    }
    return wrong;
  }

private:
  ObjectId next() { return m_nextId++; }
  void submit() {
    if (m_writer.size() == 0)
      return;
    if (m_guest->submit(0, m_commands.data(), m_writer.size()) != transport::kOk)
      die(1, "the context was removed (submit failed)", transport::fatal_reason_name(
                                                          transport::FatalReason(m_guest->fatal_reason())));
    m_writer.clear();
  }
  void call() {
    submit();
    m_replySize = 0;
    if (m_guest->call(0, m_sync.data(), m_syncWriter.size(), m_reply.data(), m_reply.size(), &m_replySize) !=
        transport::kOk)
      die(1, "the context was removed (call failed)",
          transport::fatal_reason_name(transport::FatalReason(m_guest->fatal_reason())));
    m_syncWriter.clear();
  }

  std::unique_ptr<transport::GuestConnection> m_guest;
  UINT m_width, m_height;
  std::vector<uint8_t> m_commands, m_sync, m_reply;
  protocol::CommandWriter m_writer, m_syncWriter;
  size_t m_replySize = 0;
  FrameObjects m_objects;
  ObjectId m_device = 0, m_target = 0, m_staging = 0, m_nextId = 1;
};

void usage() {
  std::fprintf(stderr,
               "usage: neptune-vm-frame --output FILE [--transport ivshmem|socket] [--device PATH]\n"
               "                        [--server SOCKET] [--size WxH] [--frames N] [--pause-mid-frame]\n"
               "  --transport ivshmem    (default) the shared-memory device: --device PATH, else\n"
               "                         NPT_IVSHMEM_DEVICE, else the first ivshmem PCI device (1af4:1110)\n"
               "  --transport socket     the server's socket: --server PATH, else NPT_SERVER\n"
               "  --size WxH             render target (default 400x400)\n"
               "  --frames N             frames rendered; the last one is read back (default 1)\n"
               "  --pause-mid-frame      stop forever in the middle of the last frame (kill tests)\n"
               "  --output FILE          the last frame's pixels: width*height*4 bytes, RGBA rows top down\n");
  std::exit(2);
}

}

int main(int argc, char** argv) {
  std::string transportName = "ivshmem", device, server, output;
  UINT width = 400, height = 400;
  uint32_t frames = 1;
  bool pauseMidFrame = false;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc)
        usage();
      return argv[++i];
    };
    if (a == "--transport") transportName = value();
    else if (a == "--device") device = value();
    else if (a == "--server") server = value();
    else if (a == "--output") output = value();
    else if (a == "--frames") frames = uint32_t(std::strtoul(value(), nullptr, 10));
    else if (a == "--pause-mid-frame") pauseMidFrame = true;
    else if (a == "--size") {
      if (std::sscanf(value(), "%ux%u", &width, &height) != 2 || width < kGrid || height < kGrid || width > 4096 ||
          height > 4096)
        usage();
    } else usage();
  }
  if (output.empty() || frames == 0 || (transportName != "ivshmem" && transportName != "socket"))
    usage();

  transport::Geometry g;
  g.ring_count = 1;
  g.ring_size = 4u << 20;
  g.reply_slot_count = 8;
  g.reply_slot_size = 1u << 20;
  g.push_slot_count = 64;
  g.fence_count = 16;
  g.bulk_size = 32ull << 20;
  transport::ProtocolIdentity identity;
  identity.major = protocol::kProtocolMajor;
  identity.minor = protocol::kProtocolMinor;
  identity.opcode_count = protocol::kOpcodeCount;
  identity.registry_hash = protocol::kRegistryHash;
  std::unique_ptr<transport::GuestConnection> guest;
  std::string error, address;
  transport::Status s;
  if (transportName == "ivshmem") {
    const char* env = std::getenv("NPT_IVSHMEM_DEVICE");
    address = !device.empty() ? device : env && *env ? env : transport::GuestConnection::find_ivshmem_device();
    if (address.empty())
      die(2, "no ivshmem device (1af4:1110) found; give --device PATH");
    s = transport::GuestConnection::connect_device(address.c_str(), g, &guest, &error, identity);
  } else {
    const char* env = std::getenv("NPT_SERVER");
    address = !server.empty() ? server : env ? env : "";
    if (address.empty())
      die(2, "--transport socket needs --server PATH or NPT_SERVER");
#if defined(_WIN32)
    // As the guest runtime: a PE program reaches the server's rendezvous file (through Z:).
    address = guest::serverRendezvousPath(address.c_str());
#endif
    s = transport::GuestConnection::connect(address.c_str(), g, &guest, &error, identity);
  }
  if (s != transport::kOk)
    die(2, ("cannot connect through " + address).c_str(), error);
  std::fprintf(stderr, "neptune-vm-frame: connected through %s (worker %u, wake mode %s)\n", address.c_str(),
               guest->worker_pid(), guest->wake_mode());

  Frame frame(std::move(guest), width, height);
  frame.create();
  for (uint32_t i = 0; i + 1 < frames; i++)
    frame.render(i, false);
  frame.render(frames - 1, pauseMidFrame);
  const std::vector<uint8_t> pixels = frame.readBack();
  FILE* f = std::fopen(output.c_str(), "wb");
  if (!f || std::fwrite(pixels.data(), 1, pixels.size(), f) != pixels.size() || std::fclose(f) != 0)
    die(2, "cannot write", output);
  const uint32_t wrong = frame.wrongCells(pixels, frames - 1);
  if (wrong) {
    std::fprintf(stderr, "neptune-vm-frame: %u of %u cells have the wrong colour\n", wrong, kGrid * kGrid);
    return 3;
  }
  std::fprintf(stderr, "neptune-vm-frame: %ux%u frame %u written to %s; all %u cells as expected\n", width, height,
               frames - 1, output.c_str(), kGrid * kGrid);
  return 0;
}
