// SPDX-License-Identifier: MIT
#include "npt/executor/in_memory_session.h"

#include <cstdio>
#include <cstring>

namespace npt::executor {

InMemorySession::InMemorySession(InMemorySessionOptions options)
: m_echoLog(options.echoLog), m_commands(options.commandBytes), m_writer(m_commands.data(), m_commands.size()),
  m_bulk(options.bulkBytes) {
  ExecutorOptions executorOptions;
  executorOptions.backend = options.backend;
  executorOptions.maxInlineReplyBytes = options.maxInlineReplyBytes;
  executorOptions.hooks.bulkBytes = [this](const protocol::BulkRef& ref) -> const uint8_t* {
    if (ref.region != 0 || ref.offset > m_bulk.size() || ref.size > m_bulk.size() - ref.offset) return nullptr;
    return m_bulk.data() + ref.offset;
  };
  executorOptions.hooks.replyArea = [this](uint64_t* size) {
    *size = m_bulk.size();
    return m_bulk.data();
  };
  executorOptions.hooks.pushSlot = [this](uint32_t slot, const void* data, size_t size) {
    PushedSlot& pushed = m_slots[slot];
    pushed.bytes.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
    pushed.writes++;
  };
  executorOptions.hooks.fenceSlot = [this](uint32_t slot, uint64_t value) { m_fenceSlots[slot].push_back(value); };
  executorOptions.hooks.creationRefused = [this](uint32_t object, uint32_t rule) {
    m_refusedCreations.push_back({object, rule});
  };
  executorOptions.hooks.log = [this](const char* line) {
    m_log.push_back(line);
    if (m_echoLog) std::fprintf(stderr, "executor: %s\n", line);
  };
  m_executor = createExecutor(std::move(executorOptions));
  m_decodeContext.replies = &m_replies;
  m_decoder = std::make_unique<protocol::StreamDecoder>(m_decodeContext, *m_executor);
}

// The decoder refers to the executor: it goes first.
InMemorySession::~InMemorySession() {
  m_decoder.reset();
  m_executor.reset();
}

protocol::DecodeResult InMemorySession::run() {
  m_replies.clear();
  // The writer's buffer is private memory, as the transport's copied-out span is.
  protocol::DecodeResult result = m_decoder->decodePrivate(m_commands.data(), m_writer.size());
  m_writer.clear();
  return result;
}

protocol::DecodeResult InMemorySession::runRecorded(const uint8_t* commands, size_t size) {
  m_replies.clear();
  return m_decoder->decodePrivate(commands, size);
}

std::vector<uint8_t> InMemorySession::writtenCommands() const {
  return std::vector<uint8_t>(m_commands.begin(), m_commands.begin() + m_writer.size());
}

bool InMemorySession::logContains(const std::string& text) const {
  for (const std::string& line : m_log)
    if (line.find(text) != std::string::npos) return true;
  return false;
}

const InMemorySession::PushedSlot* InMemorySession::slot(uint32_t index) const {
  auto it = m_slots.find(index);
  return it == m_slots.end() ? nullptr : &it->second;
}

NPT_BULK_REF InMemorySession::stage(uint32_t offset, const void* data, uint32_t size) {
  std::memcpy(m_bulk.data() + offset, data, size);
  return NPT_BULK_REF{0, offset, size};
}

HRESULT InMemorySession::createDevice(ObjectId* device, ObjectId* context, UINT sdk, D3D_FEATURE_LEVEL* level) {
  *device = newId();
  *context = newId();
  if (!protocol::encode_D3D11CreateDevice(m_writer, 0, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, sdk, *device,
                                          *context))
    return E_FAIL;
  if (run().code != protocol::ErrorCode::Ok) return E_FAIL;
  HRESULT hr = E_FAIL;
  D3D_FEATURE_LEVEL obtained = D3D_FEATURE_LEVEL(0);
  if (protocol::decodeReply_D3D11CreateDevice(m_replies.data(), m_replies.size(), &hr, &obtained) !=
      protocol::ErrorCode::Ok)
    return E_FAIL;
  if (level) *level = obtained;
  return hr;
}

HRESULT InMemorySession::map(ObjectId context, ObjectId resource, UINT subresource, D3D11_MAP type,
                             std::vector<uint8_t>& bytes, UINT* rowPitch, bool* viaBulk) {
  if (!protocol::encode_ID3D11DeviceContext_Map(m_writer, context, resource, subresource, type, 0)) return E_FAIL;
  if (run().code != protocol::ErrorCode::Ok) return E_FAIL;
  HRESULT hr = E_FAIL;
  UINT row = 0, depth = 0;
  protocol::Payload data;
  if (protocol::decodeReply_ID3D11DeviceContext_Map(m_replies.data(), m_replies.size(), &hr, &row, &depth, &data) !=
      protocol::ErrorCode::Ok)
    return E_FAIL;
  if (rowPitch) *rowPitch = row;
  if (viaBulk) *viaBulk = data.isBulk;
  if (data.isBulk) {
    // The reply names the bulk range it wrote; it is the executor's, but check it anyway.
    if (data.bulk.region != 0 || data.bulk.offset > m_bulk.size() || data.bulk.size > m_bulk.size() - data.bulk.offset)
      return E_FAIL;
    bytes.assign(m_bulk.data() + data.bulk.offset, m_bulk.data() + data.bulk.offset + data.bulk.size);
  } else if (!data.isNull) {
    bytes.assign(static_cast<const uint8_t*>(data.data), static_cast<const uint8_t*>(data.data) + data.size);
  }
  return hr;
}

ULONG InMemorySession::refcount(ObjectId id) {
  IUnknown* object = m_executor->backendObject(id);
  if (!object) return 0;
  object->AddRef();
  return object->Release();
}

}  // namespace npt::executor
