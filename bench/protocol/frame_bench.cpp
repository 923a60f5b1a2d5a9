// Synthetic "game frame" through the Neptune codec: ~5,000 calls of state
// setters, constant-buffer updates and draws. Reports bytes/command, encode
// ns/command, decode+dispatch ns/command into a no-op backend, and memcpy of
// the same bytes as the floor, all in one run.

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <vector>

#include "npt/protocol/decoder.h"
#include "npt_dispatch.h"
#include "npt_encode.h"
#include "npt_ids.h"

using namespace npt::protocol;

namespace {

  constexpr ObjectId kContext = 1;
  constexpr ObjectId kFirstBuffer = 100;    // 64 constant/vertex/index buffers
  constexpr ObjectId kFirstSrv = 200;       // 64 shader resource views
  constexpr ObjectId kFirstSampler = 300;   // 4 samplers
  constexpr ObjectId kVs = 400, kPs = 401, kLayout = 402, kBlend = 403, kDepth = 404, kRaster = 405;

  void registerObjects(HandleTable& t) {
    t.create(kContext, Iface_ID3D11DeviceContext);
    for (ObjectId i = 0; i < 64; i++) t.create(kFirstBuffer + i, Iface_ID3D11Buffer);
    for (ObjectId i = 0; i < 64; i++) t.create(kFirstSrv + i, Iface_ID3D11ShaderResourceView);
    for (ObjectId i = 0; i < 4; i++) t.create(kFirstSampler + i, Iface_ID3D11SamplerState);
    t.create(kVs, Iface_ID3D11VertexShader);
    t.create(kPs, Iface_ID3D11PixelShader);
    t.create(kLayout, Iface_ID3D11InputLayout);
    t.create(kBlend, Iface_ID3D11BlendState);
    t.create(kDepth, Iface_ID3D11DepthStencilState);
    t.create(kRaster, Iface_ID3D11RasterizerState);
  }

  // 500 draws x 10 calls = 5,000 commands: per draw a material/state change
  // mix typical of a forward renderer.
  size_t encodeFrame(CommandWriter& w, size_t& commands) {
    w.clear();
    commands = 0;
    float constants[64] = { };
    for (uint32_t draw = 0; draw < 500; draw++) {
      ObjectId vb = kFirstBuffer + (draw % 16), ib = kFirstBuffer + 16 + (draw % 8);
      ObjectId cb = kFirstBuffer + 32 + (draw % 4);
      ObjectId srv[2] = { kFirstSrv + (draw % 64), kFirstSrv + ((draw + 7) % 64) };
      ObjectId sampler = kFirstSampler + (draw % 4);
      UINT stride = 32, offset = 0;
      constants[0] = float(draw);
      encode_ID3D11DeviceContext_IASetVertexBuffers(w, kContext, 0, 1, &vb, &stride, &offset);
      encode_ID3D11DeviceContext_IASetIndexBuffer(w, kContext, ib, DXGI_FORMAT_R16_UINT, 0);
      encode_ID3D11DeviceContext_VSSetShader(w, kContext, kVs, nullptr, 0);
      encode_ID3D11DeviceContext_PSSetShader(w, kContext, kPs, nullptr, 0);
      encode_ID3D11DeviceContext_UpdateSubresource(w, kContext, cb, 0, nullptr,
        Payload::inlineBytes(constants, sizeof(constants)), 0, 0);
      encode_ID3D11DeviceContext_VSSetConstantBuffers(w, kContext, 0, 1, &cb);
      encode_ID3D11DeviceContext_PSSetShaderResources(w, kContext, 0, 2, srv);
      encode_ID3D11DeviceContext_PSSetSamplers(w, kContext, 0, 1, &sampler);
      encode_ID3D11DeviceContext_OMSetDepthStencilState(w, kContext, kDepth, draw & 1);
      encode_ID3D11DeviceContext_DrawIndexed(w, kContext, 36 + draw, draw * 3, 0);
      commands += 10;
    }
    return w.size();
  }

  struct Frame {
    std::vector<uint8_t> bytes = std::vector<uint8_t>(4u << 20);
    CommandWriter        w{bytes.data(), bytes.size()};
    size_t               size = 0, commands = 0;
    Frame() { size = encodeFrame(w, commands); }
  };

  Frame& frame() { static Frame f; return f; }

