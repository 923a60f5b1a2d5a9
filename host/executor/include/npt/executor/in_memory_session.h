// SPDX-License-Identifier: MIT
#pragma once

// An Executor driven the way the server drives one, without a transport: commands written
// with the generated guest encoders into a private buffer, decoded by the real
// StreamDecoder, replies decoded with the generated reply decoders. A vector plays the
// context's bulk memory (region 0, also the reply area of large Map readbacks); push and
// fence slot writes and the executor's log lines are kept for the caller to look at.
//
// Used by the executor's tests and by bench/gpu (its "neptune", "replay" and "fence"
// modes and the share bench's contexts), so that both exercise the same set-up.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "npt/executor/executor.h"
#include "npt/protocol/decoder.h"
#include "npt_encode.h"

namespace npt::executor {

struct InMemorySessionOptions {
  std::string backend;                    // "" : the build's default backend (NPT_BACKEND)
  uint32_t maxInlineReplyBytes = 128 * 1024;
  size_t commandBytes = 4u << 20;         // the command buffer the writer fills between run()s
  size_t bulkBytes = 8u << 20;            // region 0
  bool echoLog = false;                   // also print each executor log line to stderr
};

class InMemorySession {
public:
  struct PushedSlot {
    std::vector<uint8_t> bytes;
    uint32_t writes = 0;
  };

  explicit InMemorySession(InMemorySessionOptions options = {});
  ~InMemorySession();
  InMemorySession(const InMemorySession&) = delete;
  InMemorySession& operator=(const InMemorySession&) = delete;

  Executor& executor() { return *m_executor; }
  protocol::CommandWriter& w() { return m_writer; }
  std::vector<uint8_t>& bulk() { return m_bulk; }
  ObjectId newId() { return m_nextId++; }

  // Decodes and executes what the writer holds, then empties it; the replies of its sync
  // commands are in replies().
  protocol::DecodeResult run();
  // Decodes and executes bytes the caller recorded (a batch kept for replay).
  protocol::DecodeResult runRecorded(const uint8_t* commands, size_t size);
  // What the writer holds now (to record a batch instead of running it).
  std::vector<uint8_t> writtenCommands() const;
  const std::vector<uint8_t>& replies() const { return m_replies; }

  const std::vector<std::string>& logLines() const { return m_log; }
  bool logContains(const std::string& text) const;
  const PushedSlot* slot(uint32_t index) const;
  // Every value the executor wrote into a guest fence slot, in order.
  const std::vector<uint64_t>& fenceSlotWrites(uint32_t slot) { return m_fenceSlots[slot]; }
  struct RefusedCreation {
    uint32_t object;
    uint32_t rule;   // 0: the backend refused
  };
  // What the creationRefused hook reported, in order.
  const std::vector<RefusedCreation>& refusedCreations() const { return m_refusedCreations; }

  // Copies bytes into the bulk memory at `offset` and returns their reference.
  NPT_BULK_REF stage(uint32_t offset, const void* data, uint32_t size);

  // D3D11CreateDevice through the wire; the HRESULT of the reply (E_FAIL if the batch or
  // its reply did not decode).
  HRESULT createDevice(ObjectId* device, ObjectId* context, UINT sdk = D3D11_SDK_VERSION,
                       D3D_FEATURE_LEVEL* level = nullptr);
  // Map through the sync path; the bytes come inline or from the reply area.
  HRESULT map(ObjectId context, ObjectId resource, UINT subresource, D3D11_MAP type, std::vector<uint8_t>& bytes,
              UINT* rowPitch = nullptr, bool* viaBulk = nullptr);
  // The backend object's reference count, probed with AddRef/Release (0: no object).
  ULONG refcount(ObjectId id);

private:
  bool m_echoLog;
  std::vector<uint8_t> m_commands;
  protocol::CommandWriter m_writer;
  std::vector<uint8_t> m_bulk;
  std::vector<uint8_t> m_replies;
  std::map<uint32_t, PushedSlot> m_slots;
  std::map<uint32_t, std::vector<uint64_t>> m_fenceSlots;
  std::vector<std::string> m_log;
  std::vector<RefusedCreation> m_refusedCreations;
  protocol::DecodeContext m_decodeContext;
  std::unique_ptr<Executor> m_executor;
  std::unique_ptr<protocol::StreamDecoder> m_decoder;
  ObjectId m_nextId = 1;
};

}  // namespace npt::executor
