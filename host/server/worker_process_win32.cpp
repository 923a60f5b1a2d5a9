// SPDX-License-Identifier: MIT
#include "worker_process_win32.h"
#include "device_regions.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

namespace npt::server {

namespace {

// The parent relays the guest's socket: doorbell bytes arrive as an event, wake bytes
// leave through one, and the guest's departure (or the parent's death) ends the worker.
class ParentRelayLink final : public GuestLink {
public:
  explicit ParentRelayLink(const WorkerLaunch& l) : m_launch(l) {}

  void wake_guest() override { SetEvent(m_launch.wake_request); }

  bool wait_doorbell(int timeout_ms) override {
    HANDLE handles[3] = { m_launch.doorbell, m_launch.quit, m_launch.parent };
    DWORD r = WaitForMultipleObjects(3, handles, FALSE, DWORD(timeout_ms));
    return r == WAIT_OBJECT_0 || r == WAIT_TIMEOUT;
  }

  // The doorbell event is auto-reset: set between a wait and the next, it still ends it.
  bool interrupt_wait() override { return SetEvent(m_launch.doorbell) != 0; }

  bool guest_alive() override {
    HANDLE handles[2] = { m_launch.quit, m_launch.parent };
    return WaitForMultipleObjects(2, handles, FALSE, 0) == WAIT_TIMEOUT;
  }

  // The parent reads the acknowledgement itself (it owns the socket); the parent keeps
  // its handle to the mapping, so there is nothing to unlink.
  void wait_mapped_ack(int) override {}

private:
  const WorkerLaunch& m_launch;
};

// Exit status of a worker that ended because its server parent did.
constexpr UINT kServerEndedExitCode = 5;

// The worker ends with its server, whatever it is doing. ParentRelayLink sees the parent's
// end only between commands (idle waits, guest_alive), and the server's job (kill on
// close) does not hold a worker the server had not assigned yet when it died; a worker left
// running keeps its guest's memory and, under a test runner, the output pipe it inherited.
// This thread waits on the parent for the worker's whole life and ends the process: there
// is nobody left to answer. The guest's departure (the quit event) is not its business: on
// that normal order the worker finishes its command and ends itself.
DWORD WINAPI end_with_parent(void* parent) {
  if (WaitForSingleObject(static_cast<HANDLE>(parent), INFINITE) == WAIT_OBJECT_0) {
    std::fflush(stderr);
    TerminateProcess(GetCurrentProcess(), kServerEndedExitCode);
  }
  return 0;
}

const char* dispatch_name(DispatchMode mode) {
  switch (mode) {
    case DispatchMode::Null: return "null";
    case DispatchMode::Diag: return "diag";
    case DispatchMode::Executor: return "executor";
  }
  return "executor";
}

bool parse_u64(const char* text, uint64_t* out) {
  if (!text || !*text)
    return false;
  char* end = nullptr;
  *out = std::strtoull(text, &end, 0);
  return end && *end == 0;
}

bool parse_u32(const char* text, uint32_t* out) {
  uint64_t v = 0;
  if (!parse_u64(text, &v) || v > UINT32_MAX)
    return false;
  *out = uint32_t(v);
  return true;
}

// "a,b,c": exactly n unsigned values.
bool parse_list(const char* text, uint64_t* values, int n) {
  std::string s = text ? text : "";
  size_t start = 0;
  for (int i = 0; i < n; i++) {
    size_t comma = s.find(',', start);
    if ((comma == std::string::npos) != (i == n - 1))
      return false;
    std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!parse_u64(item.c_str(), &values[i]))
      return false;
    start = comma + 1;
  }
  return true;
}

}

