// SPDX-License-Identifier: MIT
// Transport benchmarks. Each figure comes with its baseline from the same run:
//   ring throughput: frame-mix commands through the full stack (guest library → ring →
//     HostContext copy-out → no-op dispatcher) vs the raw ring (same-size records, bare
//     consumer without validation or copy);
//   reply latency: calls on the spin and block paths vs a bare shared-memory ping-pong,
//     in-process and through neptune-server's worker process;
//   the shared-memory device (the VM carrier, QEMU ivshmem; here its region file on the
//     host) vs the local socket + /dev/shm transport, both through a worker process: the
//     frame mix, kick-to-reply and an idle guest's cost to the server.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "../../transport/tests/in_process_host.h"
#include "../../host/server/diagnostic_dispatch.h"
#include "../../host/server/tests/device_server_process.h"
#include "../../host/server/tests/server_process.h"

using namespace npt::transport;
using namespace npt::transport::testing;

namespace {

class NoopDispatcher final : public Dispatcher {
public:
  bool dispatch(uint32_t, const uint8_t* span, size_t size, Reply* reply) override {
    if (reply)
      reply->write(span, size < 16 ? size : 16);
    return true;
  }
};

Geometry bench_geometry() {
  Geometry g;
  g.ring_size = 256u << 10;
  g.bulk_size = 16u << 20;
  return g;
}

// A frame-like mix of encoded D3D11 calls (documented in README.md): binds and draws,
// state with small arrays, inline constant-buffer uploads (Map/Unmap staging), larger
// UpdateSubresource payloads, and rare texture uploads larger than half the ring, which
// go out of line through bulk memory.
struct FrameMix {
  std::vector<uint32_t> sizes;
  FrameMix() {
    std::mt19937 rng(1);
    for (int i = 0; i < 16384; i++) {
      uint32_t r = rng() % 10000;
      uint32_t s;
      if (r < 5500) s = 16 + rng() % 25;            // binds, draws
      else if (r < 8500) s = 40 + rng() % 89;       // state with arrays, views
      else if (r < 9700) s = 256 + rng() % 769;     // constant-buffer uploads
      else if (r < 9998) s = 1024 + rng() % 3073;   // UpdateSubresource
      else s = 256 * 1024;                          // texture upload: out of line
      sizes.push_back(s);
      total += s;
    }
  }
  uint32_t mean() const { return uint32_t(total / sizes.size()); }
  uint64_t total = 0;
};

FrameMix& frame_mix() {
  static FrameMix mix;
  return mix;
}

// Raw ring: the producer side of the real ring, a consumer that only walks records.
void BM_RawRing(benchmark::State& state) {
  const uint32_t payload = uint32_t(state.range(0));
  Geometry g = bench_geometry();
  NoopDispatcher d;
  InProcessHost host(g, &d);
  RingHeader* h = host.ring_header(0);
  uint8_t* data = host.ring_data(0);
  RingWriter writer(h, data, g.ring_size);
  std::atomic<bool> stop{false};
  std::thread consumer([&] {
    uint64_t tail = 0, published = 0;
    while (!stop.load(std::memory_order_relaxed) || load_acquire(h->head) != tail) {
      uint64_t head = load_acquire(h->head);
      while (tail != head) {
        RecordHeader rec;
        std::memcpy(&rec, data + (tail & (g.ring_size - 1)), sizeof(rec));
        if (RecordKind(rec.size_kind >> 28) == RecordKind::Pad)
          tail += g.ring_size - (tail & (g.ring_size - 1));
        else
          tail += align8(sizeof(rec) + (rec.size_kind & kRecordSizeMask));
        if (tail - published >= g.ring_size / 4) {
          store_release(h->tail, tail);
          published = tail;
        }
      }
      store_release(h->tail, tail);
      published = tail;
      // Same back-off as the worker's: never hold a core the producer needs.
      if (load_acquire(h->head) == tail)
        std::this_thread::yield();
    }
  });
  std::vector<uint8_t> msg(payload, 0x5A);
  for (auto _ : state) {
    uint8_t* dst;
    for (uint32_t spins = 0; !(dst = writer.try_reserve(RecordKind::Data, 0, payload)); spins++) {
      if (spins < 64)
        cpu_relax();
      else
        std::this_thread::yield();
    }
    std::memcpy(dst, msg.data(), payload);
    writer.commit();
  }
  stop = true;
  consumer.join();
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * payload);
}
// The throughput comparisons all move the same number of commands (a whole number of
// frame mixes), so that no figure is taken over a shorter, luckier stretch than another.
constexpr int64_t kThroughputCommands = 256 * 16384;
BENCHMARK(BM_RawRing)->Arg(64)->Iterations(kThroughputCommands)->UseRealTime();
// Raw ring with messages of the frame mix's mean size: same bytes per command.
BENCHMARK(BM_RawRing)
    ->Apply([](benchmark::internal::Benchmark* b) { b->Arg(frame_mix().mean()); })
    ->Iterations(kThroughputCommands)
    ->UseRealTime();

