// SPDX-License-Identifier: MIT
#pragma once

// The worker's default dispatch: each command span the transport copied out goes through
// the protocol's StreamDecoder into the host executor (host/executor), which validates
// and replays it on the backend. Sync replies go back through the span's reply slot;
// query results go to push slots.

#include <cstdint>
#include <memory>
#include <vector>

#include "neptune/host.h"
#include "npt/executor/executor.h"
#include "npt/protocol/decoder.h"

namespace npt::server {

class ExecutorDispatch {
public:
  // limits bound the object tables. Bulk references and large replies go through the
  // context attach() names (every bulk region of it).
  ExecutorDispatch(const npt_host_geometry& geometry, const npt_host_limits& limits, uint32_t context_id);

  void attach(npt_host_context* context) { m_context = context; }
  // A missing backend: the context cannot run (reported once, at creation).
  bool backend_ok() const { return m_backend_ok; }
  executor::Executor& executor() { return *m_executor; }

  // npt_host_dispatch_fn
  static int dispatch(void* user, uint32_t ring, const uint8_t* cmd, size_t size, npt_host_reply* reply);

private:
  int run(const uint8_t* cmd, size_t size, npt_host_reply* reply);

  npt_host_context* m_context = nullptr;
  uint32_t m_ring = 0;   // the ring of the command being dispatched
  uint32_t m_context_id = 0;
  bool m_backend_ok = true;
  std::unique_ptr<executor::Executor> m_executor;
  protocol::DecodeContext m_decode;
  std::unique_ptr<protocol::StreamDecoder> m_decoder;   // after the executor it calls
  std::vector<uint8_t> m_replies;
};

}  // namespace npt::server
