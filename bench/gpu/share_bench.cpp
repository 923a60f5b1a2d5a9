// SPDX-License-Identifier: MIT
// A texture shared between two contexts on a real backend (bench/gpu/README.md),
// two ways, rounds alternating, in one process (two executors of one sharing instance, as
// neptune-server's contexts are):
//
//   local   one context clears a WxH render target and reads one of its pixels back
//           (1-pixel copy + Map): the baseline
//   shared  a producer context clears a WxH shared texture and flushes; a compositor
//           context that opened the texture by its shared handle copies one pixel of it
//           and maps it. With a backend that shares nothing natively (DXVK v2.2 here) the
//           producer's Flush copies the written texture into the sharing section and the
//           compositor's next batch copies it in (host/sharing/README.md): the CPU copies
//           per frame are counted from the registry
//
// Every frame's colour differs; a pixel that is not this frame's counts as stale.
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_clock.h"
#include "npt/executor/in_memory_session.h"
#include "npt/sharing/registry.h"
#include "npt_encode.h"

namespace {

using npt::protocol::ObjectId;
using npt::protocol::Payload;

// One context through the wire: encoders -> StreamDecoder -> Executor in the executor's
// in-memory session (a vector as its bulk memory, as in the executor's tests).
class WireContext {
public:
  explicit WireContext(const char* backend) : m_session(sessionOptions(backend)) {
    HRESULT hr = m_session.createDevice(&device, &context);
    if (FAILED(hr)) fail("D3D11CreateDevice through the executor");
  }

  npt::protocol::CommandWriter& w() { return m_session.w(); }
  const std::vector<uint8_t>& replies() const { return m_session.replies(); }
  ObjectId next() { return m_session.newId(); }
  // Decodes and executes what the writer holds, then what the server does after a batch.
  void run() {
    npt::protocol::DecodeResult result = m_session.run();
    if (result.code != npt::protocol::ErrorCode::Ok || m_session.executor().isFatal()) fail("a batch");
    m_session.executor().pollQueries();
  }
  void fail(const char* what) {
    std::fprintf(stderr, "%s failed (fatal: %s)\n", what, m_session.executor().fatalError().message.c_str());
    std::exit(2);
  }

  ObjectId texture(UINT width, UINT height, D3D11_USAGE usage, UINT bind, UINT cpu, UINT misc) {
    D3D11_TEXTURE2D_DESC desc = {width, height, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, usage, bind, cpu, misc};
    const ObjectId id = next();
    npt::protocol::encode_ID3D11Device_CreateTexture2D(w(), device, &desc, 0, nullptr, id);
    run();
    if (!m_session.executor().backendObject(id)) fail("CreateTexture2D");
    return id;
  }
  ObjectId renderTarget(ObjectId resource) {
    const ObjectId id = next();
    npt::protocol::encode_ID3D11Device_CreateRenderTargetView(w(), device, resource, nullptr, id);
    run();
    return id;
  }
  // The pixel at (x, y) of `source`, through a 1-pixel copy into `staging` and a Map.
  uint32_t pixel(ObjectId source, ObjectId staging, UINT x, UINT y) {
    using namespace npt::protocol;
    D3D11_BOX box = {x, y, 0, x + 1, y + 1, 1};
    encode_ID3D11DeviceContext_CopySubresourceRegion(w(), context, staging, 0, 0, 0, 0, source, 0, &box);
    // map() adds the Map to the writer's batch: the copy and the Map run as one batch.
    std::vector<uint8_t> bytes;
    const HRESULT hr = m_session.map(context, staging, 0, D3D11_MAP_READ, bytes);
    if (FAILED(hr) || bytes.size() < 4 || m_session.executor().isFatal()) fail("Map");
    m_session.executor().pollQueries();
    uint32_t value = 0;
    std::memcpy(&value, bytes.data(), 4);
    encode_ID3D11DeviceContext_Unmap(w(), context, staging, 0, D3D11_MAP_READ, 0, nullptr, Payload::none());
    run();
    return value;
  }

  ObjectId device = 0, context = 0;

private:
  static npt::executor::InMemorySessionOptions sessionOptions(const char* backend) {
    npt::executor::InMemorySessionOptions options;
    options.backend = backend;
    options.commandBytes = 1u << 20;
    options.bulkBytes = 64u << 20;   // a 3840x2160 RGBA8 readback fits
    options.echoLog = true;
    return options;
  }

  npt::executor::InMemorySession m_session;
};

void colourOf(uint32_t frame, float out[4]) {
  out[0] = float(frame % 7) / 6.0f;
  out[1] = float(frame % 5) / 4.0f;
  out[2] = float(frame % 3) / 2.0f;
  out[3] = 1.0f;
}

uint32_t rgba(const float c[4]) {
  auto unorm = [](float v) { return uint32_t(std::lround(v * 255.0f)); };
  return unorm(c[0]) | unorm(c[1]) << 8 | unorm(c[2]) << 16 | unorm(c[3]) << 24;
}

// Unorm conversion may round a half either way: one step per channel is the same colour.
bool closeTo(uint32_t a, uint32_t b) {
  for (int shift = 0; shift < 32; shift += 8)
    if (std::abs(int((a >> shift) & 0xff) - int((b >> shift) & 0xff)) > 1) return false;
  return true;
}

using npt::bench::gpu::median;
using npt::bench::gpu::nowMs;

}  // namespace

