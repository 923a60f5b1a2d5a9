// SPDX-License-Identifier: MIT
#include "runtime.h"

#include <cstdlib>
#include <cstring>

#include "default_geometry.h"
#include "external_transport.h"
#include "log.h"
#include "npt/protocol/control.h"
#include "npt/protocol/wire.h"
#include "npt_identity.h"
#include "server_rendezvous.h"

namespace npt::guest {

namespace {

std::mutex g_runtimeMutex;
Runtime* g_runtime = nullptr;

constexpr protocol::ObjectId kMaxObjectId = (1u << 24) - 1;

}

transport::Geometry Runtime::defaultGeometry() { return npt::guest::defaultGeometry(); }

Runtime::Runtime(std::unique_ptr<transport::GuestConnection> connection)
: m_connection(std::move(connection)), m_caps(HostCaps::defaults()) {
  m_stream = std::make_unique<CommandStream>(*m_connection, 0);
  for (uint32_t ring = 1; ring < m_connection->geometry().ring_count; ring++)
    m_deferredStreams.push_back(std::make_unique<CommandStream>(*m_connection, ring, m_stream.get()));
  m_deferredUsers.assign(m_deferredStreams.size(), 0);
}

CommandStream& Runtime::acquireDeferredStream() {
  std::lock_guard<std::mutex> lock(m_idMutex);
  if (m_deferredStreams.empty())
    return *m_stream;
  size_t chosen = 0;
  for (size_t i = 1; i < m_deferredUsers.size(); i++)
    if (m_deferredUsers[i] < m_deferredUsers[chosen])
      chosen = i;
  m_deferredUsers[chosen]++;
  return *m_deferredStreams[chosen];
}

void Runtime::releaseDeferredStream(CommandStream& stream) {
  std::lock_guard<std::mutex> lock(m_idMutex);
  for (size_t i = 0; i < m_deferredStreams.size(); i++)
    if (m_deferredStreams[i].get() == &stream && m_deferredUsers[i])
      m_deferredUsers[i]--;
}

void Runtime::queryHostInfo() {
  // One of the two round trips of device creation (contract 2).
  std::vector<uint8_t> blob;
  protocol::ErrorCode decoded = protocol::ErrorCode::Ok;
  HRESULT hr = m_stream->callSync(&m_statistics,
    [](Recorder& r) { return protocol::encode_QueryHostInfo(r.writer()); },
    [&](const uint8_t* reply, size_t size) { decoded = protocol::decodeReply_QueryHostInfo(reply, size, blob); });
  if (FAILED(hr) || decoded != protocol::ErrorCode::Ok) {
    NPT_WARN("the host did not describe its device (hr 0x%08x, %s); answering caps from built-in feature level 11.0 defaults",
             unsigned(hr), protocol::errorName(decoded));
    return;
  }
  if (m_caps.load(blob.data(), blob.size()))
    NPT_INFO("host device: feature level 0x%x, %zu formats, %zu features, %zu outputs", unsigned(m_caps.maxFeatureLevel()),
             m_caps.info().formats.size(), m_caps.info().features.size(), m_caps.info().outputs.size());
}

HRESULT Runtime::acquire(Runtime** out) {
  std::lock_guard<std::mutex> lock(g_runtimeMutex);
  if (g_runtime) {
    *out = g_runtime;
    return g_runtime->m_connection->status() == transport::kOk ? S_OK : DXGI_ERROR_DEVICE_REMOVED;
  }
  std::unique_ptr<transport::GuestConnection> connection;
  std::string error;
  // The protocol this runtime's encoders were generated from: a server that decodes another
  // one refuses at connect, with both identities in the message.
  transport::ProtocolIdentity identity;
  identity.major = protocol::kProtocolMajor;
  identity.minor = protocol::kProtocolMinor;
  identity.opcode_count = protocol::kOpcodeCount;
  identity.registry_hash = protocol::kRegistryHash;
  std::string address;
  transport::Status s;
  const char* carrier = std::getenv("NPT_TRANSPORT");
  if (carrier && !std::strcmp(carrier, "ivshmem")) {
    // A shared-memory device (QEMU ivshmem) instead of a server socket.
    const char* device = std::getenv("NPT_IVSHMEM_DEVICE");
    address = device && *device ? device : transport::GuestConnection::find_ivshmem_device();
    if (address.empty()) {
      NPT_ERROR("NPT_TRANSPORT=ivshmem: no ivshmem device (1af4:1110) found; set NPT_IVSHMEM_DEVICE");
      return E_FAIL;
    }
    s = transport::GuestConnection::connect_device(address.c_str(), defaultGeometry(), &connection, &error, identity);
  } else {
    const char* server = std::getenv("NPT_SERVER");
    if (!server || !*server) {
      NPT_ERROR("NPT_SERVER is not set: no Neptune server to connect to (set it to the server's --socket path)");
      return E_FAIL;
    }
    address = serverRendezvousPath(server);
    s = transport::GuestConnection::connect(address.c_str(), defaultGeometry(), &connection, &error, identity);
  }
  if (s != transport::kOk) {
    NPT_ERROR("cannot connect to the Neptune server at %s: %s", address.c_str(), error.c_str());
    return s;
  }
  auto* runtime = new Runtime(std::move(connection));
  runtime->queryHostInfo();
  g_runtime = runtime;
  NPT_INFO("connected to %s (worker %u)", address.c_str(), g_runtime->m_connection->worker_pid());
  *out = g_runtime;
  return S_OK;
}

HRESULT Runtime::attachExternal(std::unique_ptr<transport::GuestConnection> connection) {
  std::lock_guard<std::mutex> lock(g_runtimeMutex);
  if (g_runtime)
    return E_FAIL;
  g_runtime = new Runtime(std::move(connection));
  g_runtime->queryHostInfo();
  NPT_INFO("using an external transport (wake mode %s)", g_runtime->m_connection->wake_mode());
  return S_OK;
}

void Runtime::installForTesting(std::unique_ptr<transport::GuestConnection> connection) {
  std::lock_guard<std::mutex> lock(g_runtimeMutex);
  delete g_runtime;
  g_runtime = new Runtime(std::move(connection));
  g_runtime->queryHostInfo();
}

void Runtime::shutdownForTesting() {
  std::lock_guard<std::mutex> lock(g_runtimeMutex);
  delete g_runtime;
  g_runtime = nullptr;
}

StatisticsSnapshot Runtime::claimSetupStatistics() {
  if (m_setupClaimed.exchange(true))
    return StatisticsSnapshot();
  return m_statistics.snapshot();
}

protocol::ObjectId Runtime::allocateId() {
  std::lock_guard<std::mutex> lock(m_idMutex);
  if (!m_freeIds.empty()) {
    protocol::ObjectId id = m_freeIds.back();
    m_freeIds.pop_back();
    return id;
  }
  if (m_nextId > kMaxObjectId)
    return 0;
  return m_nextId++;
}

void Runtime::releaseUnusedId(protocol::ObjectId id) {
  if (!id)
    return;
  std::lock_guard<std::mutex> lock(m_idMutex);
  m_freeIds.push_back(id);
}

void Runtime::destroyObject(Statistics* stats, protocol::ObjectId id) {
  if (!id)
    return;
  // A deferred ring may hold commands naming the object (recorded, or not yet submitted):
  // they execute before the DestroyObject, and before a later creation reusing the id.
  for (const std::unique_ptr<CommandStream>& deferred : m_deferredStreams) {
    uint64_t sequence = 0;
    if (SUCCEEDED(deferred->flush(&sequence)))
      m_stream->waitFor(deferred->ring(), sequence);
  }
  HRESULT hr = m_stream->record(stats, [id](Recorder& r) {
    protocol::CommandWriter& w = r.writer();
    w.begin(protocol::OpDestroyObject);
    w.u32(id);
    return w.end();
  });
  // An id whose DestroyObject did not reach the ring stays taken: reusing it would
  // make the next creation collide on the host.
  if (SUCCEEDED(hr)) {
    std::lock_guard<std::mutex> lock(m_idMutex);
    m_freeIds.push_back(id);
  }
}

bool Runtime::allocatePushSlot(uint32_t* slot) {
  {
    std::lock_guard<std::mutex> lock(m_idMutex);
    if (m_nextPushSlot < m_connection->geometry().push_slot_count) {
      *slot = m_nextPushSlot++;
      return true;
    }
    if (!m_freePushSlots.empty()) {
      *slot = m_freePushSlots.back();
      m_freePushSlots.pop_back();
      return true;
    }
    if (m_quarantinedPushSlots.empty())
      return false;
  }
  // Every slot was used once. A released slot may still receive the result of its
  // previous query until the host executed that query's DestroyObject: wait for the
  // host (rare: only after push_slot_count queries were created), then reuse them.
  if (FAILED(m_stream->finish()))
    return false;
  std::lock_guard<std::mutex> lock(m_idMutex);
  m_freePushSlots.insert(m_freePushSlots.end(), m_quarantinedPushSlots.begin(), m_quarantinedPushSlots.end());
  m_quarantinedPushSlots.clear();
  if (m_freePushSlots.empty())
    return false;
  *slot = m_freePushSlots.back();
  m_freePushSlots.pop_back();
  return true;
}

void Runtime::releasePushSlot(uint32_t slot) {
  std::lock_guard<std::mutex> lock(m_idMutex);
  m_quarantinedPushSlots.push_back(slot);
}

}

