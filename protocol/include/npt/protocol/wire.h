// SPDX-License-Identifier: MIT
#pragma once

// Neptune wire format basics shared by encoders, decoders and the transport.
// protocol/README.md is the normative description; this header mirrors it.

#include <cstddef>
#include <cstdint>

// Hot-path helpers of the codec: the generated decoders are large, so GCC's
// heuristics would otherwise leave these one-compare functions out of line.
#if defined(__GNUC__)
#define NPT_INLINE inline __attribute__((always_inline))
#define NPT_NOINLINE __attribute__((noinline))
#else
#define NPT_INLINE inline
#define NPT_NOINLINE
#endif

namespace npt::protocol {

  constexpr uint32_t kProtocolMagic = 0x3154504eu;  // "NPT1"
  constexpr uint16_t kProtocolMajor = 1;
  constexpr uint16_t kProtocolMinor = 0;

  // A command is a 4-byte header followed by 4-byte aligned arguments:
  //   bits  0..15  opcode (interface id << 8 | method id; interface 0 = control)
  //   bits 16..31  total length in 4-byte words, header included (1..65535)
  constexpr size_t   kHeaderBytes = 4;
  constexpr size_t   kMaxCommandBytes = 65535u * 4u;
  inline uint32_t    packHeader(uint16_t opcode, uint16_t words) { return uint32_t(opcode) | (uint32_t(words) << 16); }
  inline uint16_t    headerOpcode(uint32_t h) { return uint16_t(h & 0xffffu); }
  inline uint16_t    headerWords(uint32_t h) { return uint16_t(h >> 16); }

  // Control opcodes (interface 0).
  enum ControlOpcode : uint16_t {
    OpSelectObject  = 0x0001,  // u32 id: the object later commands are invoked on
    OpDestroyObject = 0x0002,  // u32 id: the guest dropped its last reference
    OpNop           = 0x0003,  // padding, any length
    OpHello         = 0x0004,  // capability negotiation (see negotiation.h)
    OpQueryHostInfo = 0x0005,  // no arguments; sync: reply = host-info blob (host_info.h)
    OpBindPushSlot  = 0x0006,  // u32 query id, u32 push slot: the host writes the query's results there
    OpPresentBuffer = 0x0007,  // u32 texture id, u32 sync interval, u32 flags: present a guest back buffer
    OpSharedHandleClosed = 0x0008,  // u32 id of a shared resource or fence: one guest kernel object naming its entry is gone
  };

  // Objects are named by guest-assigned 32-bit ids; 0 is NULL.
  using ObjectId = uint32_t;

  // Out-of-line data lives in bulk memory; the transport validates the descriptor.
  struct BulkRef {
    uint32_t region;
    uint32_t offset;
    uint32_t size;
  };

  // A byte payload: inline in the command, or a bulk-memory descriptor.
  // Wire: u32 tag; tag == kPayloadBulkTag -> BulkRef (3 x u32) follows;
  // tag == kPayloadNullTag -> absent; otherwise tag = inline length, bytes, zero padding to 4.
  constexpr uint32_t kPayloadBulkTag = 0xfffffffeu;
  constexpr uint32_t kPayloadNullTag = 0xffffffffu;
  constexpr uint32_t kNullStringTag  = 0xffffffffu;

  struct Payload {
    const void* data = nullptr;  // inline bytes (valid while the command buffer lives)
    uint32_t    size = 0;        // inline length, or bulk.size
    bool        isBulk = false;
    bool        isNull = true;
    BulkRef     bulk = {};

    static Payload none() { return Payload(); }
    static Payload inlineBytes(const void* p, uint32_t n) { Payload r; r.data = p; r.size = n; r.isNull = false; return r; }
    static Payload bulkRef(BulkRef ref) { Payload r; r.bulk = ref; r.size = ref.size; r.isBulk = true; r.isNull = false; return r; }
  };

  // Stable error codes. A decoder error makes the context's stream fatal.
  // Never renumber; append only.
  enum class ErrorCode : uint32_t {
    Ok               = 0,
    Truncated        = 1,   // a read ran past the end of the command or stream (also a header longer than the stream)
    BadHeader        = 2,   // zero length; a Hello or reply whose length is not the bytes given; a host-info blob without its magic
    UnknownOpcode    = 3,   // opcode not in the negotiated protocol
    UnknownObject    = 4,   // id not live in this context
    WrongObjectType  = 5,   // id names an object of an incompatible interface
    NullNotAllowed   = 6,   // NULL where the API requires an object or pointer
    CountTooLarge    = 7,   // array count beyond its registry bound
    BadUnionArm      = 8,   // union discriminator names no arm
    TrailingBytes    = 9,   // command longer than its arguments
    ObjectIdInUse    = 10,  // a create reused a live id (or used 0)
    QuotaExceeded    = 11,  // per-context object or scratch-memory quota
    BadString        = 12,  // string too long or containing NUL
    BadPayload       = 13,  // payload longer than its bound
    UnknownIid       = 14,  // REFIID naming no remoted interface
    NoObjectSelected = 15,  // method command before any SelectObject
    EncoderOverflow  = 16,  // encoder side: command does not fit the buffer
    EncoderInvalid   = 17,  // encoder side: arguments the wire cannot express (NULL array with count)
    VersionMismatch  = 18,  // Hello with an unsupported major version
    BadEnum          = 19,  // value outside the enum type's range
  };

  const char* errorName(ErrorCode code);

}