int main(int argc, char** argv) {
  uint32_t frames = 60, rounds = 7, width = 1920, height = 1080, warmup = 3;
  const char* backend = "dxvk";
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!value) {
      std::fprintf(stderr, "usage: %s [--size WxH] [--frames N] [--rounds N] [--warmup N] [--backend dxvk]\n", argv[0]);
      return 1;
    }
    i++;
    if (arg == "--frames") frames = uint32_t(std::atoi(value));
    else if (arg == "--rounds") rounds = uint32_t(std::atoi(value));
    else if (arg == "--warmup") warmup = uint32_t(std::atoi(value));
    else if (arg == "--backend") backend = value;
    else if (arg != "--size" || std::sscanf(value, "%ux%u", &width, &height) != 2) {
      std::fprintf(stderr, "bad argument %s\n", arg.c_str());
      return 1;
    }
  }

  WireContext producer(backend), compositor(backend);
  std::string error;
  std::unique_ptr<npt::sharing::Registry> registry =
      npt::sharing::Registry::open(npt::sharing::Registry::instanceFromEnvironment(), &error);
  if (!registry) {
    std::fprintf(stderr, "sharing registry: %s\n", error.c_str());
    return 2;
  }
  using namespace npt::protocol;
  // local: a render target of the producer's own.
  const ObjectId localTarget = producer.texture(width, height, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0, 0);
  const ObjectId localView = producer.renderTarget(localTarget);
  const ObjectId producerStaging = producer.texture(1, 1, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0);
  // shared: the producer's shared texture, opened by the compositor through its handle.
  const ObjectId shared = producer.texture(width, height, D3D11_USAGE_DEFAULT,
                                           D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE, 0,
                                           D3D11_RESOURCE_MISC_SHARED);
  const ObjectId sharedView = producer.renderTarget(shared);
  encode_IDXGIResource_GetSharedHandle(producer.w(), shared);
  producer.run();
  HRESULT hr = E_FAIL;
  UINT64 handle = 0;
  if (decodeReply_IDXGIResource_GetSharedHandle(producer.replies().data(), producer.replies().size(), &hr, &handle) !=
          ErrorCode::Ok ||
      FAILED(hr))
    producer.fail("GetSharedHandle");
  const ObjectId opened = compositor.next();
  encode_ID3D11Device_OpenSharedResource(compositor.w(), compositor.device, handle, 0, __uuidof(ID3D11Texture2D), opened);
  compositor.run();
  const ObjectId compositorStaging = compositor.texture(1, 1, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0);

  // One frame of a mode; the pixel read back.
  auto frameOf = [&](bool sharedMode, uint32_t frame) -> uint32_t {
    float colour[4];
    colourOf(frame, colour);
    encode_ID3D11DeviceContext_ClearRenderTargetView(producer.w(), producer.context, sharedMode ? sharedView : localView,
                                                     colour);
    if (!sharedMode) {
      producer.run();
      return producer.pixel(localTarget, producerStaging, width / 2, height / 2);
    }
    encode_ID3D11DeviceContext_Flush(producer.w(), producer.context);
    producer.run();      // the Flush publishes what the producer wrote
    compositor.run();    // an empty batch: the compositor takes in what moved (its worker does so after each)
    return compositor.pixel(opened, compositorStaging, width / 2, height / 2);
  };
  for (uint32_t f = 0; f < warmup; f++) {
    frameOf(false, f);
    frameOf(true, f);
  }
  std::vector<double> roundMs[2];
  uint32_t stale[2] = {0, 0};
  uint64_t copies = 0, bytes = 0, sharedFrames = 0;
  for (uint32_t round = 0; round < rounds; round++) {
    for (int step = 0; step < 2; step++) {
      const bool sharedMode = (step + round) % 2 == 1;
      const npt::sharing::CopyCounters before = registry->copyCounters(handle);
      std::vector<double> times;
      for (uint32_t f = 0; f < frames; f++) {
        const uint32_t frame = round * frames + f + warmup;
        float colour[4];
        colourOf(frame, colour);
        const double start = nowMs();
        const uint32_t value = frameOf(sharedMode, frame);
        times.push_back(nowMs() - start);
        if (!closeTo(value, rgba(colour))) stale[sharedMode]++;
      }
      roundMs[sharedMode].push_back(median(times));
      if (sharedMode) {
        const npt::sharing::CopyCounters after = registry->copyCounters(handle);
        copies += after.copies - before.copies;
        bytes += after.bytes - before.bytes;
        sharedFrames += frames;
      }
    }
  }
  std::printf("shared texture %ux%u RGBA8, backend %s, %u rounds x %u frames (%u warm-up)\n", width, height, backend,
              rounds, frames, warmup);
  const char* names[2] = {"local", "shared"};
  for (int m = 0; m < 2; m++) {
    std::printf("%-7s median %8.3f ms/frame  stale %u  rounds:", names[m], median(roundMs[m]), stale[m]);
    for (double ms : roundMs[m]) std::printf(" %.3f", ms);
    std::printf("\n");
  }
  std::printf("ratio shared / local %.3f   CPU copies per shared frame %.2f (%.1f MB)\n",
              median(roundMs[1]) / median(roundMs[0]), sharedFrames ? double(copies) / double(sharedFrames) : 0.0,
              sharedFrames ? double(bytes) / double(sharedFrames) / 1e6 : 0.0);
  return stale[0] || stale[1] ? 3 : 0;
}