std::string WorkerLaunch::command_line(const std::string& exe) const {
  const npt_host_geometry& g = geometry;
  const npt_host_limits& l = limits;
  char text[1024];
  std::snprintf(text, sizeof(text),
                "\"%s\" --worker --id %u --mapping %s --size %" PRIu64 " --geometry %u,%u,%u,%u,%u,%u,%" PRIu64
                " --limits %u,%u,%u,%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64
                " --dispatch %s --spin-us %u --socket-wake %d"
                " --handles %" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
                exe.c_str(), context_id, mapping_name.c_str(), size,
                g.ring_count, g.ring_size, g.reply_slot_count, g.reply_slot_size, g.push_slot_count, g.fence_count,
                g.bulk_size,
                l.max_rings, l.max_ring_size, l.max_reply_slots, l.max_push_slots, l.max_fences, l.max_objects,
                l.max_bulk_size, l.max_command_size, l.max_object_memory,
                dispatch_name(dispatch), spin_us, socket_wake ? 1 : 0,
                uint64_t(uintptr_t(supervision)), uint64_t(uintptr_t(doorbell)), uint64_t(uintptr_t(quit)),
                uint64_t(uintptr_t(wake_request)), uint64_t(uintptr_t(parent)));
  std::string line = text;
  if (device) {
    std::snprintf(text, sizeof(text), " --device %u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, device_slot,
                  device_offset, device_size, device_data_offset, uint64_t(uintptr_t(chunks)));
    line += text;
  }
  return line;
}

bool WorkerLaunch::parse(int argc, char** argv, std::string* error) {
  auto fail = [&](const std::string& what) {
    *error = what;
    return false;
  };
  if (argc < 1 || std::string_view(argv[0]) != "--worker")
    return fail("not a worker command line");
  bool have_mapping = false, have_geometry = false, have_limits = false, have_handles = false;
  for (int i = 1; i < argc; i++) {
    std::string_view a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!v)
      return fail("option without a value: " + std::string(a));
    i++;
    if (a == "--id") {
      if (!parse_u32(v, &context_id)) return fail("bad --id");
    } else if (a == "--mapping") {
      mapping_name = v;
      have_mapping = true;
    } else if (a == "--size") {
      if (!parse_u64(v, &size)) return fail("bad --size");
    } else if (a == "--geometry") {
      uint64_t x[7];
      if (!parse_list(v, x, 7)) return fail("bad --geometry");
      geometry = { uint32_t(x[0]), uint32_t(x[1]), uint32_t(x[2]), uint32_t(x[3]), uint32_t(x[4]), uint32_t(x[5]), x[6] };
      have_geometry = true;
    } else if (a == "--limits") {
      uint64_t x[9];
      if (!parse_list(v, x, 9)) return fail("bad --limits");
      limits.max_rings = uint32_t(x[0]);
      limits.max_ring_size = uint32_t(x[1]);
      limits.max_reply_slots = uint32_t(x[2]);
      limits.max_push_slots = uint32_t(x[3]);
      limits.max_fences = uint32_t(x[4]);
      limits.max_objects = uint32_t(x[5]);
      limits.max_bulk_size = x[6];
      limits.max_command_size = x[7];
      limits.max_object_memory = x[8];
      have_limits = true;
    } else if (a == "--dispatch") {
      std::string_view d = v;
      if (d == "executor") dispatch = DispatchMode::Executor;
      else if (d == "diag") dispatch = DispatchMode::Diag;
      else if (d == "null") dispatch = DispatchMode::Null;
      else return fail("bad --dispatch");
    } else if (a == "--spin-us") {
      if (!parse_u32(v, &spin_us)) return fail("bad --spin-us");
    } else if (a == "--socket-wake") {
      socket_wake = std::string_view(v) == "1";
    } else if (a == "--handles") {
      uint64_t x[5];
      if (!parse_list(v, x, 5)) return fail("bad --handles");
      HANDLE* targets[5] = { &supervision, &doorbell, &quit, &wake_request, &parent };
      for (int k = 0; k < 5; k++) {
        if (!x[k]) return fail("null handle in --handles");
        *targets[k] = reinterpret_cast<HANDLE>(uintptr_t(x[k]));
      }
      have_handles = true;
    } else if (a == "--device") {
      uint64_t x[5];
      if (!parse_list(v, x, 5) || x[0] >= 64 || !x[4]) return fail("bad --device");
      device = true;
      device_slot = uint32_t(x[0]);
      device_offset = x[1];
      device_size = x[2];
      device_data_offset = x[3];
      chunks = reinterpret_cast<HANDLE>(uintptr_t(x[4]));
    } else {
      return fail("unknown worker option " + std::string(a));
    }
  }
  if (!have_mapping || !have_geometry || !have_limits || !have_handles || !size)
    return fail("incomplete worker command line");
  return true;
}

