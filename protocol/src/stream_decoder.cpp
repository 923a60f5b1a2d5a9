// SPDX-License-Identifier: MIT
#include <cstring>

#include "npt/protocol/control.h"
#include "npt/protocol/decoder.h"
#include "npt_dispatch.h"
#include "npt_ids.h"

namespace npt::protocol {

  DecodeResult StreamDecoder::decode(const void* stream, size_t size) {
    // Read once: the whole batch is copied out of (possibly shared) memory
    // before any byte is interpreted, so the guest cannot change a command
    // between its validation and its use. One copy per batch, not per command.
    m_copy.assign(static_cast<const uint8_t*>(stream), static_cast<const uint8_t*>(stream) + size);
    return decodePrivate(m_copy.data(), size);
  }

  DecodeResult StreamDecoder::decodePrivate(const void* commands, size_t size) {
    // The decoders read word arrays in place, which needs a 4-byte aligned batch
    // (decodeCommands refuses others); a misaligned span is copied first.
    if (reinterpret_cast<uintptr_t>(commands) & 3) [[unlikely]]
      return decode(commands, size);
    DecodeResult result;
    decodeCommands(static_cast<const uint8_t*>(commands), size, m_ctx, m_dispatch, &StreamDecoder::decodeControl,
                   this, result);
    return result;
  }

  ErrorCode StreamDecoder::decodeControl(void* self, uint16_t opcode, const uint8_t* args, size_t size) {
    CommandReader r(args, size);
    ErrorCode code = static_cast<StreamDecoder*>(self)->decodeControl(opcode, r);
    return code == ErrorCode::Ok && !r.ok() ? r.error() : code;
  }

  ErrorCode StreamDecoder::decodeControl(uint16_t opcode, CommandReader& r) {
    switch (opcode) {
      case OpSelectObject: {
        ObjectId id = r.u32();
        if (!r.ok()) return r.error();
        if (!r.atEnd()) return ErrorCode::TrailingBytes;
        if (!m_ctx.handles.contains(id)) return ErrorCode::UnknownObject;
        m_ctx.self = id;
        m_ctx.selfIface = m_ctx.handles.ifaceOf(id);
        return ErrorCode::Ok;
      }
      case OpDestroyObject: {
        ObjectId id = r.u32();
        if (!r.ok()) return r.error();
        if (!r.atEnd()) return ErrorCode::TrailingBytes;
        ErrorCode code = m_ctx.handles.destroy(id);
        if (code == ErrorCode::Ok) {
          dispatchDestroy(m_dispatch, id);
          if (m_ctx.self == id) { m_ctx.self = 0; m_ctx.selfIface = 0; }
        }
        return code;
      }
      case OpNop:
        r.bytes(r.remaining());
        return ErrorCode::Ok;
      case OpQueryHostInfo: {
        if (!r.atEnd()) return ErrorCode::TrailingBytes;
        m_hostInfo.clear();
        m_dispatch.queryHostInfo(m_hostInfo);
        return m_ctx.replies ? appendReply_QueryHostInfo(*m_ctx.replies, m_hostInfo) : ErrorCode::Ok;
      }
      case OpBindPushSlot: {
        ObjectId query = r.u32();
        uint32_t slot = r.u32();
        if (!r.ok()) return r.error();
        if (!r.atEnd()) return ErrorCode::TrailingBytes;
        if (ErrorCode e = m_ctx.handles.check(query, Iface_ID3D11Asynchronous, false); e != ErrorCode::Ok) return e;
        if (slot >= m_ctx.pushSlotCount) return ErrorCode::CountTooLarge;
        m_dispatch.bindPushSlot(query, slot);
        return ErrorCode::Ok;
      }
      case OpPresentBuffer: {
        ObjectId texture = r.u32();
        uint32_t interval = r.u32();
        uint32_t flags = r.u32();
        if (!r.ok()) return r.error();
        if (!r.atEnd()) return ErrorCode::TrailingBytes;
        if (ErrorCode e = m_ctx.handles.check(texture, Iface_ID3D11Texture2D, false); e != ErrorCode::Ok) return e;
        // Interval (0..4) and flags are the presenter's to judge, like Present's.
        m_dispatch.presentBuffer(texture, interval, flags);
        return ErrorCode::Ok;
      }
      case OpSharedHandleClosed: {
        ObjectId object = r.u32();
        if (!r.ok()) return r.error();
        if (!r.atEnd()) return ErrorCode::TrailingBytes;
        if (!object) return ErrorCode::NullNotAllowed;
        if (!m_ctx.handles.contains(object)) return ErrorCode::UnknownObject;
        // Which objects have a shared entry is the executor's to judge.
        m_dispatch.sharedHandleClosed(object);
        return ErrorCode::Ok;
      }
      default:
        return ErrorCode::UnknownOpcode;
    }
  }

  const char* errorName(ErrorCode code) {
    switch (code) {
      case ErrorCode::Ok: return "ok";
      case ErrorCode::Truncated: return "truncated";
      case ErrorCode::BadHeader: return "bad-header";
      case ErrorCode::UnknownOpcode: return "unknown-opcode";
      case ErrorCode::UnknownObject: return "unknown-object";
      case ErrorCode::WrongObjectType: return "wrong-object-type";
      case ErrorCode::NullNotAllowed: return "null-not-allowed";
      case ErrorCode::CountTooLarge: return "count-too-large";
      case ErrorCode::BadUnionArm: return "bad-union-arm";
      case ErrorCode::TrailingBytes: return "trailing-bytes";
      case ErrorCode::ObjectIdInUse: return "object-id-in-use";
      case ErrorCode::QuotaExceeded: return "quota-exceeded";
      case ErrorCode::BadString: return "bad-string";
      case ErrorCode::BadPayload: return "bad-payload";
      case ErrorCode::UnknownIid: return "unknown-iid";
      case ErrorCode::NoObjectSelected: return "no-object-selected";
      case ErrorCode::EncoderOverflow: return "encoder-overflow";
      case ErrorCode::EncoderInvalid: return "encoder-invalid";
      case ErrorCode::VersionMismatch: return "version-mismatch";
      case ErrorCode::BadEnum: return "bad-enum";
    }
    return "unknown-error";
  }

}