namespace {

// The external transport's two functions, as the transport's GuestChannel.
class ExternalChannel final : public npt::transport::GuestChannel {
public:
  explicit ExternalChannel(const NptExternalTransport& t) : m_transport(t) {}
  void doorbell(uint32_t* word) override { m_transport.doorbell(m_transport.context, word); }
  bool block(const uint32_t* word, uint32_t expected, uint32_t timeout_us) override {
    return m_transport.block(m_transport.context, word, expected, timeout_us) != 0;
  }
  bool maps_regions() const override { return m_transport.map_region && m_transport.unmap_region; }
  uint8_t* map_region(uint32_t region, uint64_t size) override {
    return maps_regions() ? m_transport.map_region(m_transport.context, region, size) : nullptr;
  }
  void unmap_region(uint32_t region) override {
    if (maps_regions())
      m_transport.unmap_region(m_transport.context, region);
  }

private:
  NptExternalTransport m_transport;
};

}

// Triton's kernel transport (triton/kernel/CONTRACT.md) hands the process's connection
// over here before it creates its first device on this runtime.
extern "C" __declspec(dllexport) long NptAttachExternalTransport(const NptExternalTransport* transport) {
  if (!transport || transport->struct_size < sizeof(NptExternalTransport) ||
      transport->version != kNptExternalTransportVersion || !transport->shared_base || !transport->doorbell ||
      !transport->block)
    return E_INVALIDARG;
  if (!transport->map_region != !transport->unmap_region)
    return E_INVALIDARG;
  // Regions after connect only when someone maps them: the host's own grants name memory
  // this process cannot open (a kernel blob).
  const bool regions = transport->map_region != nullptr;
  std::unique_ptr<npt::transport::GuestConnection> connection;
  if (npt::transport::GuestConnection::attach(transport->shared_base, size_t(transport->shared_size),
                                              std::make_unique<ExternalChannel>(*transport), &connection,
                                              regions) != npt::transport::kOk)
    return E_INVALIDARG;
  return npt::guest::Runtime::attachExternal(std::move(connection));
}
