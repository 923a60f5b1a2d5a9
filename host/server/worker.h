// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "neptune/host.h"
#include "neptune/transport/socket.h"

// The body of one context's worker: drives the context until the guest disconnects or
// the context turns fatal. It runs in its own process (Linux: forked; Windows: a
// `neptune-server.exe --worker` process) so that a crash here takes down this context
// only; neptune-server.exe can also run it on a thread (--contexts thread, debugging).
namespace npt::server {

// Executor: decode, validate and execute on the D3D11 backend (the default). Null and
// Diag serve the transport's tests and benchmarks (diagnostic_dispatch.h).
enum class DispatchMode { Null, Diag, Executor };

// What the worker needs from its guest besides the shared memory: the doorbell and the
// wakeups of guests that block on their socket (kHelloSocketWake), the mapped
// acknowledgement, and whether the guest is still there. The worker owns the socket
// itself (Linux, thread mode) or its parent does and relays (Windows worker process).
class GuestLink {
public:
  virtual ~GuestLink() = default;
  // Socket-wake guests: a reply slot they block on completed.
  virtual void wake_guest() = 0;
  // Socket-wake guests: sleeps until the guest rings or timeout_ms pass. False once the
  // guest is gone.
  virtual bool wait_doorbell(int timeout_ms) = 0;
  // Without blocking: false once the guest is gone (or the worker was told to end).
  virtual bool guest_alive() = 0;
  // The guest maps the memory by name and acknowledges; the worker may then unlink it.
  virtual void wait_mapped_ack(int timeout_ms) = 0;
  // Socket-wake guests: makes a wait_doorbell in progress (or the next one) return, as a
  // ring would (shared fences signalled by another context). False if this link cannot.
  virtual bool interrupt_wait() { return false; }
  // Guests that take descriptors (native Linux): sends data with fd attached (a bulk
  // region's memfd). False if this link cannot.
  virtual bool send_descriptor(const void* data, size_t size, int fd) {
    (void)data;
    (void)size;
    (void)fd;
    return false;
  }
};

// The worker reads and writes the guest's socket itself.
class SocketGuestLink final : public GuestLink {
public:
  explicit SocketGuestLink(transport::Socket socket) : m_socket(std::move(socket)) {}
  void wake_guest() override;
  bool wait_doorbell(int timeout_ms) override;
  bool guest_alive() override;
  void wait_mapped_ack(int timeout_ms) override;
#if !defined(_WIN32)
  bool send_descriptor(const void* data, size_t size, int fd) override { return m_socket.send_with_fd(data, size, fd); }
#endif
  transport::Socket& socket() { return m_socket; }

private:
  transport::Socket m_socket;
};

struct WorkerParams {
  std::unique_ptr<GuestLink> link;
  uint8_t* base = nullptr;
  uint64_t size = 0;
  npt_host_geometry geometry = {};
  npt_host_limits limits = {};
  bool socket_wake = false;      // guest blocks on the socket: send wake bytes
  bool wait_for_mapped_ack = false; // guest maps by name and acknowledges
  std::string unlink_path;       // shared file to remove once the guest mapped it
  // Bulk regions added after connect (bulk_regions.h): sent as descriptors on the link,
  // or named after this prefix (the context's own file path or mapping name).
  bool regions_by_descriptor = false;
  std::string region_prefix;
  // Someone else's region memory (a shared-memory device's chunks); replaces the above.
  const npt_host_region_provider* region_provider = nullptr;
  // The guest cannot wake this worker (it runs in a VM behind a shared-memory device): the
  // idle worker polls the doorbell word, backing off from 50 us to kMaxDoorbellPollUs
  // (longer once quiet for a while: kMaxQuietDoorbellPollUs, kMaxIdleDoorbellPollUs).
  bool poll_doorbell = false;
  DispatchMode dispatch = DispatchMode::Executor;
  uint32_t spin_us = 50;         // poll this long before announcing idle
  uint32_t worker_id = 0;
  // Host-private words a supervising parent watches (null: nobody watches). The worker
  // bumps *progress before every command and every idle slice (at most 100 ms apart
  // while it is healthy) and sets *running once its backend is up.
  uint64_t* progress = nullptr;
  uint32_t* running = nullptr;
  // The worker process's CPU time in ns, written every 100 ms by a thread of its own, so
  // the watchdog tells a blocked or spinning worker from one that is merely starved.
  uint64_t* cpu_ns = nullptr;
};

// How a supervising parent judges a worker whose progress word stood still for the whole
// watchdog time: hung if it used almost no CPU meanwhile (under 1%: blocked, deadlocked,
// suspended - then its CPU word stops too - costs ~0) or nearly a whole core (over 90%:
// spinning); in between it is working on a starved machine and gets another period (a
// worker creating its first wined3d device got 60 ms of CPU in a second under load).
inline bool worker_looks_hung(uint64_t elapsed_ns, uint64_t cpu_used_ns) {
  return cpu_used_ns < elapsed_ns / 100 || cpu_used_ns > elapsed_ns / 10 * 9;
}

// The longest pause of a worker polling its doorbell (poll_doorbell): the latency a guest's
// first command after a quiet spell may pay. 2 ms within the first 100 ms of quiet, 20 ms
// within the first second, 50 ms after that, when an idle worker wakes ~20 times a second
// for it (2 ms throughout cost an idle native worker 1.6% of a core on the loaded test
// machine, ~500 wakeups a second; a PE worker under Wine pays more per wakeup).
constexpr uint32_t kMaxDoorbellPollUs = 2000;
constexpr uint32_t kMaxQuietDoorbellPollUs = 20000;
constexpr uint32_t kMaxIdleDoorbellPollUs = 50000;

// Exit status: 0 guest disconnected, 2 the context could not be set up, 3 context fatal.
int run_worker(WorkerParams& params);

}