void submit_all(benchmark::State& state, GuestConnection& guest, const std::vector<uint32_t>& sizes) {
  std::vector<uint8_t> msg(1 << 20, 0x5A);
  size_t i = 0;
  uint64_t bytes = 0;
  for (auto _ : state) {
    uint32_t size = sizes[i++ & (sizes.size() - 1)];
    if (guest.submit(0, msg.data(), size) != kOk)
      state.SkipWithError("submit failed");
    bytes += size;
  }
  guest.finish(0);
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(int64_t(bytes));
}

void run_stack(benchmark::State& state, const std::vector<uint32_t>& sizes) {
  Geometry g = bench_geometry();
  NoopDispatcher d;
  InProcessHost host(g, &d);
  host.start(1000);
  submit_all(state, host.guest(), sizes);
}

void BM_StackFrameMix(benchmark::State& state) {
  run_stack(state, frame_mix().sizes);
}
BENCHMARK(BM_StackFrameMix)->Iterations(kThroughputCommands)->UseRealTime();

void BM_StackSameSize(benchmark::State& state) {
  std::vector<uint32_t> sizes(4096, uint32_t(state.range(0)));
  run_stack(state, sizes);
}
BENCHMARK(BM_StackSameSize)->Arg(64)->Iterations(kThroughputCommands)->UseRealTime();

