// SPDX-License-Identifier: MIT
#include "command_stream.h"

#include <cstdlib>
#include <cstring>

#include "log.h"

namespace npt::guest {

protocol::Payload Recorder::payload(const void* data, size_t size) {
  if (!data)
    return protocol::Payload::none();
  if (size <= CommandStream::kInlinePayloadBytes)
    return protocol::Payload::inlineBytes(data, uint32_t(size));
  protocol::BulkRef ref;
  uint8_t* dst = nullptr;
  if (!bulk(size, &ref, &dst))
    return protocol::Payload::none();
  std::memcpy(dst, data, size);
  return protocol::Payload::bulkRef(ref);
}

bool Recorder::bulk(size_t size, protocol::BulkRef* ref, uint8_t** pointer) {
  transport::BulkRef r;
  if (size > UINT32_MAX || !m_stream.allocateBulk(size, &r)) {
    NPT_ERROR("bulk memory cannot hold %zu bytes (%llu bytes in %u regions): %s", size,
              (unsigned long long)m_stream.connection().bulk().size(), m_stream.connection().bulk().region_count(),
              m_stream.m_bulkError.empty() ? "no region added" : m_stream.m_bulkError.c_str());
    m_ok = false;
    return false;
  }
  m_stream.m_pendingBulk.push_back(r);
  if (m_stats)
    m_stats->bulkBytes.fetch_add(size, std::memory_order_relaxed);
  ref->region = r.region;
  ref->offset = uint32_t(r.offset);
  ref->size = uint32_t(size);
  *pointer = m_stream.connection().bulk().pointer(r);
  return true;
}

CommandStream::CommandStream(transport::GuestConnection& connection, uint32_t ring, CommandStream* orderedAfter)
: m_connection(connection), m_ring(ring), m_orderedAfter(orderedAfter),
  m_waitedFor(connection.geometry().ring_count, 0) {
  m_buffer.resize(kFlushThreshold + protocol::kMaxCommandBytes);
  m_scratch.resize(protocol::kMaxCommandBytes + 64);
  m_replyBuffer.resize(connection.geometry().reply_slot_size);
  if (const char* path = std::getenv("NPT_CAPTURE_STREAM"))
    m_capture = std::fopen(path, "ab");
}

void CommandStream::capture(const uint8_t* data, size_t size) {
  if (m_capture && size) {
    std::fwrite(data, 1, size, m_capture);
    std::fflush(m_capture);
  }
}

void CommandStream::append(const uint8_t* data, size_t size) {
  std::memcpy(m_buffer.data() + m_used, data, size);
  m_used += size;
  // Follow the selection the copied commands leave behind.
  for (size_t at = 0; at + 4 <= size;) {
    uint32_t header;
    std::memcpy(&header, data + at, 4);
    size_t bytes = size_t(protocol::headerWords(header)) * 4;
    if (protocol::headerOpcode(header) == protocol::OpSelectObject && bytes == 8)
      std::memcpy(&m_selected, data + at + 4, 4);
    if (bytes == 0)
      break;
    at += bytes;
  }
}

void CommandStream::account(Statistics* stats, size_t bytes) {
  if (!stats)
    return;
  stats->commands.fetch_add(1, std::memory_order_relaxed);
  if (m_ring < 64)
    stats->rings.fetch_or(uint64_t(1) << m_ring, std::memory_order_relaxed);
  stats->bytes.fetch_add(bytes, std::memory_order_relaxed);
}

HRESULT CommandStream::flush() {
  std::lock_guard<std::mutex> lock(m_mutex);
  return flushLocked();
}

HRESULT CommandStream::flush(uint64_t* submitted) {
  std::lock_guard<std::mutex> lock(m_mutex);
  HRESULT hr = flushLocked();
  *submitted = m_connection.submitted(m_ring);
  return hr;
}

HRESULT CommandStream::waitFor(uint32_t ring, uint64_t sequence) {
  std::lock_guard<std::mutex> lock(m_mutex);
  return waitForLocked(ring, sequence);
}

HRESULT CommandStream::waitForLocked(uint32_t ring, uint64_t sequence) {
  if (ring == m_ring || ring >= m_waitedFor.size() || sequence <= m_waitedFor[ring])
    return m_connection.status();
  // The batch built so far was recorded before the wait: it must not be held back by it.
  HRESULT hr = flushLocked();
  if (FAILED(hr))
    return hr;
  return writeWaitLocked(ring, sequence);
}

HRESULT CommandStream::writeWaitLocked(uint32_t ring, uint64_t sequence) {
  transport::Status s = m_connection.wait_for(m_ring, ring, sequence);
  if (s != transport::kOk) {
    NPT_ERROR("ordering ring %u after ring %u failed: 0x%08x", m_ring, ring, unsigned(s));
    return s;
  }
  m_waitedFor[ring] = sequence;
  return S_OK;
}

HRESULT CommandStream::orderAfterLocked() {
  if (!m_orderedAfter)
    return S_OK;
  // Lock order: a deferred ring's lock, then the device ring's (never the reverse).
  uint64_t sequence = 0;
  HRESULT hr = m_orderedAfter->flush(&sequence);
  if (FAILED(hr))
    return hr;
  uint32_t ring = m_orderedAfter->ring();
  if (sequence <= m_waitedFor[ring])
    return S_OK;
  return writeWaitLocked(ring, sequence);
}

HRESULT CommandStream::flushLocked() {
  if (m_used == 0) {
    reclaim();
    return m_connection.status();
  }
  if (HRESULT hr = orderAfterLocked(); FAILED(hr))
    return hr;
  capture(m_buffer.data(), m_used);
  transport::Status s = m_connection.submit(m_ring, m_buffer.data(), m_used);
  m_used = 0;
  m_selected = 0;
  m_batchGeneration++;
  retirePending();
  reclaim();
  if (s != transport::kOk) {
    NPT_ERROR("submitting commands failed: 0x%08x (host fatal reason %u)", unsigned(s), m_connection.fatal_reason());
    return s;
  }
  reportRefusedCreations();
  return S_OK;
}

void CommandStream::reportRefusedCreations() {
  uint32_t fresh = 0;
  transport::GuestConnection::RefusedCreations refused = m_connection.take_refused_creations(&fresh);
  if (!fresh)
    return;
  // This runtime answered S_OK for these creations; every later call naming them is dropped
  // by the host (the host's log says why).
  if (refused.lastRule)
    NPT_WARN("the host refused %u creation(s) answered S_OK here (last: object %u, host rule E%u)", fresh,
             refused.lastObject, refused.lastRule);
  else
    NPT_WARN("the host refused %u creation(s) answered S_OK here (last: object %u, refused by the backend)", fresh,
             refused.lastObject);
}

HRESULT CommandStream::finish() {
  std::lock_guard<std::mutex> lock(m_mutex);
  HRESULT hr = flushLocked();
  if (FAILED(hr))
    return hr;
  hr = m_connection.finish(m_ring);
  reclaim();
  return hr;
}

void CommandStream::dropBulkSince(size_t mark) {
  while (m_pendingBulk.size() > mark) {
    m_connection.bulk().free(m_pendingBulk.back());
    m_pendingBulk.pop_back();
  }
}

void CommandStream::retirePending() {
  // Everything staged so far is referenced by records up to the last submitted one.
  uint64_t sequence = m_connection.submitted(m_ring);
  for (const transport::BulkRef& ref : m_pendingBulk)
    m_inFlight.push_back({ sequence, ref });
  m_pendingBulk.clear();
}

void CommandStream::reclaim() {
  uint64_t executed = m_connection.executed(m_ring);
  while (!m_inFlight.empty() && m_inFlight.front().sequence <= executed) {
    m_connection.bulk().free(m_inFlight.front().ref);
    m_inFlight.pop_front();
  }
}

bool CommandStream::allocateBulk(size_t size, transport::BulkRef* ref) {
  reclaim();
  if (m_connection.bulk().allocate(size, ref))
    return true;
  // No region could ever hold it (a texture's initial data larger than region 0): ask the
  // host for one that can, within the context's bulk limit.
  if (size > m_connection.bulk().largest_region())
    return growBulk(size) && m_connection.bulk().allocate(size, ref);
  // Bulk memory is held by commands the host has not executed yet: submit the batch
  // and wait for the host to drain. The command being encoded is not part of that
  // batch, so its own bulk memory must not be retired with it.
  std::vector<transport::BulkRef> current(m_pendingBulk.begin() + m_commandBulkMark, m_pendingBulk.end());
  m_pendingBulk.resize(m_commandBulkMark);
  bool drained = SUCCEEDED(flushLocked()) && m_connection.finish(m_ring) == transport::kOk;
  reclaim();
  m_commandBulkMark = 0;
  m_pendingBulk = std::move(current);
  if (drained && m_connection.bulk().allocate(size, ref))
    return true;
  // Still no room: the command being encoded holds the rest (several large payloads).
  return drained && growBulk(size) && m_connection.bulk().allocate(size, ref);
}

bool CommandStream::growBulk(size_t size) {
  m_bulkError.clear();
  transport::Status s = m_connection.grow_bulk(m_ring, size, &m_bulkError);
  if (s == transport::kOk)
    NPT_INFO("bulk memory grew for %zu bytes: %llu bytes in %u regions", size,
             (unsigned long long)m_connection.bulk().size(), m_connection.bulk().region_count());
  return s == transport::kOk;
}

const uint8_t* CommandStream::bulkBytes(const protocol::BulkRef& ref) {
  // Region 0, or the region the host keeps for this ring's large replies (mapped on first use).
  return m_connection.region_bytes(m_ring, ref.region, ref.offset, ref.size);
}

}
