// SPDX-License-Identifier: MIT
// many_draws' frame on a real D3D11 backend (DXVK-native on a GPU), three ways, rounds
// alternating, in one process (bench/gpu/README.md):
//
//   direct   the D3D11 calls on a device of the backend: what the program costs natively
//   neptune  the same calls encoded with the generated guest encoders, decoded by the host's
//            StreamDecoder, validated and executed by the Executor on its own device of the
//            same backend: encode + decode + validate + execute on one thread, every frame
//   replay   the host side alone: one frame's command bytes, encoded once, decoded,
//            validated and executed every frame (what a neptune-server worker does with a
//            batch the transport copied out of the ring)
//   fence    as neptune, but the frame ends with ID3D11DeviceContext4::Signal + Flush
//            instead of the readback, and the thread polls the executor as an idle
//            neptune-server worker does (every 200 us) until the fence's guest slot shows
//            the value: the executor's emulated fence on the real backend
//   server   (with --server PATH) the frame sent by a guest connection through the
//            transport's ring to a neptune-server started here, whose worker process decodes,
//            validates and executes it on its backend; the readback is a Map call answered
//            through the reply slot: the whole host path of a PE guest, without the guest
//            DLLs and Wine (server_frame.cpp)
//
// The frame (samples/many_draws, samples/common/quad_grid.cpp): a 100x100 grid of quads,
// one DrawIndexed each, the pixel shader switched at every draw, the row colour written
// with UpdateSubresource per row: 10,000 draws, 20,109 commands. Each frame ends by
// copying one pixel into a staging texture and mapping it, so a frame's time includes the
// GPU finishing it; that pixel is checked against the row colour.
//
// Shaders come from the repository's DXBC assembler (the host has no HLSL compiler).
// The ring, the second process and the wakeups are not in these figures: bench/transport
// measures those.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dxbc/asm/assembler.h"
#include "npt/backends/backend.h"
#include "bench_clock.h"
#include "npt/executor/in_memory_session.h"
#include "frame_commands.h"
#include "server_frame.h"
#include "npt_encode.h"

