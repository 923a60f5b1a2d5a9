// SPDX-License-Identifier: MIT
#pragma once

// The executor's tests drive an InMemorySession (npt/executor/in_memory_session.h, shared
// with bench/gpu); this adds what only GoogleTest can: a run that fails the test.

#include <gtest/gtest.h>

#include <string>

#include "npt/executor/in_memory_session.h"

namespace npt::executor::testing {

using protocol::CommandWriter;
using PushedSlot = InMemorySession::PushedSlot;

class Harness : public InMemorySession {
public:
  explicit Harness(std::string backend = "", uint32_t maxInlineReply = 128 * 1024)
  : InMemorySession(options(std::move(backend), maxInlineReply)) {}

  void runOk() {
    protocol::DecodeResult result = run();
    ASSERT_EQ(result.code, protocol::ErrorCode::Ok) << protocol::errorName(result.code) << " at " << result.offset;
  }

private:
  static InMemorySessionOptions options(std::string backend, uint32_t maxInlineReply) {
    InMemorySessionOptions o;
    o.backend = std::move(backend);
    o.maxInlineReplyBytes = maxInlineReply;
    return o;
  }
};

}  // namespace npt::executor::testing
