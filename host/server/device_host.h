// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device_chunks.h"
#include "neptune/host.h"
#include "neptune/transport/device_layout.h"
#include "memory_budget.h"
#include "server_config.h"

// neptune-server --vm-shm: the host end of a shared-memory device (QEMU ivshmem). The
// server creates and owns the backing file, lays out the header and the slot table, and
// serves each slot a guest claims: the Hello from the slot's mailbox is checked as a
// socket's would be (hello_checks.h), the context's memory allocated inside the device,
// a worker process started with its own limits, the Welcome written back. A slot whose
// guest stops renewing its lease, gives it up, or changes its claim loses its context:
// the worker is told to end (terminated if it does not), the memory freed, the slot freed.
//
// This class is the portable part (the slot machine, run from tick()); DeviceServer
// (device_server_linux.cpp, device_server_win32.cpp) maps the file and runs workers.
namespace npt::server {

// Host-private words of one device worker, shared with the parent only. The same layout
// as the Windows worker's supervision page (worker_process_win32.h), plus `quit`.
struct DeviceWorkerWords {
  uint64_t progress;
  uint32_t running;
  uint32_t quit;     // parent -> worker (native): end, the guest is gone
  uint64_t cpu_ns;
};

class DeviceHost {
public:
  explicit DeviceHost(const ServerConfig& config) : m_config(config), m_budget(config.max_memory) {}
  virtual ~DeviceHost() = default;

  // Lays out a freshly mapped device (m_base, m_size, m_chunk_owners set by the platform).
  void lay_out();
  // One round: the host heartbeat, the header rewritten, every slot looked at.
  void tick();
  // Moves the host heartbeat (tick() does too): a thread of a server whose ticks may stall
  // (starting a Wine process) keeps its guests from taking it for dead.
  void beat();
  // Marks the device stopped and ends every context (the server ends).
  void stop_all();

  uint32_t active_contexts() const;
  // ivshmem-doorbell: guests ring peer_id (the header says so from now on).
  void take_doorbell(uint32_t peer_id) { m_doorbell_peer = peer_id + 1; }
  // A doorbell rang (rings: how many since the last call): wakes every active context's
  // worker from its pause, as the guest's futex wake would on one machine.
  void doorbell_rang(uint64_t rings);
  // The device's slots: one per context the server allows, at most kMaxSlots.
  static uint32_t slot_count_for(const ServerConfig& config) {
    return config.max_contexts == 0 ? 1
         : config.max_contexts < transport::device::kMaxSlots ? config.max_contexts : transport::device::kMaxSlots;
  }

protected:
  struct WorkerSpec {
    uint32_t slot = 0;
    uint64_t context_offset = 0;
    uint64_t context_size = 0;
    npt_host_geometry geometry = {};
  };
  // Starts the slot's worker; false (and *error) when it cannot.
  virtual bool launch_worker(const WorkerSpec& spec, uint32_t* pid, std::string* error) = 0;
  // Asks the worker to end (it finishes its command and runs its clean-up).
  virtual void request_quit(uint32_t slot) = 0;
  virtual void terminate_worker(uint32_t slot) = 0;
  // Whether the slot's worker ended (reaped; true also when it never started).
  virtual bool worker_ended(uint32_t slot, bool* clean) = 0;
  // The worker's supervision words (null when none).
  virtual DeviceWorkerWords* worker_words(uint32_t slot) = 0;

  const ServerConfig m_config;
  uint8_t* m_base = nullptr;
  uint64_t m_size = 0;
  uint8_t* m_chunk_owners = nullptr;
  DeviceChunks m_chunks;
  uint64_t m_instance = 0;      // DeviceHeader::server_instance
  uint32_t m_host_pid = 0;      // DeviceHeader::host_pid (informational)
  uint32_t m_doorbell_peer = 0; // DeviceHeader::doorbell_peer
  uint64_t m_doorbell_rings = 0;

private:
  enum class Phase { Free, Claimed, Refused, Active, Ending };
  struct Slot {
    Phase phase = Phase::Free;
    uint32_t claim = 0;
    uint32_t generation = 0;
    uint64_t heartbeat = 0;
    uint64_t heartbeat_at_ns = 0;
    uint64_t context_offset = 0;
    uint64_t context_size = 0;
    uint64_t ending_at_ns = 0;
    uint32_t reply_slots = 0;
    uint64_t replies_offset = 0;
    uint64_t reply_stride = 0;
    uint32_t end_reason = 0;
    // Watchdog.
    uint64_t last_progress = 0;
    uint64_t progress_at_ns = 0;
    uint64_t cpu_at_ns = 0;
    MemoryBudget::Reservation memory;   // given back when the slot is reclaimed
  };

  transport::device::DeviceSlot* slot_memory(uint32_t index) const {
    return reinterpret_cast<transport::device::DeviceSlot*>(m_base + transport::device::kSlotsOffset +
                                                            uint64_t(index) * transport::device::kSlotStride);
  }
  void write_header();
  void look_at(uint32_t index, uint64_t now);
  bool lease_renewed(Slot& slot, uint32_t index, uint64_t now);
  void handshake(uint32_t index);
  void answer(uint32_t index, const transport::Welcome& welcome, transport::device::SlotState state);
  void end_context(uint32_t index, uint32_t reason, uint64_t now);
  void mark_removed(Slot& slot, uint32_t reason);
  void reclaim(uint32_t index);
  void run_watchdog(Slot& slot, uint32_t index, uint64_t now);
  uint32_t slot_count() const { return uint32_t(m_slots.size()); }

  MemoryBudget m_budget;   // before the slots: their reservations go back to it
  std::vector<Slot> m_slots;
};

// Parses "512M", "1G", "4194304": bytes, or 0 when malformed.
uint64_t parse_device_size(const char* text);

}