namespace {

using namespace npt::bench::gpu;
using npt::protocol::ObjectId;
using npt::protocol::Payload;

std::vector<uint8_t> assemble(const char* text, const char* name) {
  std::vector<uint8_t> container;
  dxbc::sm::AssemblyResult result = dxbc::sm::assembleContainer(text, container);
  if (!result.ok) {
    std::fprintf(stderr, "assembling %s: %s\n", name, result.error.format(name).c_str());
    std::exit(2);
  }
  return container;
}

struct Shaders {
  std::vector<uint8_t> vs = assemble(kVertexShader, "vs");
  std::vector<uint8_t> psPlain = assemble(kPixelShaderPlain, "ps_plain");
  std::vector<uint8_t> psSwizzled = assemble(kPixelShaderSwizzled, "ps_swizzled");
};

struct Geometry {
  std::vector<float> vertices;   // four vertices per cell; a draw picks its cell with BaseVertexLocation
  uint16_t indices[6] = {0, 1, 2, 2, 1, 3};
  Geometry() {
    const float cell = 2.0f / kGrid;
    for (uint32_t row = 0; row < kGrid; row++)
      for (uint32_t column = 0; column < kGrid; column++) {
        float x0 = -1.0f + cell * float(column), x1 = x0 + cell;
        float y0 = 1.0f - cell * float(row), y1 = y0 - cell;
        for (float v : {x0, y0, x1, y0, x0, y1, x1, y1}) vertices.push_back(v);
      }
  }
};

uint32_t expectedPixelOfCell00(uint32_t frame) {
  float c[4];
  rowColour(0, frame, c);
  auto unorm = [](float v) { return uint32_t(std::lround(v * 255.0f)); };
  return unorm(c[0]) | unorm(c[1]) << 8 | unorm(c[2]) << 16 | unorm(c[3]) << 24;
}

bool closeTo(uint32_t a, uint32_t b) {
  for (int shift = 0; shift < 32; shift += 8)
    if (std::abs(int((a >> shift) & 0xff) - int((b >> shift) & 0xff)) > 1) return false;
  return true;
}

const D3D11_INPUT_ELEMENT_DESC kElement = {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0};

void check(HRESULT hr, const char* what) {
  if (FAILED(hr)) {
    std::fprintf(stderr, "%s failed: 0x%08x\n", what, unsigned(hr));
    std::exit(2);
  }
}

// The sample on the backend's device, called directly.
class DirectFrame {
public:
  DirectFrame(npt::backends::Backend& backend, const Shaders& shaders, const Geometry& geometry, UINT width,
              UINT height)
  : m_width(width), m_height(height) {
    npt::backends::DeviceObjects objects;
    npt::backends::BackendStatus status = backend.createDevice(npt::backends::DeviceRequest{}, objects);
    if (!status.ok()) {
      std::fprintf(stderr, "direct device: %s\n", status.message.c_str());
      std::exit(2);
    }
    m_device = objects.device;
    m_context = objects.immediateContext;
    check(m_device->CreateVertexShader(shaders.vs.data(), shaders.vs.size(), nullptr, &m_vs), "CreateVertexShader");
    check(m_device->CreatePixelShader(shaders.psPlain.data(), shaders.psPlain.size(), nullptr, &m_psPlain),
          "CreatePixelShader");
    check(m_device->CreatePixelShader(shaders.psSwizzled.data(), shaders.psSwizzled.size(), nullptr, &m_psSwizzled),
          "CreatePixelShader");
    check(m_device->CreateInputLayout(&kElement, 1, shaders.vs.data(), shaders.vs.size(), &m_layout),
          "CreateInputLayout");
    D3D11_BUFFER_DESC vbDesc = {UINT(geometry.vertices.size() * sizeof(float)), D3D11_USAGE_IMMUTABLE,
                                D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    D3D11_SUBRESOURCE_DATA vbData = {geometry.vertices.data(), 0, 0};
    check(m_device->CreateBuffer(&vbDesc, &vbData, &m_vertices), "CreateBuffer(vertices)");
    D3D11_BUFFER_DESC ibDesc = {sizeof(geometry.indices), D3D11_USAGE_IMMUTABLE, D3D11_BIND_INDEX_BUFFER, 0, 0, 0};
    D3D11_SUBRESOURCE_DATA ibData = {geometry.indices, 0, 0};
    check(m_device->CreateBuffer(&ibDesc, &ibData, &m_indices), "CreateBuffer(indices)");
    D3D11_BUFFER_DESC cbDesc = {16, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
    check(m_device->CreateBuffer(&cbDesc, nullptr, &m_rowConstants), "CreateBuffer(constants)");
    D3D11_TEXTURE2D_DESC rtDesc = textureDesc(width, height, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
    check(m_device->CreateTexture2D(&rtDesc, nullptr, &m_target), "CreateTexture2D(target)");
    check(m_device->CreateRenderTargetView(m_target, nullptr, &m_rtv), "CreateRenderTargetView");
    D3D11_TEXTURE2D_DESC stDesc = textureDesc(1, 1, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
    check(m_device->CreateTexture2D(&stDesc, nullptr, &m_staging), "CreateTexture2D(staging)");
  }
  ~DirectFrame() {
    IUnknown* objects[] = {m_staging, m_rtv, m_target, m_rowConstants, m_indices, m_vertices,
                           m_layout, m_psSwizzled, m_psPlain, m_vs, m_context, m_device};
    for (IUnknown* object : objects)
      if (object) object->Release();
  }

  // Renders frame `frame`; returns the pixel of cell (0,0) after the GPU finished.
  uint32_t render(uint32_t frame) {
    const float clear[4] = {0, 0, 0, 1};
    D3D11_VIEWPORT viewport = {0, 0, float(m_width), float(m_height), 0, 1};
    UINT stride = 8, offset = 0;
    m_context->ClearRenderTargetView(m_rtv, clear);
    m_context->OMSetRenderTargets(1, &m_rtv, nullptr);
    m_context->RSSetViewports(1, &viewport);
    m_context->IASetInputLayout(m_layout);
    m_context->IASetVertexBuffers(0, 1, &m_vertices, &stride, &offset);
    m_context->IASetIndexBuffer(m_indices, DXGI_FORMAT_R16_UINT, 0);
    m_context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    m_context->VSSetShader(m_vs, nullptr, 0);
    m_context->PSSetConstantBuffers(0, 1, &m_rowConstants);
    for (uint32_t row = 0; row < kGrid; row++) {
      float colour[4];
      rowColour(row, frame, colour);
      m_context->UpdateSubresource(m_rowConstants, 0, nullptr, colour, 0, 0);
      for (uint32_t column = 0; column < kGrid; column++) {
        m_context->PSSetShader(column & 1 ? m_psSwizzled : m_psPlain, nullptr, 0);
        m_context->DrawIndexed(6, 0, INT((row * kGrid + column) * 4));
      }
    }
    D3D11_BOX box = checkedPixelBox(m_width, m_height);
    m_context->CopySubresourceRegion(m_staging, 0, 0, 0, 0, m_target, 0, &box);
    D3D11_MAPPED_SUBRESOURCE mapped = {};
    check(m_context->Map(m_staging, 0, D3D11_MAP_READ, 0, &mapped), "Map");
    uint32_t pixel = 0;
    std::memcpy(&pixel, mapped.pData, 4);
    m_context->Unmap(m_staging, 0);
    return pixel;
  }

private:
  UINT m_width, m_height;
  ID3D11Device* m_device = nullptr;
  ID3D11DeviceContext* m_context = nullptr;
  ID3D11VertexShader* m_vs = nullptr;
  ID3D11PixelShader* m_psPlain = nullptr;
  ID3D11PixelShader* m_psSwizzled = nullptr;
  ID3D11InputLayout* m_layout = nullptr;
  ID3D11Buffer* m_vertices = nullptr;
  ID3D11Buffer* m_indices = nullptr;
  ID3D11Buffer* m_rowConstants = nullptr;
  ID3D11Texture2D* m_target = nullptr;
  ID3D11RenderTargetView* m_rtv = nullptr;
  ID3D11Texture2D* m_staging = nullptr;
};

// The sample through the wire: generated encoders -> StreamDecoder -> Executor (validation,
// object tables) -> the backend, in the executor's in-memory session (the set-up of the
// executor's tests: a vector plays the context's bulk memory, region 0).
class NeptuneFrame {
public:
  NeptuneFrame(const char* backendName, const Shaders& shaders, const Geometry& geometry, UINT width, UINT height)
  : m_width(width), m_height(height), m_session(sessionOptions(backendName)), m_writer(m_session.w()),
    m_bulk(m_session.bulk()), m_executor(m_session.executor()) {
    using namespace npt::protocol;
    m_device = next();
    m_context = next();
    encode_D3D11CreateDevice(m_writer, 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION, m_device,
                             m_context);
    run();
    HRESULT hr = E_FAIL;
    D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL(0);
    if (decodeReply_D3D11CreateDevice(m_session.replies().data(), m_session.replies().size(), &hr, &level) != ErrorCode::Ok || FAILED(hr)) {
      std::fprintf(stderr, "neptune device: D3D11CreateDevice through the executor failed (0x%08x)\n", unsigned(hr));
      std::exit(2);
    }
    m_vs = next();
    encode_ID3D11Device_CreateVertexShader(m_writer, m_device, Payload::inlineBytes(shaders.vs.data(), uint32_t(shaders.vs.size())),
                                           0, m_vs);
    m_psPlain = next();
    encode_ID3D11Device_CreatePixelShader(m_writer, m_device,
                                          Payload::inlineBytes(shaders.psPlain.data(), uint32_t(shaders.psPlain.size())), 0,
                                          m_psPlain);
    m_psSwizzled = next();
    encode_ID3D11Device_CreatePixelShader(
        m_writer, m_device, Payload::inlineBytes(shaders.psSwizzled.data(), uint32_t(shaders.psSwizzled.size())), 0,
        m_psSwizzled);
    m_layout = next();
    encode_ID3D11Device_CreateInputLayout(m_writer, m_device, &kElement, 1,
                                          Payload::inlineBytes(shaders.vs.data(), uint32_t(shaders.vs.size())), m_layout);
    // Initial data through bulk memory, as the guest sends anything large.
    const uint32_t vbBytes = uint32_t(geometry.vertices.size() * sizeof(float));
    std::memcpy(m_bulk.data(), geometry.vertices.data(), vbBytes);
    std::memcpy(m_bulk.data() + vbBytes, geometry.indices, sizeof(geometry.indices));
    D3D11_BUFFER_DESC vbDesc = {vbBytes, D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    NPT_SUBRESOURCE_DATA vbData = {{0, 0, vbBytes}, 0, 0};
    m_vertices = next();
    encode_ID3D11Device_CreateBuffer(m_writer, m_device, &vbDesc, 1, &vbData, m_vertices);
    D3D11_BUFFER_DESC ibDesc = {sizeof(geometry.indices), D3D11_USAGE_IMMUTABLE, D3D11_BIND_INDEX_BUFFER, 0, 0, 0};
    NPT_SUBRESOURCE_DATA ibData = {{0, vbBytes, sizeof(geometry.indices)}, 0, 0};
    m_indices = next();
    encode_ID3D11Device_CreateBuffer(m_writer, m_device, &ibDesc, 1, &ibData, m_indices);
    D3D11_BUFFER_DESC cbDesc = {16, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
    m_rowConstants = next();
    encode_ID3D11Device_CreateBuffer(m_writer, m_device, &cbDesc, 0, nullptr, m_rowConstants);
    D3D11_TEXTURE2D_DESC rtDesc = textureDesc(width, height, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0);
    m_target = next();
    encode_ID3D11Device_CreateTexture2D(m_writer, m_device, &rtDesc, 0, nullptr, m_target);
    m_rtv = next();
    encode_ID3D11Device_CreateRenderTargetView(m_writer, m_device, m_target, nullptr, m_rtv);
    D3D11_TEXTURE2D_DESC stDesc = textureDesc(1, 1, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
    m_staging = next();
    encode_ID3D11Device_CreateTexture2D(m_writer, m_device, &stDesc, 0, nullptr, m_staging);
    run();
    m_fence = next();
    encode_ID3D11Device5_CreateFence(m_writer, m_device, 0, 0, kFenceSlot, m_fence);
    run();
    if (decodeReply_ID3D11Device5_CreateFence(m_session.replies().data(), m_session.replies().size(), &hr) != ErrorCode::Ok || FAILED(hr)) {
      std::fprintf(stderr, "neptune setup: CreateFence failed (0x%08x)\n", unsigned(hr));
      std::exit(2);
    }
    for (ObjectId id : {m_vs, m_psPlain, m_psSwizzled, m_layout, m_vertices, m_indices, m_rowConstants, m_target, m_rtv,
                        m_staging})
      if (!m_executor.backendObject(id)) {
        std::fprintf(stderr, "neptune setup: object %u was not created (dropped calls: %llu)\n", id,
                     (unsigned long long)m_executor.droppedCalls());
        std::exit(2);
      }
  }

  void encodeFrame(uint32_t frame) {
    FrameObjects o;
    o.context = m_context;
    o.rtv = m_rtv;
    o.layout = m_layout;
    o.vertices = m_vertices;
    o.indices = m_indices;
    o.vs = m_vs;
    o.psPlain = m_psPlain;
    o.psSwizzled = m_psSwizzled;
    o.rowConstants = m_rowConstants;
    npt::bench::gpu::encodeFrame(m_writer, o, frame, m_width, m_height);
  }

  // neptune: encode the frame and its readback, decode and execute; the pixel of cell (0,0).
  uint32_t render(uint32_t frame) {
    encodeFrame(frame);
    return readBack();
  }

  // replay: the bytes of one frame recorded once, executed again each call.
  void record(uint32_t frame) {
    m_writer.clear();
    encodeFrame(frame);
    m_recorded = m_session.writtenCommands();
    m_writer.clear();
  }
  uint32_t replay() {
    check(m_session.runRecorded(m_recorded.data(), m_recorded.size()));
    return readBack();
  }
  // fence: the frame, Signal + Flush, then the executor polled until the slot shows the
  // value. Returns the number of polls it took.
  uint32_t renderFenced(uint32_t frame) {
    using namespace npt::protocol;
    encodeFrame(frame);
    const uint64_t value = ++m_fenceValue;
    encode_ID3D11DeviceContext4_Signal(m_writer, m_context, m_fence, value);
    encode_ID3D11DeviceContext_Flush(m_writer, m_context);
    run();
    // As host/server/worker.cpp's idle worker with pending fence work: poll, then 200 us.
    uint32_t polls = 0;
    for (;;) {
      m_executor.pollQueries();
      polls++;
      if (fenceSlotValue() >= value) break;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    if (fenceSlotValue() != value) {
      std::fprintf(stderr, "fence: slot shows %llu after signalling %llu\n", (unsigned long long)fenceSlotValue(),
                   (unsigned long long)value);
      std::exit(2);
    }
    return polls;
  }
  size_t recordedBytes() const { return m_recorded.size(); }
  uint64_t droppedCalls() const { return m_executor.droppedCalls(); }
  bool fatal() const { return m_executor.isFatal(); }

private:
  ObjectId next() { return m_nextId++; }

  void check(const npt::protocol::DecodeResult& result) {
    if (result.code != npt::protocol::ErrorCode::Ok || m_executor.isFatal()) {
      std::fprintf(stderr, "neptune: decode %s at %zu; fatal: %s\n", npt::protocol::errorName(result.code),
                   size_t(result.offset), m_executor.fatalError().message.c_str());
      std::exit(2);
    }
  }
  void run() { check(m_session.run()); }
  // What the executor last wrote into the guest's fence slot (0: nothing yet).
  uint64_t fenceSlotValue() {
    const std::vector<uint64_t>& writes = m_session.fenceSlotWrites(kFenceSlot);
    return writes.empty() ? 0 : writes.back();
  }
  static npt::executor::InMemorySessionOptions sessionOptions(const char* backendName) {
    npt::executor::InMemorySessionOptions options;
    options.backend = backendName;
    options.commandBytes = 16u << 20;   // the whole frame's 324,576 bytes and its set-up
    options.echoLog = true;
    return options;
  }
  // Copies the pixel of cell (0,0), maps it (the sync path: waits for the GPU), unmaps.
  uint32_t readBack() {
    using namespace npt::protocol;
    D3D11_BOX box = checkedPixelBox(m_width, m_height);
    encode_ID3D11DeviceContext_CopySubresourceRegion(m_writer, m_context, m_staging, 0, 0, 0, 0, m_target, 0, &box);
    encode_ID3D11DeviceContext_Map(m_writer, m_context, m_staging, 0, D3D11_MAP_READ, 0);
    run();
    HRESULT hr = E_FAIL;
    UINT rowPitch = 0, depthPitch = 0;
    Payload data;
    uint32_t pixel = 0;
    if (decodeReply_ID3D11DeviceContext_Map(m_session.replies().data(), m_session.replies().size(), &hr, &rowPitch, &depthPitch, &data) !=
            ErrorCode::Ok ||
        FAILED(hr) || data.size < 4) {
      std::fprintf(stderr, "neptune: Map failed (0x%08x)\n", unsigned(hr));
      std::exit(2);
    }
    std::memcpy(&pixel, data.isBulk ? m_bulk.data() + data.bulk.offset : data.data, 4);
    encode_ID3D11DeviceContext_Unmap(m_writer, m_context, m_staging, 0, D3D11_MAP_READ, 0, nullptr, Payload::none());
    run();
    return pixel;
  }

  UINT m_width, m_height;
  npt::executor::InMemorySession m_session;
  npt::protocol::CommandWriter& m_writer;
  std::vector<uint8_t>& m_bulk;
  npt::executor::Executor& m_executor;
  std::vector<uint8_t> m_recorded;
  static constexpr uint32_t kFenceSlot = 0;
  uint64_t m_fenceValue = 0;       // the last value signalled
  ObjectId m_fence = 0;
  ObjectId m_nextId = 1;
  ObjectId m_device = 0, m_context = 0, m_vs = 0, m_psPlain = 0, m_psSwizzled = 0, m_layout = 0, m_vertices = 0,
           m_indices = 0, m_rowConstants = 0, m_target = 0, m_rtv = 0, m_staging = 0;
};

struct ModeResult {
  const char* name;
  std::vector<double> roundMedianMs;     // wall time per frame, median of each round
  std::vector<double> roundCpuMs;        // process CPU time per frame (every thread: DXVK's too), mean of each round
  std::vector<double> roundThreadCpuMs;  // the calling thread's CPU time per frame, mean of each round: the
                                         // application's D3D11 calls (direct) or encode + decode + validate +
                                         // the executor's D3D11 calls (neptune), without DXVK's own threads
  uint32_t wrongPixels = 0;
};

}  // namespace

int main(int argc, char** argv) {
  uint32_t frames = 30, rounds = 5, width = 256, height = 256, warmup = 3;
  const char* backendName = "dxvk";
  std::string serverBinary;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", arg.c_str());
        std::exit(1);
      }
      return argv[++i];
    };
    if (arg == "--frames") frames = uint32_t(std::atoi(value()));
    else if (arg == "--rounds") rounds = uint32_t(std::atoi(value()));
    else if (arg == "--warmup") warmup = uint32_t(std::atoi(value()));
    else if (arg == "--backend") backendName = value();
    else if (arg == "--server") serverBinary = value();
    else if (arg == "--size") {
      if (std::sscanf(value(), "%ux%u", &width, &height) != 2) {
        std::fprintf(stderr, "--size WxH\n");
        return 1;
      }
    } else {
      std::fprintf(stderr,
                   "usage: %s [--size WxH] [--frames N] [--rounds N] [--warmup N] [--backend dxvk] [--server PATH]\n"
                   "many_draws' frame directly on the backend, through the executor (encode + decode + execute), and\n"
                   "replayed from recorded bytes (decode + execute); rounds alternate; medians and ratios.\n",
                   argv[0]);
      return 1;
    }
  }
  if (width < 2 * kGrid || height < 2 * kGrid) {
    std::fprintf(stderr, "--size must be at least 200x200 (one checked pixel inside a cell)\n");
    return 1;
  }

  Shaders shaders;
  Geometry geometry;
  std::unique_ptr<npt::backends::Backend> backend;
  npt::backends::BackendStatus status = npt::backends::openBackend(backendName, backend);
  if (!status.ok()) {
    std::fprintf(stderr, "backend: %s\n", status.message.c_str());
    return 2;
  }
  DirectFrame direct(*backend, shaders, geometry, width, height);
  NeptuneFrame neptune(backendName, shaders, geometry, width, height);
  neptune.record(0);
  std::unique_ptr<ServerFrame> server;
  if (!serverBinary.empty()) {
    setenv("NPT_BACKEND", backendName, 1);   // the server's workers open the same backend
    server = std::make_unique<ServerFrame>(serverBinary, shaders.vs, shaders.psPlain, shaders.psSwizzled,
                                           geometry.vertices, geometry.indices, width, height);
  }

  const int kModes = server ? 5 : 4;
  ModeResult results[5] = {{"direct", {}, {}, {}}, {"neptune", {}, {}, {}}, {"replay", {}, {}, {}},
                           {"fence", {}, {}, {}}, {"server", {}, {}, {}}};
  uint64_t fencePolls = 0, fencedFrames = 0;
  // The pixel of cell (0,0) after the frame; the fence mode reads nothing back and
  // answers the expected pixel (its check is the fence slot's value).
  auto renderOnce = [&](int mode, uint32_t frame) -> uint32_t {
    switch (mode) {
      case 0: return direct.render(frame);
      case 1: return neptune.render(frame);
      case 2: return neptune.replay();
      case 4: return server->render(frame);
      default:
        fencePolls += neptune.renderFenced(frame);
        fencedFrames++;
        return expectedPixelOfCell00(frame);
    }
  };
  for (int mode = 0; mode < kModes; mode++)   // pipelines compiled, memory touched
    for (uint32_t f = 0; f < warmup; f++) renderOnce(mode, f);
  fencePolls = fencedFrames = 0;

  for (uint32_t round = 0; round < rounds; round++) {
    for (int step = 0; step < kModes; step++) {
      int mode = int((step + round) % kModes);   // each mode in each position in turn
      std::vector<double> times;
      double cpuStart = nowMs(CLOCK_PROCESS_CPUTIME_ID);
      double threadStart = nowMs(CLOCK_THREAD_CPUTIME_ID);
      for (uint32_t f = 0; f < frames; f++) {
        uint32_t frame = mode == 2 ? 0 : f;
        double start = nowMs(CLOCK_MONOTONIC);
        uint32_t pixel = renderOnce(mode, frame);
        times.push_back(nowMs(CLOCK_MONOTONIC) - start);
        if (!closeTo(pixel, expectedPixelOfCell00(frame))) results[mode].wrongPixels++;
      }
      results[mode].roundCpuMs.push_back((nowMs(CLOCK_PROCESS_CPUTIME_ID) - cpuStart) / frames);
      results[mode].roundThreadCpuMs.push_back((nowMs(CLOCK_THREAD_CPUTIME_ID) - threadStart) / frames);
      results[mode].roundMedianMs.push_back(median(times));
    }
  }

  std::printf("many_draws frame (%u draws, %u commands + the readback), %ux%u, backend %s, %u rounds x %u frames (%u warm-up)\n",
              kGrid * kGrid, kGrid * kGrid * 2 + kGrid + 9, width, height, backendName, rounds, frames, warmup);
  std::printf("recorded frame: %zu bytes on the wire\n", neptune.recordedBytes());
  for (int mode = 0; mode < kModes; mode++) {
    const ModeResult& r = results[mode];
    std::printf("%-8s median %8.3f ms/frame  calling thread CPU %7.3f ms/frame  process CPU %7.3f ms/frame  "
                "wrong pixels %u  rounds:",
                r.name, median(r.roundMedianMs), median(r.roundThreadCpuMs), median(r.roundCpuMs), r.wrongPixels);
    for (double ms : r.roundMedianMs) std::printf(" %.3f", ms);
    std::printf("\n");
  }
  double d = median(results[0].roundMedianMs);
  std::printf("ratio neptune / direct %.3f   replay / direct %.3f   fence / neptune %.3f\n",
              median(results[1].roundMedianMs) / d, median(results[2].roundMedianMs) / d,
              median(results[3].roundMedianMs) / median(results[1].roundMedianMs));
  if (server)
    std::printf("ratio server / direct %.3f   server / neptune %.3f (server: the worker process's CPU is not in "
                "process CPU; calling thread = the guest's encoding and waiting)\n",
                median(results[4].roundMedianMs) / d, median(results[4].roundMedianMs) / median(results[1].roundMedianMs));
  std::printf("fence: %.1f executor polls per frame until the slot showed the value\n",
              fencedFrames ? double(fencePolls) / double(fencedFrames) : 0.0);
  double t = median(results[0].roundThreadCpuMs);
  std::printf("calling thread CPU ratio neptune / direct %.3f   replay / direct %.3f\n",
              median(results[1].roundThreadCpuMs) / t, median(results[2].roundThreadCpuMs) / t);
  std::printf("executor dropped calls %llu, fatal %s\n", (unsigned long long)neptune.droppedCalls(),
              neptune.fatal() ? "yes" : "no");
  uint32_t wrong = 0;
  for (const ModeResult& r : results) wrong += r.wrongPixels;
  return wrong || neptune.droppedCalls() || neptune.fatal() ? 3 : 0;
}
