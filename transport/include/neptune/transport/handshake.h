// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
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

// Transport versions this build speaks (kVersion in layout.h is the newest). Version 3
// added Hello::min_version, the flag classes below and Welcome::version. Version 4 added
// the Hello's protocol identity (and its size, so that a server reads a newer guest's
// longer Hello whole) and the ring header's progress words (layout.h). A version-3
// server reads only the version-3 part of a Hello, so this build's guests speak 4 only.
constexpr uint32_t kMinVersion = 4;

// Hello flags come in two classes, so that a newer guest can talk to an older server:
// * bits 0..15 are offers: a server grants the ones it knows and supports and says
//   which in Welcome::flags; an offer it does not know is simply not granted.
// * bits 16..31 are requirements: a guest sets one for something it cannot work
//   without; a server that does not know it refuses the guest (UnsupportedFeature)
//   rather than serve it wrongly.
// None of the requirement bits is defined yet.
enum HelloFlags : uint32_t {
  kHelloFdPassing = 1u << 0,  // guest receives the memory as a descriptor
  kHelloSocketWake = 1u << 1, // guest blocks on the socket, not on futexes
  kHelloEventWake = 1u << 2,  // guest can use named events instead (Windows); with SocketWake as fallback
  kHelloBulkRegions = 1u << 3, // guest can map bulk regions added after connect (RecordKind::Control)
};
constexpr uint32_t kHelloOfferMask = 0x0000ffffu;
constexpr uint32_t kHelloRequirementMask = 0xffff0000u;
constexpr uint32_t kHelloKnownOffers = kHelloFdPassing | kHelloSocketWake | kHelloEventWake | kHelloBulkRegions;
constexpr uint32_t kHelloKnownRequirements = 0;

// What a guest's commands are: the D3D11 protocol version and the registry its codec was
// generated from (npt_identity.h of protocol/). All zero: a guest that sends no D3D11
// commands, or does not say (transport tests and benchmarks); a server does not check it.
struct ProtocolIdentity {
  uint32_t major = 0;
  uint32_t minor = 0;
  uint32_t opcode_count = 0;
  uint64_t registry_hash = 0;
};

struct Hello {
  uint32_t magic;
  uint32_t version;      // the newest transport version the guest speaks
  uint32_t flags;
  uint32_t ring_count;
  uint32_t ring_size;
  uint32_t reply_slot_count;
  uint32_t reply_slot_size;
  uint32_t push_slot_count;
  uint32_t fence_count;
  uint32_t min_version;  // the oldest it speaks (0 from version-2 guests: only `version`)
  uint64_t bulk_size;
  char token[64];   // TCP connections: the secret from the rendezvous file
  // Version 4. Sent by every guest whose `version` is 4 or more.
  uint32_t hello_size;          // bytes of this Hello as sent: a server skips what it does not know
  uint32_t protocol_major;      // ProtocolIdentity
  uint32_t protocol_minor;
  uint32_t opcode_count;
  uint64_t registry_hash;
};
constexpr size_t kHelloVersion3Bytes = offsetof(Hello, hello_size);
constexpr size_t kHelloMaxBytes = 4096;   // the longest Hello a server reads

// The Hello a guest sends for its geometry and protocol (flags, token: the carrier's).
inline Hello hello_for(const Geometry& geometry, const ProtocolIdentity& protocol) {
  Hello hello = {};
  hello.magic = kHelloMagic;
  hello.version = kVersion;
  hello.min_version = kMinVersion;
  hello.ring_count = geometry.ring_count;
  hello.ring_size = geometry.ring_size;
  hello.reply_slot_count = geometry.reply_slot_count;
  hello.reply_slot_size = geometry.reply_slot_size;
  hello.push_slot_count = geometry.push_slot_count;
  hello.fence_count = geometry.fence_count;
  hello.bulk_size = geometry.bulk_size;
  hello.hello_size = sizeof(hello);
  hello.protocol_major = protocol.major;
  hello.protocol_minor = protocol.minor;
  hello.opcode_count = protocol.opcode_count;
  hello.registry_hash = protocol.registry_hash;
  return hello;
}

inline ProtocolIdentity protocol_identity_of(const Hello& h) {
  ProtocolIdentity p;
  p.major = h.protocol_major;
  p.minor = h.protocol_minor;
  p.opcode_count = h.opcode_count;
  p.registry_hash = h.registry_hash;
  return p;
}

enum WelcomeFlags : uint32_t {
  kWelcomeFd = 1u << 0,
  kWelcomePath = 1u << 1,
  // Granted kHelloEventWake: the guest rings "<path>-doorbell" and blocks on "<path>-wake"
  // (auto-reset named events; kDoorbellEventSuffix, kWakeEventSuffix) instead of bytes on its socket.
  kWelcomeEventWake = 1u << 2,
  // Granted kHelloSocketWake (version 3): the host answers doorbell bytes on the socket and
  // sends wake bytes. A guest that offered it and got neither this nor kWelcomeEventWake
  // has no way to be woken and gives up at connect.
  kWelcomeSocketWake = 1u << 3,
  // Granted kHelloBulkRegions: the host answers ControlOp requests (more bulk regions,
  // reply regions). Without it the guest has region 0 only and sends no Control record.
  kWelcomeBulkRegions = 1u << 4,
  // The context's memory lies in a shared-memory device at the offset its slot names
  // (device_layout.h); only ever granted through a device slot's mailbox.
  kWelcomeDevice = 1u << 5,
};
constexpr const char* kDoorbellEventSuffix = "-doorbell";
constexpr const char* kWakeEventSuffix = "-wake";

constexpr uint32_t kWelcomeKnownFlags =
  kWelcomeFd | kWelcomePath | kWelcomeEventWake | kWelcomeSocketWake | kWelcomeBulkRegions | kWelcomeDevice;

struct Welcome {
  uint32_t magic;
  uint32_t error;       // ConnectError
  uint32_t flags;       // what the server granted, nothing else
  uint32_t worker_pid;
  uint64_t shm_size;
  char path[256];       // kWelcomePath: Linux path of the shared memory file
  char message[256];
  // Version 3. A refusal's error and message stay where version 2 had them, so an
  // older guest still reads why it was refused.
  uint32_t version;     // the transport version the server chose for this context
  uint32_t reserved;    // 0
};
constexpr size_t kWelcomeVersion2Bytes = offsetof(Welcome, version);

// Bytes on the connection socket after the handshake.
constexpr uint8_t kMappedAck = 'M';   // guest → server: path mapped, unlink it
constexpr uint8_t kDoorbell  = 'D';   // guest → host: work published while idle
constexpr uint8_t kWakeByte  = 'W';   // host → guest: a reply slot it waits on completed

// The version both sides speak, or 0 when their ranges do not meet. A Hello without
// min_version (a version-2 guest) speaks exactly `version`.
inline uint32_t negotiate_version(const Hello& h) {
  const uint32_t guest_min = h.min_version ? h.min_version : h.version;
  if (guest_min > h.version)
    return 0;
  const uint32_t chosen = h.version < kVersion ? h.version : kVersion;
  return chosen >= guest_min && chosen >= kMinVersion ? chosen : 0;
}

// What a server that supports `supported` (offer bits) grants of a guest's offers.
inline uint32_t granted_offers(const Hello& h, uint32_t supported) {
  return h.flags & kHelloOfferMask & kHelloKnownOffers & supported;
}

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
