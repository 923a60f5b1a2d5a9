// SPDX-License-Identifier: MIT
#pragma once

// Guest side of the control commands that are not part of the generated
// method set (protocol/README.md, section 2): host info, push-slot binding
// and present. npt_encode.h includes this header.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "writer.h"

namespace npt::protocol {

  // Sync: the guest waits for the reply and decodes it with decodeReply_QueryHostInfo,
  // then parses the blob with parseHostInfo (host_info.h).
  bool encode_QueryHostInfo(CommandWriter& w);
  // Binds query/predicate/counter `query` to push slot `slot`; sent right after its creation.
  bool encode_BindPushSlot(CommandWriter& w, ObjectId query, uint32_t slot);
  // Presents back-buffer texture `texture` (a guest-created ID3D11Texture2D).
  bool encode_PresentBuffer(CommandWriter& w, ObjectId texture, uint32_t interval, uint32_t flags);
  // The last handle to one of the guest's kernel objects naming the shared entry of
  // resource or fence `object` (one this context holds) was closed (protocol/README.md 14).
  bool encode_SharedHandleClosed(CommandWriter& w, ObjectId object);

  // Reply: header (OpQueryHostInfo), inline payload with the blob. Copies the blob
  // into `blob`; a bulk or absent payload, a cut or overlong reply is an error.
  ErrorCode decodeReply_QueryHostInfo(const void* data, size_t size, std::vector<uint8_t>& blob);

  // Host side: appends the QueryHostInfo reply for `blob` to `replies`.
  // EncoderOverflow when the blob does not fit one reply command.
  ErrorCode appendReply_QueryHostInfo(std::vector<uint8_t>& replies, const std::vector<uint8_t>& blob);

}
