// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "command_stream.h"
#include "host_caps.h"
#include "neptune/transport/guest_connection.h"

// The guest runtime of one process (contract 1: one connection per process, shared by
// d3d11.dll and the DXGI objects). Created lazily by the first entry point
// (D3D11CreateDevice*, CreateDXGIFactory*) and kept until the process exits.
//
// The server address comes from NPT_SERVER: the server's socket path as Wine sees it
// ("Z:\path\npt", or a Unix path "/path/npt" which is reached through Z:); the guest
// reads the rendezvous file "<path>.tcp" (transport/README.md).
namespace npt::guest {

class Runtime {
public:
  // The process's runtime, connecting on first use. No server reachable: a failure
  // HRESULT (callers map it to their API's documented one) and one readable log line;
  // a later call tries again.
  static HRESULT acquire(Runtime** out);
  // A connection someone else made (Triton's kernel transport: external_transport.h):
  // the process's runtime uses it instead of NPT_SERVER. E_FAIL if the runtime exists.
  static HRESULT attachExternal(std::unique_ptr<transport::GuestConnection> connection);
  // In-process tests: use a connection attached to memory a test host laid out.
  static void installForTesting(std::unique_ptr<transport::GuestConnection> connection);
  static void shutdownForTesting();

  transport::GuestConnection& connection() { return *m_connection; }
  // Ring 0 carries device creation, resources, the immediate contexts and every
  // DestroyObject. Deferred contexts record on rings 1..ring_count-1 (below).
  CommandStream& stream() { return *m_stream; }
  // The stream a new deferred context records on: the deferred ring fewest live deferred
  // contexts use, ordered after ring 0 (CommandStream). With more deferred contexts than
  // rings, contexts share a ring (they then contend on its lock); a connection of one
  // ring (Triton's kernel transport) gives ring 0 itself.
  CommandStream& acquireDeferredStream();
  void releaseDeferredStream(CommandStream& stream);
  const HostCaps& caps() const { return m_caps; }
  // Process-wide counters (connection setup, objects destroyed after their device).
  Statistics& statistics() { return m_statistics; }
  // The connection's own setup cost (QueryHostInfo), once: the first device created
  // on a new connection accounts for it, so its statistics show the whole creation.
  StatisticsSnapshot claimSetupStatistics();

  // Guest-assigned object ids (protocol section 7): nonzero, below 2^24, reused only
  // after the DestroyObject of the previous owner was recorded on ring 0, ordered after
  // every deferred ring's commands recorded so far (destroyObject).
  protocol::ObjectId allocateId();
  // Returns an id whose creation never reached the ring.
  void releaseUnusedId(protocol::ObjectId id);
  // Records DestroyObject and makes the id available again.
  void destroyObject(Statistics* stats, protocol::ObjectId id);

  // Push slots (contract 3) for queries, predicates and counters. A reused slot may
  // hold its previous query's last result: a query accepts only versions newer than
  // the one it saw when it was bound.
  bool allocatePushSlot(uint32_t* slot);
  void releasePushSlot(uint32_t slot);

  // The transport geometry the runtime asks the server for.
  static transport::Geometry defaultGeometry();

private:
  Runtime(std::unique_ptr<transport::GuestConnection> connection);
  void queryHostInfo();

  std::unique_ptr<transport::GuestConnection> m_connection;
  std::unique_ptr<CommandStream> m_stream;
  std::vector<std::unique_ptr<CommandStream>> m_deferredStreams;   // rings 1..ring_count-1
  std::vector<uint32_t> m_deferredUsers;                           // live deferred contexts per ring
  HostCaps m_caps;
  Statistics m_statistics;
  std::atomic<bool> m_setupClaimed{false};

  std::mutex m_idMutex;
  protocol::ObjectId m_nextId = 1;
  std::vector<protocol::ObjectId> m_freeIds;
  std::vector<uint32_t> m_freePushSlots;
  std::vector<uint32_t> m_quarantinedPushSlots;   // released; reusable once the host drained
  uint32_t m_nextPushSlot = 0;
};

}
