#include "executor_dispatch.h"

#include <cstdio>
#include <string>

#include "neptune/transport/layout.h"

namespace npt::server {

ExecutorDispatch::ExecutorDispatch(uint8_t* base, const npt_host_geometry& g, const npt_host_limits& limits,
                                   uint32_t context_id)
: m_context_id(context_id) {
  transport::Geometry geometry;
  geometry.ring_count = g.ring_count;
  geometry.ring_size = g.ring_size;
  geometry.reply_slot_count = g.reply_slot_count;
  geometry.reply_slot_size = g.reply_slot_size;
  geometry.push_slot_count = g.push_slot_count;
  geometry.fence_count = g.fence_count;
  geometry.bulk_size = g.bulk_size;
  m_bulk = base + geometry.bulk_offset();
  m_bulk_size = g.bulk_size;

  executor::ExecutorOptions options;
  options.quotas.maxObjects = limits.max_objects;
  options.quotas.maxMemoryBytes = limits.max_object_memory;
  // A reply holds its header and the Map pitches besides the bytes.
  const uint32_t slot = g.reply_slot_size > 64 ? g.reply_slot_size - 64 : 0;
  options.maxInlineReplyBytes = slot < 128u * 1024 ? slot : 128u * 1024;
  options.hooks.bulkBytes = [this](const protocol::BulkRef& ref) -> const uint8_t* {
    if (ref.region != 0 || ref.offset > m_bulk_size || ref.size > m_bulk_size - ref.offset) return nullptr;
    return m_bulk + ref.offset;
  };
  // Large readbacks are written at the start of region 0 (host/executor/README.md): the
  // guest has flushed and waits on this ring, so the host has consumed what it sent
  // there. With several rings another ring could still be using it: no reply area.
  const bool single_ring = g.ring_count == 1;
  options.hooks.replyArea = [this, single_ring](uint64_t* size) -> uint8_t* {
    *size = single_ring ? m_bulk_size : 0;
    return single_ring ? m_bulk : nullptr;
  };
  options.hooks.pushSlot = [this](uint32_t slot_index, const void* data, size_t size) {
    // A result that does not fit its slot is an error, never a truncated value.
    if (m_context && npt_host_context_push_slot(m_context, slot_index, data, size) != 0)
      m_executor->makeFatal(executor::FatalCode::Protocol, "query result of " + std::to_string(size) +
                                                               " bytes does not fit push slot " +
                                                               std::to_string(slot_index));
  };
  options.hooks.fenceSlot = [this](uint32_t slot_index, uint64_t value) {
    if (m_context) npt_host_context_signal_fence(m_context, slot_index, value);
  };
  options.fenceSlotCount = g.fence_count;
  options.hooks.log = [context_id](const char* line) {
    std::fprintf(stderr, "neptune-server: context %u: %s\n", context_id, line);
  };
  m_executor = executor::createExecutor(std::move(options));
  m_backend_ok = !m_executor->isFatal() && m_executor->backendAvailable();
  m_decode.handles = protocol::HandleTable(limits.max_objects);
  m_decode.pushSlotCount = g.push_slot_count;
  m_decoder = std::make_unique<protocol::StreamDecoder>(m_decode, *m_executor);
}

int ExecutorDispatch::dispatch(void* user, uint32_t, const uint8_t* cmd, size_t size, npt_host_reply* reply) {
  return static_cast<ExecutorDispatch*>(user)->run(cmd, size, reply);
}

int ExecutorDispatch::run(const uint8_t* cmd, size_t size, npt_host_reply* reply) {
  if (m_executor->isFatal()) return 1;
  m_replies.clear();
  m_decode.replies = reply ? &m_replies : nullptr;
  // The transport hands over a private copy of the span (host.h): decoding it in place
  // is still reading guest bytes once, and saves the decoder's own copy of each batch.
  protocol::DecodeResult result = m_decoder->decodePrivate(cmd, size);
  if (result.code != protocol::ErrorCode::Ok) {
    m_executor->makeFatal(executor::FatalCode::Protocol,
                          std::string("decoder: ") + protocol::errorName(result.code) + " (code " +
                              std::to_string(unsigned(result.code)) + ") at byte " + std::to_string(result.offset) +
                              ", opcode 0x" + [&] {
                                char hex[8];
                                std::snprintf(hex, sizeof(hex), "%04x", unsigned(result.opcode));
                                return std::string(hex);
                              }());
    return 1;
  }
  if (m_executor->isFatal()) return 1;
  if (reply && !m_replies.empty() && npt_host_reply_write(reply, m_replies.data(), m_replies.size()) != 0) {
    m_executor->makeFatal(executor::FatalCode::Protocol, "reply of " + std::to_string(m_replies.size()) +
                                                             " bytes exceeds the reply slot");
    return 1;
  }
  m_executor->pollQueries();
  return 0;
}

}  // namespace npt::server
