// SPDX-License-Identifier: MIT
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
#include "frame_mix.h"

using namespace npt::protocol;
using namespace npt::protocol::bench;

namespace {

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

  // The target's figure, measured in one loop so that machine load hits both sides
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