// The same comparison on one thread (produce a batch, then consume it): CPU cost per
// command without cross-core traffic or scheduling, robust on a loaded machine.
void BM_OneThreadRawRing(benchmark::State& state) {
  Geometry g = bench_geometry();
  NoopDispatcher d;
  InProcessHost host(g, &d);
  RingHeader* h = host.ring_header(0);
  uint8_t* data = host.ring_data(0);
  RingWriter writer(h, data, g.ring_size);
  const uint32_t payload = uint32_t(state.range(0));
  std::vector<uint8_t> msg(payload, 0x5A);
  uint64_t tail = 0;
  for (auto _ : state) {
    for (int i = 0; i < 1000; i++) {
      uint8_t* dst = writer.try_reserve(RecordKind::Data, 0, payload);
      std::memcpy(dst, msg.data(), payload);
      writer.commit();
    }
    uint64_t head = load_acquire(h->head);
    while (tail != head) {
      RecordHeader rec;
      std::memcpy(&rec, data + (tail & (g.ring_size - 1)), sizeof(rec));
      if (RecordKind(rec.size_kind >> 28) == RecordKind::Pad)
        tail += g.ring_size - (tail & (g.ring_size - 1));
      else
        tail += align8(sizeof(rec) + (rec.size_kind & kRecordSizeMask));
      benchmark::DoNotOptimize(rec);
    }
    store_release(h->tail, tail);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_OneThreadRawRing)->Arg(64);
BENCHMARK(BM_OneThreadRawRing)->Apply([](benchmark::internal::Benchmark* b) { b->Arg(frame_mix().mean()); });

void one_thread_stack(benchmark::State& state, const std::vector<uint32_t>& sizes) {
  Geometry g = bench_geometry();
  NoopDispatcher d;
  InProcessHost host(g, &d);
  GuestConnection& guest = host.guest();
  std::vector<uint8_t> msg(1 << 20, 0x5A);
  size_t k = 0;
  uint64_t bytes = 0, commands = 0;
  for (auto _ : state) {
    // Up to ~100 KiB per batch so that the batch fits in the ring.
    uint64_t batch = 0;
    while (batch < 100 * 1024) {
      uint32_t size = sizes[k++ & (sizes.size() - 1)];
      guest.submit(0, msg.data(), size);
      batch += size < 128 * 1024 ? size : 64;
      bytes += size;
      commands++;
    }
    host.host().process(1u << 30);
  }
  state.SetItemsProcessed(int64_t(commands));
  state.SetBytesProcessed(int64_t(bytes));
}

void BM_OneThreadStackFrameMix(benchmark::State& state) {
  one_thread_stack(state, frame_mix().sizes);
}
BENCHMARK(BM_OneThreadStackFrameMix);

void BM_OneThreadStackSameSize(benchmark::State& state) {
  std::vector<uint32_t> sizes(4096, uint32_t(state.range(0)));
  one_thread_stack(state, sizes);
}
BENCHMARK(BM_OneThreadStackSameSize)->Arg(64);

// Baseline for round trips: two threads bouncing a counter through two cache lines.
void BM_PingPongBare(benchmark::State& state) {
  struct alignas(64) Line { std::atomic<uint64_t> v{0}; };
  static Line ping, pong;
  ping.v = 0;
  pong.v = 0;
  std::atomic<bool> stop{false};
  std::thread peer([&] {
    uint64_t seen = 0;
    while (!stop.load(std::memory_order_relaxed)) {
      uint64_t v = ping.v.load(std::memory_order_acquire);
      if (v != seen) {
        seen = v;
        pong.v.store(v, std::memory_order_release);
      } else {
        cpu_relax();
      }
    }
  });
  uint64_t n = 0;
  for (auto _ : state) {
    ping.v.store(++n, std::memory_order_release);
    while (pong.v.load(std::memory_order_acquire) != n)
      cpu_relax();
  }
  stop = true;
  peer.join();
}
BENCHMARK(BM_PingPongBare)->UseRealTime();

void run_calls(benchmark::State& state, GuestConnection& guest) {
  uint32_t cmd[4] = { npt::server::kDiagEcho, 1, 2, 3 }, reply[4];
  size_t n;
  for (auto _ : state) {
    if (guest.call(0, cmd, sizeof(cmd), reply, sizeof(reply), &n) != kOk)
      state.SkipWithError("call failed");
  }
}

// In-process: host thread and guest spin (range 1) or both block at once (range 0).
void BM_CallInProcess(benchmark::State& state) {
  const bool spin = state.range(0);
  Geometry g;
  NoopDispatcher d;
  InProcessHost host(g, &d);
  GuestConnection& guest = host.guest();
  GuestOptions o;
  o.spin_us = spin ? 1000 : 0;
  guest.set_options(o);
  host.start(spin ? 1000000 : 0);
  run_calls(state, guest);
  state.SetLabel(spin ? "spin" : "block (futex both ways)");
}
BENCHMARK(BM_CallInProcess)->Arg(1)->Arg(0)->UseRealTime();

// Through neptune-server: the worker is another process (NPT_SERVER_BIN names the binary).
void BM_CallServer(benchmark::State& state) {
  const bool spin = state.range(0);
  npt::server::testing::ServerProcess server({ "--spin-us", spin ? "1000000" : "0" });
  std::unique_ptr<GuestConnection> guest;
  if (!server.running() || server.connect(&guest) != kOk) {
    state.SkipWithError("no neptune-server (set NPT_SERVER_BIN)");
    for (auto _ : state) {}
    return;
  }
  GuestOptions o;
  o.spin_us = spin ? 1000 : 0;
  guest->set_options(o);
  run_calls(state, *guest);
  state.SetLabel(spin ? "spin" : "block (futex both ways, worker process)");
}
BENCHMARK(BM_CallServer)->Arg(1)->Arg(0)->UseRealTime();

// The two carriers through a worker process of the native server: the local transport
// (socket + /dev/shm file) and the shared-memory device, on the same dispatch.
enum class Carrier { Socket, Device };

struct ServedGuest {
  std::unique_ptr<npt::server::testing::ServerProcess> socket_server;
  std::unique_ptr<npt::server::testing::DeviceServerProcess> device_server;
  std::unique_ptr<GuestConnection> guest;
  pid_t server_pid = 0;

  ServedGuest(Carrier carrier, std::vector<std::string> args, Geometry g) {
    std::string error;
    if (carrier == Carrier::Socket) {
      socket_server = std::make_unique<npt::server::testing::ServerProcess>(args);
      if (socket_server->running() && socket_server->connect(&guest, &error, g) == kOk)
        server_pid = socket_server->pid();
    } else {
      device_server = std::make_unique<npt::server::testing::DeviceServerProcess>(
          npt::server::testing::ServerKind::Native, 256ull << 20, args);
      if (device_server->serving() && device_server->connect(&guest, &error, g) == kOk)
        server_pid = device_server->pid();
    }
  }
  // Skips the benchmark when there is no server.
  bool ready(benchmark::State& state) {
    if (server_pid && guest)
      return true;
    state.SkipWithError("no neptune-server (NPT_SERVER_BIN)");
    for (auto _ : state) {}
    return false;
  }
};

const char* carrier_name(Carrier c) { return c == Carrier::Socket ? "socket + /dev/shm" : "shared-memory device"; }

// The frame mix into a worker whose dispatch does nothing: the carrier's ring, bulk and
// wakeup path end to end.
void BM_WorkerFrameMix(benchmark::State& state) {
  const Carrier carrier = Carrier(state.range(0));
  ServedGuest served(carrier, { "--dispatch", "null", "--spin-us", "1000" }, bench_geometry());
  if (!served.ready(state))
    return;
  submit_all(state, *served.guest, frame_mix().sizes);
  state.SetLabel(carrier_name(carrier));
}
BENCHMARK(BM_WorkerFrameMix)
    ->Arg(int(Carrier::Socket))
    ->Arg(int(Carrier::Device))
    ->Iterations(kThroughputCommands / 4)
    ->UseRealTime();

// Kick-to-reply: one call after the worker has gone idle (range 1: 20 ms of quiet first,
// so the worker is past its spin and the device worker well into its back-off), or calls
// back to back (range 0).
void BM_WorkerCall(benchmark::State& state) {
  const Carrier carrier = Carrier(state.range(0));
  const bool after_quiet = state.range(1);
  ServedGuest served(carrier, { "--spin-us", "50" }, npt::server::testing::ServerProcess::small_geometry());
  if (!served.ready(state))
    return;
  GuestOptions o;
  o.spin_us = 50;
  served.guest->set_options(o);
  uint32_t cmd[4] = { npt::server::kDiagEcho, 1, 2, 3 }, reply[4];
  size_t n;
  for (auto _ : state) {
    if (after_quiet) {
      state.PauseTiming();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      state.ResumeTiming();
    }
    if (served.guest->call(0, cmd, sizeof(cmd), reply, sizeof(reply), &n) != kOk)
      state.SkipWithError("call failed");
  }
  state.SetLabel(std::string(carrier_name(carrier)) + (after_quiet ? ", after 20 ms quiet" : ", back to back"));
}
BENCHMARK(BM_WorkerCall)
    ->Args({ int(Carrier::Socket), 0 })
    ->Args({ int(Carrier::Device), 0 })
    ->Args({ int(Carrier::Socket), 1 })
    ->Args({ int(Carrier::Device), 1 })
    ->Iterations(200)
    ->UseRealTime();

// A connected guest that does nothing for 5 s: the server's CPU (parent and worker, every
// thread) in % of a core, and its wakeups a second. Target: under 1% of a core.
void BM_IdleGuest(benchmark::State& state) {
  const Carrier carrier = Carrier(state.range(0));
  ServedGuest served(carrier, {}, npt::server::testing::ServerProcess::small_geometry());
  if (!served.ready(state))
    return;
  uint32_t cmd[4] = { npt::server::kDiagEcho, 1, 2, 3 }, reply[4];
  size_t n;
  served.guest->call(0, cmd, sizeof(cmd), reply, sizeof(reply), &n);
  const pid_t worker = pid_t(served.guest->worker_pid());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));   // past spin and back-off
  using npt::server::testing::process_usage;
  double cpu = 0, wakeups = 0;
  for (auto _ : state) {
    const auto parent0 = process_usage(served.server_pid), worker0 = process_usage(worker);
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(5));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto parent1 = process_usage(served.server_pid), worker1 = process_usage(worker);
    cpu = 100.0 * double(parent1.cpu_ns - parent0.cpu_ns + worker1.cpu_ns - worker0.cpu_ns) / 1e9 / seconds;
    wakeups = double(parent1.runs - parent0.runs + worker1.runs - worker0.runs) / seconds;
  }
  state.counters["server_cpu_pct"] = cpu;
  state.counters["server_wakeups_per_s"] = wakeups;
  state.SetLabel(carrier_name(carrier));
}
BENCHMARK(BM_IdleGuest)->Arg(int(Carrier::Socket))->Arg(int(Carrier::Device))->Iterations(1)->UseRealTime();

}

int main(int argc, char** argv) {
  setenv("NPT_SERVER_BIN", NPT_SERVER_PATH, 0);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
