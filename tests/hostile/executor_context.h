// SPDX-License-Identifier: MIT
#pragma once

// One context as the server drives it (host/server/executor_dispatch.cpp), in process:
// StreamDecoder -> Executor -> the recording backend, with 8 MiB of bulk region 0.

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "npt/backends/recording.h"
#include "npt/executor/executor.h"
#include "catalogue.h"
#include "npt/protocol/decoder.h"

namespace npt::hostile {

class ExecutorContext {
public:
  static constexpr size_t kBulkBytes = 8u << 20;

  ExecutorContext() : m_bulk(kBulkBytes), m_decode(1u << 20) {
    backends::recording::registerRecordingBackend();
    executor::ExecutorOptions options;
    options.backend = "recording";
    options.hooks.bulkBytes = [this](const protocol::BulkRef& ref) -> const uint8_t* {
      if (ref.region != 0 || ref.offset > m_bulk.size() || ref.size > m_bulk.size() - ref.offset) return nullptr;
      return m_bulk.data() + ref.offset;
    };
    options.hooks.replyArea = [this](uint64_t* size) {
      *size = m_bulk.size();
      return m_bulk.data();
    };
    options.hooks.pushSlot = [this](uint32_t slot, const void* data, size_t size) {
      m_pushes.push_back({slot, std::vector<uint8_t>(static_cast<const uint8_t*>(data),
                                                     static_cast<const uint8_t*>(data) + size)});
    };
    options.hooks.log = [this](const char* line) { m_log.push_back(line); };
    m_executor = executor::createExecutor(std::move(options));
    m_decode.handles = protocol::HandleTable(1u << 16);
    m_decode.pushSlotCount = 64;
    m_decoder = std::make_unique<protocol::StreamDecoder>(m_decode, *m_executor);
  }

  // One batch; returns the decoder's code (a decoder error makes the context fatal, as
  // the server glue does).
  protocol::ErrorCode run(const uint8_t* bytes, size_t size) {
    m_replies.clear();
    if (m_executor->isFatal()) return protocol::ErrorCode::Ok;
    m_decode.replies = &m_replies;
    protocol::DecodeResult result = m_decoder->decode(bytes, size);
    if (result.code != protocol::ErrorCode::Ok)
      m_executor->makeFatal(executor::FatalCode::Protocol, std::string("decoder: ") + protocol::errorName(result.code));
    else if (!m_executor->isFatal())
      m_executor->pollQueries();
    return result.code;
  }

  // The HRESULT of the last reply of the last batch (0xffffffff: none).
  uint32_t lastReplyResult() const { return hostile::lastReplyResult(m_replies.data(), m_replies.size()); }

  executor::Executor& executor() { return *m_executor; }
  std::vector<uint8_t>& bulk() { return m_bulk; }
  const std::vector<std::string>& log() const { return m_log; }
  const std::vector<uint8_t>& replies() const { return m_replies; }
  const std::vector<std::pair<uint32_t, std::vector<uint8_t>>>& pushes() const { return m_pushes; }

private:
  std::vector<uint8_t> m_bulk;
  protocol::DecodeContext m_decode;
  std::vector<uint8_t> m_replies;
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> m_pushes;
  std::vector<std::string> m_log;
  std::unique_ptr<executor::Executor> m_executor;
  std::unique_ptr<protocol::StreamDecoder> m_decoder;
};

}  // namespace npt::hostile
