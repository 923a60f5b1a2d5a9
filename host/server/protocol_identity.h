// SPDX-License-Identifier: MIT
#pragma once

// The D3D11 protocol that the executor dispatch decodes, as a guest's transport Hello names
// it: a server in executor mode refuses a guest generated from another registry at connect
// (hello_checks.h), instead of ending its context at the first opcode it does not know.

#include "neptune/transport/handshake.h"
#include "npt/protocol/wire.h"
#include "npt_identity.h"

namespace npt::server {

inline transport::ProtocolIdentity executor_protocol() {
  transport::ProtocolIdentity p;
  p.major = protocol::kProtocolMajor;
  p.minor = protocol::kProtocolMinor;
  p.opcode_count = protocol::kOpcodeCount;
  p.registry_hash = protocol::kRegistryHash;
  return p;
}

}  // namespace npt::server
