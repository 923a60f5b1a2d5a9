#pragma once

// Drives an Executor the way the server does: commands built with the generated guest
// encoders, decoded by the real StreamDecoder, replies decoded with the generated reply
// decoders. A vector plays the context's bulk memory (region 0).

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "npt/executor/executor.h"
#include "npt/protocol/decoder.h"
#include "npt_encode.h"

namespace npt::executor::testing {

using protocol::CommandWriter;

struct PushedSlot {
  std::vector<uint8_t> bytes;
  uint32_t writes = 0;
};

class Harness {
public:
  explicit Harness(std::string backend = "", uint32_t maxInlineReply = 128 * 1024)
  : m_buffer(4u << 20), m_writer(m_buffer.data(), m_buffer.size()), m_bulk(8u << 20) {
    ExecutorOptions options;
    options.backend = backend;
    options.maxInlineReplyBytes = maxInlineReply;
    options.hooks.bulkBytes = [this](const protocol::BulkRef& ref) -> const uint8_t* {
      if (ref.region != 0 || ref.offset > m_bulk.size() || ref.size > m_bulk.size() - ref.offset) return nullptr;
      return m_bulk.data() + ref.offset;
    };
    options.hooks.replyArea = [this](uint64_t* size) {
      *size = m_bulk.size();
      return m_bulk.data();
    };
    options.hooks.pushSlot = [this](uint32_t slot, const void* data, size_t size) {
      auto& pushed = m_slots[slot];
      pushed.bytes.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
      pushed.writes++;
    };
    options.hooks.fenceSlot = [this](uint32_t slot, uint64_t value) { m_fenceSlots[slot].push_back(value); };
    options.hooks.log = [this](const char* line) { m_log.push_back(line); };
    m_executor = createExecutor(std::move(options));
    m_context.replies = &m_replies;
  }

  Executor& executor() { return *m_executor; }
  CommandWriter& w() { return m_writer; }
  std::vector<uint8_t>& bulk() { return m_bulk; }
  const std::vector<std::string>& logLines() const { return m_log; }
  bool logContains(const std::string& text) const {
    for (const std::string& line : m_log)
      if (line.find(text) != std::string::npos) return true;
    return false;
  }
  const PushedSlot* slot(uint32_t index) const {
    auto it = m_slots.find(index);
    return it == m_slots.end() ? nullptr : &it->second;
  }
  // Every value the executor wrote into a guest fence slot, in order.
  const std::vector<uint64_t>& fenceSlotWrites(uint32_t slot) { return m_fenceSlots[slot]; }
  protocol::ObjectId newId() { return m_nextId++; }

  // Decodes and executes what the writer holds; the replies of sync commands are in replies().
  protocol::DecodeResult run() {
    m_replies.clear();
    protocol::StreamDecoder decoder(m_context, *m_executor);
    protocol::DecodeResult result = decoder.decode(m_buffer.data(), m_writer.size());
    m_writer.clear();
    return result;
  }
  void runOk() {
    protocol::DecodeResult result = run();
    ASSERT_EQ(result.code, protocol::ErrorCode::Ok) << protocol::errorName(result.code) << " at " << result.offset;
  }
  const std::vector<uint8_t>& replies() const { return m_replies; }

  // Copies bytes into the fake bulk memory at `offset` and returns their reference.
  NPT_BULK_REF stage(uint32_t offset, const void* data, uint32_t size) {
    std::memcpy(m_bulk.data() + offset, data, size);
    return NPT_BULK_REF{0, offset, size};
  }

  // D3D11CreateDevice through the wire. Returns the HRESULT of the reply.
  HRESULT createDevice(protocol::ObjectId* device, protocol::ObjectId* context, UINT sdk = D3D11_SDK_VERSION,
                       D3D_FEATURE_LEVEL* level = nullptr) {
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

  // Map through the sync path; bytes come inline or from the reply area.
  HRESULT map(protocol::ObjectId context, protocol::ObjectId resource, UINT subresource, D3D11_MAP type,
              std::vector<uint8_t>& bytes, UINT* rowPitch = nullptr, bool* viaBulk = nullptr) {
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
    if (data.isBulk)
      bytes.assign(m_bulk.data() + data.bulk.offset, m_bulk.data() + data.bulk.offset + data.bulk.size);
    else if (!data.isNull)
      bytes.assign(static_cast<const uint8_t*>(data.data), static_cast<const uint8_t*>(data.data) + data.size);
    return hr;
  }

  // The backend object's reference count, probed with AddRef/Release (0: no object).
  ULONG refcount(protocol::ObjectId id) {
    IUnknown* object = m_executor->backendObject(id);
    if (!object) return 0;
    object->AddRef();
    return object->Release();
  }

private:
  std::vector<uint8_t> m_buffer;
  CommandWriter m_writer;
  std::vector<uint8_t> m_bulk;
  std::vector<uint8_t> m_replies;
  std::map<uint32_t, PushedSlot> m_slots;
  std::map<uint32_t, std::vector<uint64_t>> m_fenceSlots;
  std::vector<std::string> m_log;
  protocol::DecodeContext m_context;
  std::unique_ptr<Executor> m_executor;
  protocol::ObjectId m_nextId = 1;
};

}  // namespace npt::executor::testing
