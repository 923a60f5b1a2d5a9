// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "arena.h"
#include "handle_table.h"
#include "reader.h"

namespace npt::protocol {

  class Dispatch;  // generated: npt_dispatch.h

  // Everything generated decode functions need besides the reader.
  struct DecodeContext {
    HandleTable  handles;
    ScratchArena arena;
    ObjectId     self = 0;
    uint16_t     selfIface = 0;
    const uint8_t* supportedIfaces = nullptr;  // bitmap by interface id; null = all compiled in
    std::vector<uint8_t>* replies = nullptr;   // where sync methods append replies
    // Push slots of this context (transport geometry); BindPushSlot with a slot
    // at or above it is CountTooLarge. The server sets it; the default accepts any.
    uint32_t     pushSlotCount = UINT32_MAX;

    explicit DecodeContext(size_t arenaBytes = 4u << 20) : arena(arenaBytes) { }
  };

  // Where and why a stream became fatal.
  struct DecodeResult {
    ErrorCode code = ErrorCode::Ok;
    size_t    offset = 0;      // byte offset of the failing command in the stream
    uint16_t  opcode = 0;      // the failing command's opcode (0: none failed, or its header was cut)
    size_t    commands = 0;    // commands executed before the failure
  };

  // Decodes a stream of commands. Each command is copied out of the source
  // (shared memory) before any field is read: the guest cannot change bytes
  // under the decoder. Stops at the first error; the context is then fatal.
  class StreamDecoder {
  public:
    StreamDecoder(DecodeContext& ctx, Dispatch& dispatch) : m_ctx(ctx), m_dispatch(dispatch) { }

    DecodeResult decode(const void* stream, size_t size);

    // Same, for bytes the caller already copied into memory the guest cannot
    // write (the transport copies each span out of shared memory): no second copy.
    DecodeResult decodePrivate(const void* commands, size_t size);

  private:
    static ErrorCode decodeControl(void* self, uint16_t opcode, const uint8_t* args, size_t size);
    ErrorCode decodeControl(uint16_t opcode, CommandReader& r);

    DecodeContext&       m_ctx;
    Dispatch&            m_dispatch;
    std::vector<uint8_t> m_copy;
    std::vector<uint8_t> m_hostInfo;  // QueryHostInfo's blob, reused
  };

  // Generated (npt_codec.cpp): decodes and dispatches the commands in [src, src + size),
  // handing control commands (interface 0) to `control`; stops at the first error.
  // src must be 4-byte aligned (word arrays are read in place; StreamDecoder copies a
  // misaligned batch first): a misaligned src is refused as BadHeader at offset 0.
  using ControlDecoder = ErrorCode (*)(void* self, uint16_t opcode, const uint8_t* args, size_t size);
  void decodeCommands(const uint8_t* src, size_t size, DecodeContext& ctx, Dispatch& d,
                      ControlDecoder control, void* controlSelf, DecodeResult& result);

}
