// SPDX-License-Identifier: MIT
#include "executor_dispatch.h"

#include <cstdio>
#include <string>


namespace npt::server {

ExecutorDispatch::ExecutorDispatch(const npt_host_geometry& g, const npt_host_limits& limits, uint32_t context_id)
: m_context_id(context_id) {
  executor::ExecutorOptions options;
  options.quotas.maxObjects = limits.max_objects;
  options.quotas.maxMemoryBytes = limits.max_object_memory;
  // A reply holds its header and the Map pitches besides the bytes.
  const uint32_t slot = g.reply_slot_size > 64 ? g.reply_slot_size - 64 : 0;
  options.maxInlineReplyBytes = slot < 128u * 1024 ? slot : 128u * 1024;
  // Payload references name any bulk region of the context; the transport bounds them by
  // the sizes the host gave the regions.
  options.hooks.bulkBytes = [this](const protocol::BulkRef& ref) -> const uint8_t* {
    return m_context ? npt_host_context_region_bytes(m_context, ref.region, ref.offset, ref.size) : nullptr;
  };
  // Large readbacks go to the calling ring's reply area (transport: region 0 while a
  // single ring waits on the call, otherwise a region of that ring's own, created on
  // demand within the bulk limit).
  options.hooks.replyRegion = [this](uint64_t size, uint32_t* region) -> uint8_t* {
    return m_context ? npt_host_context_reply_area(m_context, m_ring, size, region) : nullptr;
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
  options.hooks.creationRefused = [this](uint32_t object, uint32_t rule) {
    if (m_context) npt_host_context_note_refused_creation(m_context, object, rule);
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

int ExecutorDispatch::dispatch(void* user, uint32_t ring, const uint8_t* cmd, size_t size, npt_host_reply* reply) {
  auto* self = static_cast<ExecutorDispatch*>(user);
  self->m_ring = ring;
  return self->run(cmd, size, reply);
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