int worker_process_main(int argc, char** argv) {
  WorkerLaunch launch;
  std::string error;
  if (!launch.parse(argc, argv, &error)) {
    std::fprintf(stderr, "neptune-server --worker: %s\n", error.c_str());
    return 2;
  }
  // First of all: a server that died while it started this worker is seen at once.
  if (HANDLE watcher = CreateThread(nullptr, 0, end_with_parent, launch.parent, 0, nullptr))
    CloseHandle(watcher);
  // The worker trusts nothing it reads back from the guest's memory: the geometry and
  // the limits come from the parent on the command line.
  if (npt_host_shared_memory_size(&launch.geometry) > launch.size) {
    std::fprintf(stderr, "neptune-server --worker: mapping smaller than the geometry\n");
    return 2;
  }
  if (launch.device && (launch.device_offset > launch.device_size || launch.size > launch.device_size - launch.device_offset)) {
    std::fprintf(stderr, "neptune-server --worker: context outside the device\n");
    return 2;
  }
  HANDLE mapping = OpenFileMappingA(FILE_MAP_ALL_ACCESS, FALSE, launch.mapping_name.c_str());
  // A device context's worker maps the whole device: its regions are allocated inside it.
  void* view = mapping ? MapViewOfFile(mapping, FILE_MAP_ALL_ACCESS, 0, 0,
                                       size_t(launch.device ? launch.device_size : launch.size)) : nullptr;
  void* base = view && launch.device ? static_cast<uint8_t*>(view) + launch.device_offset : view;
  uint8_t* chunk_owners = launch.device ? static_cast<uint8_t*>(MapViewOfFile(
      launch.chunks, FILE_MAP_ALL_ACCESS, 0, 0, size_t(DeviceChunks::table_bytes(launch.device_size)))) : nullptr;
  if (launch.device && !chunk_owners) {
    std::fprintf(stderr, "neptune-server --worker: cannot map the device's chunk table (%lu)\n", GetLastError());
    return 2;
  }
  auto* supervision = static_cast<WorkerSupervision*>(
      MapViewOfFile(launch.supervision, FILE_MAP_ALL_ACCESS, 0, 0, sizeof(WorkerSupervision)));
  if (!base || !supervision) {
    std::fprintf(stderr, "neptune-server --worker: cannot map context %u (%lu)\n", launch.context_id, GetLastError());
    return 2;
  }

  WorkerParams p;
  p.link = std::make_unique<ParentRelayLink>(launch);
  p.base = static_cast<uint8_t*>(base);
  p.size = launch.size;
  p.geometry = launch.geometry;
  p.limits = launch.limits;
  p.socket_wake = launch.socket_wake;
  p.region_prefix = launch.mapping_name;
  p.dispatch = launch.dispatch;
  p.spin_us = launch.spin_us;
  // As on Linux, the control block shows the worker's pid (tests kill workers by it).
  p.worker_id = GetCurrentProcessId();
  p.progress = &supervision->progress;
  p.running = &supervision->running;
  p.cpu_ns = &supervision->cpu_ns;
  std::unique_ptr<DeviceRegions> device_regions;
  npt_host_region_provider device_provider = {};
  if (launch.device) {
    auto* device_base = static_cast<uint8_t*>(view);
    device_regions = std::make_unique<DeviceRegions>(
        device_base, DeviceChunks(chunk_owners, launch.device_data_offset, launch.device_size), launch.device_slot,
        reinterpret_cast<transport::device::DeviceSlot*>(device_base + transport::device::kSlotsOffset +
                                                         uint64_t(launch.device_slot) * transport::device::kSlotStride));
    device_provider = device_regions->provider();
    p.region_provider = &device_provider;
    p.region_prefix.clear();
    p.poll_doorbell = true;
  }
  int status = run_worker(p);
  std::fflush(stderr);
  return status;
}

}
