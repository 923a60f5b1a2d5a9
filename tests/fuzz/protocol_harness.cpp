// SPDX-License-Identifier: MIT
// (c) The wire protocol decoder and dispatch, into the generated recording backend.

#include <string>
#include <vector>

#include "harness.h"
#include "npt/protocol/decoder.h"
#include "npt/protocol/negotiation.h"
#include "npt_ids.h"
#include "npt_recording.h"

namespace npt::fuzz {

using namespace npt::protocol;


Outcome runProtocol(const uint8_t* data, size_t size) {
  Outcome out;
  // The handshake's Hello comes from the guest too.
  Capabilities caps;
  decodeHello(data, size, caps);

  // One context for every input (its arena is large; allocating it per input costs more
  // than decoding), reset to the same state: one live object of every interface.
  static DecodeContext ctx(256u << 10);
  static const HandleTable everyInterface = [] {
    HandleTable table;
    for (uint16_t iface = 1; iface < kInterfaceCount; iface++)
      table.create(ObjectId(iface), iface);
    return table;
  }();
  ctx.handles = everyInterface;
  ctx.self = 0;
  ctx.selfIface = 0;
  std::vector<uint8_t> replies;
  ctx.replies = &replies;
  RecordingDispatch recording;
  StreamDecoder decoder(ctx, recording);
  DecodeResult result = decoder.decode(data, size);
  ctx.replies = nullptr;

  out.code = uint32_t(result.code);
  out.accepted = result.code == ErrorCode::Ok;
  if (std::string(errorName(result.code)) == "unknown-error")
    out.broken = "error code outside the stable codes: " + std::to_string(out.code);
  else if (result.offset > size)
    out.broken = "failure offset beyond the stream";
  else if (out.accepted && result.offset != size)
    out.broken = "accepted stream not consumed to its end";
  return out;
}

}  // namespace npt::fuzz
