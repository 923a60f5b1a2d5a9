// SPDX-License-Identifier: MIT
#include "worker.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#if defined(_WIN32)
#include <windows.h>
#else
#include <ctime>
#include <unistd.h>
#endif

#include "bulk_regions.h"
#include "diagnostic_dispatch.h"
#include "executor_dispatch.h"
#include "neptune/transport/handshake.h"
#include "neptune/transport/layout.h"
#include "neptune/transport/wait.h"

namespace npt::server {

void SocketGuestLink::wake_guest() { m_socket.send_byte_nonblocking(transport::kWakeByte); }

bool SocketGuestLink::wait_doorbell(int timeout_ms) {
  int r = m_socket.wait_readable(timeout_ms);
  return !(r < 0 || (r > 0 && !m_socket.drain()));
}

bool SocketGuestLink::guest_alive() { return m_socket.peer_alive(); }

void SocketGuestLink::wait_mapped_ack(int timeout_ms) {
  uint8_t ack = 0;
  m_socket.recv_all(&ack, 1, timeout_ms);
}

namespace {

void wake_guest(void* user) { static_cast<GuestLink*>(user)->wake_guest(); }

uint64_t process_cpu_ns() {
#if defined(_WIN32)
  FILETIME created, exited, kernel, user;
  if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
    return 0;
  auto ns = [](FILETIME t) { return ((uint64_t(t.dwHighDateTime) << 32) | t.dwLowDateTime) * 100; };
  return ns(kernel) + ns(user);
#else
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
#endif
}

// Publishes the process's CPU time for the parent's watchdog until told to stop.
class CpuTimeReporter {
public:
  explicit CpuTimeReporter(uint64_t* word) : m_word(word) {
    if (m_word)
      m_thread = std::thread([this] {
        while (!m_stop.load(std::memory_order_relaxed)) {
          std::atomic_ref<uint64_t>(*m_word).store(process_cpu_ns(), std::memory_order_relaxed);
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
      });
  }
  ~CpuTimeReporter() {
    m_stop = true;
    if (m_thread.joinable())
      m_thread.join();
  }

private:
  uint64_t* m_word;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

void bump(uint64_t* progress) {
  if (progress)
    std::atomic_ref<uint64_t>(*progress).fetch_add(1, std::memory_order_relaxed);
}

// Every command bumps the progress word first, so a parent watching it tells a worker
// stuck inside one command (a hung backend) from one that is merely busy.
struct CountingDispatch {
  npt_host_dispatch_fn inner;
  void* user;
  uint64_t* progress;

  static int dispatch(void* self, uint32_t ring, const uint8_t* cmd, size_t size, npt_host_reply* reply) {
    auto* d = static_cast<CountingDispatch*>(self);
    bump(d->progress);
    return d->inner(d->user, ring, cmd, size, reply);
  }
};

// Shared fences: a value another context signals must reach this context's
// guest promptly, also while this worker sleeps on its doorbell. A thread sleeps on the
// sharing registry's sync epoch and rings this context's doorbell when it moves, the
// way the guest rings it; the woken worker mirrors the values (Executor::pollQueries).
class FenceWakeRelay {
public:
  FenceWakeRelay(const std::atomic<uint32_t>* epoch, WorkerParams& p) : m_epoch(epoch), m_params(p) {
    m_thread = std::thread([this] { run(); });
  }
  ~FenceWakeRelay() {
    m_stop.store(true);
    m_thread.join();
  }
  const std::atomic<uint32_t>* epoch() const { return m_epoch; }

private:
  void run() {
    uint32_t seen = m_epoch->load();
    while (!m_stop.load()) {
      // 50 ms slices: the worker's end waits for this thread at most that long. Counted as
      // a sleeper, or signals would skip the wake.
      executor::Executor::waitOnSharedFenceWakeWord(m_epoch, seen, 50000);
      const uint32_t now = m_epoch->load();
      if (now == seen)
        continue;
      seen = now;
      if (m_params.socket_wake) {
        m_params.link->interrupt_wait();
      } else {
        auto* control = reinterpret_cast<transport::ControlBlock*>(m_params.base);
        std::atomic_ref<uint32_t>(control->doorbell).fetch_add(1);
        transport::address_wake_all(&control->doorbell);
      }
    }
  }

  const std::atomic<uint32_t>* m_epoch;
  WorkerParams& m_params;
  std::atomic<bool> m_stop{false};
  std::thread m_thread;
};

// Sleeps until the guest rings. Returns false once the guest has disconnected. Shared
// fence values are mirrored after the doorbell is read and before sleeping, so a signal
// the mirror missed rings after that read and the sleep ends at once.
// Where a polling worker is in its back-off (WorkerParams::poll_doorbell).
struct DoorbellPoll {
  uint32_t pause_us = 50;
  uint32_t quiet_slices = 0;   // whole slices of 100 ms passed without a ring
};

bool wait_for_doorbell(WorkerParams& p, npt_host_context* context, executor::Executor* fences, DoorbellPoll* poll) {
  auto* control = reinterpret_cast<transport::ControlBlock*>(p.base);
  if (p.poll_doorbell) {
    uint32_t seen = transport::load_acquire(control->doorbell);
    if (fences)
      fences->pollQueries();
    if (!npt_host_context_enter_idle(context))
      return true;
    // The guest's ring only moves the counter: look at it with growing pauses (one slice of
    // 100 ms at most, for the progress word). A waker of this kernel (the shared-fence relay)
    // still ends a pause at once.
    const uint64_t end = transport::now_ns() + 100 * 1000000ull;
    const uint32_t longest = poll->quiet_slices >= 10 ? kMaxIdleDoorbellPollUs
                           : poll->quiet_slices ? kMaxQuietDoorbellPollUs : kMaxDoorbellPollUs;
    while (transport::load_acquire(control->doorbell) == seen && transport::now_ns() < end) {
      transport::address_wait(&control->doorbell, seen, poll->pause_us);
      poll->pause_us = poll->pause_us * 2 > longest ? longest : poll->pause_us * 2;
    }
    npt_host_context_leave_idle(context);
    if (transport::load_acquire(control->doorbell) != seen) {
      *poll = DoorbellPoll();
      return true;
    }
    poll->quiet_slices++;
    return npt_host_context_has_work(context) != 0 || p.link->guest_alive();
  }
  if (p.socket_wake) {
    if (fences)
      fences->pollQueries();
    // Guests without cross-process futexes ring with a byte on the socket. The slice is
    // short so that a watching parent sees progress while the context is idle.
    if (!npt_host_context_enter_idle(context))
      return true;
    bool alive = p.link->wait_doorbell(100);
    npt_host_context_leave_idle(context);
    return alive;
  }
  // Read the counter before announcing idle: a ring after that changes it and the
  // futex wait returns at once.
  uint32_t seen = transport::load_acquire(control->doorbell);
  if (fences)
    fences->pollQueries();
  if (!npt_host_context_enter_idle(context))
    return true;
  transport::address_wait(&control->doorbell, seen, 100000);
  npt_host_context_leave_idle(context);
  // Woken by nothing: check that the guest is still there (a dead guest closes its socket).
  if (transport::load_acquire(control->doorbell) == seen && npt_host_context_has_work(context) == 0)
    return p.link->guest_alive();
  return true;
}

// A worker that polls (pending queries, shared fences under NPT_FENCE_WAKE=poll) does not
// sleep on the doorbell, where a guest's departure is noticed: it looks at its guest every
// 100 ms instead. Without that, such a worker outlived its guest (natively until the server
// ended; process mode: until the parent terminated it 2 s later, before the executor's
// closing lines were written: fence_run.py's poll run counted 0 CPU copies from them).
bool guest_left_while_polling(WorkerParams& p, uint64_t* next_check_ns) {
  const uint64_t now = transport::now_ns();
  if (now < *next_check_ns)
    return false;
  *next_check_ns = now + 100 * 1000000ull;
  return !p.link->guest_alive();
}

}

int run_worker(WorkerParams& p) {
  CpuTimeReporter cpu_reporter(p.cpu_ns);
  // Outlives the context, whose regions it holds.
  BulkRegions regions(p.regions_by_descriptor ? p.link.get() : nullptr, p.region_prefix);
  DoorbellPoll doorbell_poll;
  DiagState diag;
  npt_host_context* context = nullptr;
  npt_host_dispatch_fn dispatch = p.dispatch == DispatchMode::Diag ? diag_dispatch : null_dispatch;
  void* user = &diag;
  std::unique_ptr<ExecutorDispatch> executor;
  if (p.dispatch == DispatchMode::Executor) {
    // The backend is opened here, per context (in the worker process).
    executor = std::make_unique<ExecutorDispatch>(p.geometry, p.limits, p.worker_id);
    dispatch = ExecutorDispatch::dispatch;
    user = executor.get();
  }
  CountingDispatch counting{ dispatch, user, p.progress };
  if (p.progress) {
    dispatch = CountingDispatch::dispatch;
    user = &counting;
  }
  if (npt_host_context_create(&p.geometry, &p.limits, dispatch, user, &context) != 0)
    return 2;
  diag.context = context;
  if (executor)
    executor->attach(context);
  if (p.socket_wake)
    npt_host_context_set_waker(context, wake_guest, p.link.get());
  if (npt_host_context_attach_memory(context, p.base, p.size, p.worker_id) != 0)
    return 2;
  if (p.region_provider) {
    npt_host_context_set_region_provider(context, p.region_provider);
  } else if (p.regions_by_descriptor || !p.region_prefix.empty()) {
    npt_host_region_provider provider = regions.provider();
    npt_host_context_set_region_provider(context, &provider);
  }
  if (executor && !executor->backend_ok()) {
    // Logged by the executor with its stable code; the guest sees the device removed.
    npt_host_context_make_fatal(context, 0);
  }

  if (p.wait_for_mapped_ack || !p.unlink_path.empty()) {
    // The guest maps the memory by name, acknowledges, and then nobody else can open it.
    p.link->wait_mapped_ack(10000);
#if !defined(_WIN32)
    if (!p.unlink_path.empty())
      ::unlink(p.unlink_path.c_str());
#endif
  }
  // From here on a parent's watchdog may judge the worker by its progress word.
  if (p.running)
    std::atomic_ref<uint32_t>(*p.running).store(1, std::memory_order_release);

  int status = 0;
  std::unique_ptr<FenceWakeRelay> fence_relay;
  // A socket-wake link that cannot be interrupted keeps polling shared fences.
  const bool relay_possible = !p.socket_wake || p.link->interrupt_wait();
  uint64_t next_guest_check_ns = 0;
  for (;;) {
    bump(p.progress);
    constexpr size_t kBatch = 4096;
    // A full batch: more may be published already, go on at once.
    if (npt_host_context_process(context, kBatch) == kBatch)
      continue;
    if (npt_host_context_fatal_reason(context)) {
      status = 3;
      break;
    }
    // Caught up. Poll briefly (a guest issuing a stream of calls should not pay a wakeup
    // each), and gently: pause before each read of the heads, which pulls the line the
    // guest is writing; meanwhile its next records gather into one batch.
    uint64_t deadline = transport::now_ns() + uint64_t(p.spin_us) * 1000;
    bool work = false;
    for (uint32_t i = 0; !work; i++) {
      for (int k = 0; k < transport::kHostPollPauses; k++)
        transport::cpu_relax();
      work = npt_host_context_has_work(context);
      if (!work && (i & 7) == 0 && transport::now_ns() > deadline)
        break;
    }
    if (work)
      continue;
    if (executor && executor->executor().hasPendingQueries()) {
      // Query results are pushed as soon as the backend has them: poll instead of sleeping.
      executor->executor().pollQueries();
      if (executor->executor().hasPendingQueries()) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        if (guest_left_while_polling(p, &next_guest_check_ns))
          break;
      }
      continue;
    }
    executor::Executor* fences = nullptr;
    if (executor) {
      if (const std::atomic<uint32_t>* epoch = executor->executor().sharedFenceWakeWord()) {
        fences = &executor->executor();
        if (!relay_possible) {
          fences->pollQueries();
          std::this_thread::sleep_for(std::chrono::microseconds(200));
          if (guest_left_while_polling(p, &next_guest_check_ns))
            break;
          continue;
        }
        if (!fence_relay || fence_relay->epoch() != epoch)
          fence_relay = std::make_unique<FenceWakeRelay>(epoch, p);
      } else if (fence_relay) {
        fence_relay.reset();   // the last shared fence is gone: other contexts' signals no longer matter
      }
    }
    if (!wait_for_doorbell(p, context, fences, &doorbell_poll))
      break;
  }
  fence_relay.reset();
  uint32_t reason = npt_host_context_fatal_reason(context);
  if (reason)
    std::fprintf(stderr, "neptune-server: context %u fatal: %s\n", p.worker_id, npt_host_fatal_reason_name(reason));
  npt_host_context_destroy(context);
  return status;
}

}
