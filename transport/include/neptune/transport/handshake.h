#pragma once

#include <cstdint>

#include "neptune/transport/layout.h"
#include "neptune/transport/status.h"

// The connection handshake. The guest sends Hello with the geometry it wants; the
// server checks it against the per-context limits, creates the shared memory and a
// worker, and answers Welcome: with the memfd attached (SCM_RIGHTS) or, for guests
// that cannot receive descriptors (PE code under Wine), with a /dev/shm path that the
// guest maps and then acknowledges with kMappedAck so that the server can unlink it.
namespace npt::transport {

constexpr uint32_t kHelloMagic   = 0x4C484E50u; // "PNHL"
constexpr uint32_t kWelcomeMagic = 0x4C574E50u; // "PNWL"

enum HelloFlags : uint32_t {
  kHelloFdPassing = 1u << 0,  // guest receives the memory as a descriptor
  kHelloSocketWake = 1u << 1, // guest blocks on the socket, not on futexes
  kHelloEventWake = 1u << 2,  // guest can use named events instead (Windows); with SocketWake as fallback
};

struct Hello {
  uint32_t magic;
  uint32_t version;
  uint32_t flags;
  uint32_t ring_count;
  uint32_t ring_size;
  uint32_t reply_slot_count;
  uint32_t reply_slot_size;
  uint32_t push_slot_count;
  uint32_t fence_count;
  uint32_t reserved;
  uint64_t bulk_size;
  char token[64];   // TCP connections: the secret from the rendezvous file
};

enum WelcomeFlags : uint32_t {
  kWelcomeFd = 1u << 0,
  kWelcomePath = 1u << 1,
  // Granted kHelloEventWake: the guest rings "<path>-doorbell" and blocks on "<path>-wake"
  // (auto-reset named events; kDoorbellEventSuffix, kWakeEventSuffix) instead of bytes on its socket.
  kWelcomeEventWake = 1u << 2,
};
constexpr const char* kDoorbellEventSuffix = "-doorbell";
constexpr const char* kWakeEventSuffix = "-wake";

struct Welcome {
  uint32_t magic;
  uint32_t error;       // ConnectError
  uint32_t flags;
  uint32_t worker_pid;
  uint64_t shm_size;
  char path[256];       // kWelcomePath: Linux path of the shared memory file
  char message[256];
};

// Bytes on the connection socket after the handshake.
constexpr uint8_t kMappedAck = 'M';   // guest → server: path mapped, unlink it
constexpr uint8_t kDoorbell  = 'D';   // guest → host: work published while idle
constexpr uint8_t kWakeByte  = 'W';   // host → guest: a reply slot it waits on completed

inline Geometry geometry_from_hello(const Hello& h) {
  Geometry g;
  g.ring_count = h.ring_count;
  g.ring_size = h.ring_size;
  g.reply_slot_count = h.reply_slot_count;
  g.reply_slot_size = h.reply_slot_size;
  g.push_slot_count = h.push_slot_count;
  g.fence_count = h.fence_count;
  g.bulk_size = h.bulk_size;
  return g;
}

}