  void setCounters(benchmark::State& state) {
    Frame& f = frame();
    state.counters["commands"] = double(f.commands);
    state.counters["bytes_per_command"] = double(f.size) / double(f.commands);
    state.counters["ns_per_command"] = benchmark::Counter(double(f.commands) * double(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.SetBytesProcessed(int64_t(f.size) * state.iterations());
  }

  void BM_Encode(benchmark::State& state) {
    std::vector<uint8_t> out(4u << 20);
    CommandWriter w(out.data(), out.size());
    size_t commands = 0;
    for (auto _ : state) {
      benchmark::DoNotOptimize(encodeFrame(w, commands));
      benchmark::ClobberMemory();
    }
    setCounters(state);
  }

  void BM_DecodeDispatch(benchmark::State& state) {
    Frame& f = frame();
    DecodeContext ctx;
    registerObjects(ctx.handles);
    NullDispatch backend;
    StreamDecoder dec(ctx, backend);
    for (auto _ : state) {
      DecodeResult r = dec.decode(f.bytes.data(), f.size);
      if (r.code != ErrorCode::Ok) { state.SkipWithError(errorName(r.code)); break; }
      benchmark::DoNotOptimize(r);
    }
    setCounters(state);
  }

  // What the host runs on a span the transport already copied out of shared
  // memory: no second copy in the decoder.
  void BM_DecodeDispatchPrivate(benchmark::State& state) {
    Frame& f = frame();
    DecodeContext ctx;
    registerObjects(ctx.handles);
    NullDispatch backend;
    StreamDecoder dec(ctx, backend);
    for (auto _ : state) {
      DecodeResult r = dec.decodePrivate(f.bytes.data(), f.size);
      if (r.code != ErrorCode::Ok) { state.SkipWithError(errorName(r.code)); break; }
      benchmark::DoNotOptimize(r);
    }
    setCounters(state);
  }

  // The figure, measured in one loop so that machine load hits both sides
  // alike: (encode + decode/dispatch) / memcpy of the same bytes. ratio_copying uses
  // decode() (which copies the batch first), ratio_private decodePrivate().
  // Thread CPU time: the development machine is shared, and wall time would charge
  // other processes' work to whichever phase they preempted.
  struct Clock {
    using time_point = std::chrono::nanoseconds;
    static time_point now() {
      timespec t;
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
      return std::chrono::nanoseconds(int64_t(t.tv_sec) * 1000000000 + t.tv_nsec);
    }
  };

  void BM_RatioToMemcpy(benchmark::State& state) {
    Frame& f = frame();
    std::vector<uint8_t> out(4u << 20), dst(f.size);
    CommandWriter w(out.data(), out.size());
    DecodeContext ctx;
    registerObjects(ctx.handles);
    NullDispatch backend;
    StreamDecoder dec(ctx, backend);
    double encodeNs = 0, decodeNs = 0, privateNs = 0, memcpyNs = 0;
    size_t commands = 0;
    auto ns = [](Clock::time_point a, Clock::time_point b) { return double((b - a).count()); };
    for (auto _ : state) {
      auto t0 = Clock::now();
      size_t size = encodeFrame(w, commands);
      benchmark::ClobberMemory();
      auto t1 = Clock::now();
      DecodeResult r = dec.decode(out.data(), size);
      benchmark::DoNotOptimize(r);
      auto t2 = Clock::now();
      DecodeResult rp = dec.decodePrivate(out.data(), size);
      benchmark::DoNotOptimize(rp);
      auto t3 = Clock::now();
      std::memcpy(dst.data(), out.data(), size);
      benchmark::DoNotOptimize(dst.data());
      benchmark::ClobberMemory();
      auto t4 = Clock::now();
      if (r.code != ErrorCode::Ok || rp.code != ErrorCode::Ok) { state.SkipWithError("decode failed"); break; }
      encodeNs += ns(t0, t1); decodeNs += ns(t1, t2); privateNs += ns(t2, t3); memcpyNs += ns(t3, t4);
    }
    double n = double(state.iterations()) * double(commands);
    state.counters["encode_ns_per_command"] = encodeNs / n;
    state.counters["decode_ns_per_command"] = decodeNs / n;
    state.counters["decode_private_ns_per_command"] = privateNs / n;
    state.counters["memcpy_ns_per_command"] = memcpyNs / n;
    state.counters["ratio_copying"] = (encodeNs + decodeNs) / memcpyNs;
    state.counters["ratio_private"] = (encodeNs + privateNs) / memcpyNs;
  }

  void BM_MemcpyFloor(benchmark::State& state) {
    Frame& f = frame();
    std::vector<uint8_t> dst(f.size);
    for (auto _ : state) {
      std::memcpy(dst.data(), f.bytes.data(), f.size);
      benchmark::DoNotOptimize(dst.data());
      benchmark::ClobberMemory();
    }
    setCounters(state);
  }

  // Context, not the target's floor: the same bytes copied one command at a
  // time, as a ring writer that copies each message would.
  void BM_MemcpyPerCommand(benchmark::State& state) {
    Frame& f = frame();
    std::vector<uint8_t> dst(f.size);
    for (auto _ : state) {
      size_t pos = 0;
      while (pos < f.size) {
        uint32_t h;
        std::memcpy(&h, f.bytes.data() + pos, 4);
        size_t n = size_t(headerWords(h)) * 4;
        std::memcpy(dst.data() + pos, f.bytes.data() + pos, n);
        pos += n;
      }
      benchmark::DoNotOptimize(dst.data());
      benchmark::ClobberMemory();
    }
    setCounters(state);
  }

}

BENCHMARK(BM_MemcpyFloor);
BENCHMARK(BM_MemcpyPerCommand);
BENCHMARK(BM_Encode);
BENCHMARK(BM_DecodeDispatch);
BENCHMARK(BM_DecodeDispatchPrivate);
BENCHMARK(BM_RatioToMemcpy);
BENCHMARK_MAIN();
