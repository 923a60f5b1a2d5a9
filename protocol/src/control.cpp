// SPDX-License-Identifier: MIT
#include <cstring>

#include "npt/protocol/control.h"
#include "npt/protocol/reader.h"

namespace npt::protocol {

  bool encode_QueryHostInfo(CommandWriter& w) {
    w.begin(OpQueryHostInfo);
    return w.end();
  }

  bool encode_BindPushSlot(CommandWriter& w, ObjectId query, uint32_t slot) {
    if (!query) { w.fail(); return false; }
    w.begin(OpBindPushSlot);
    w.u32(query);
    w.u32(slot);
    return w.end();
  }

  bool encode_PresentBuffer(CommandWriter& w, ObjectId texture, uint32_t interval, uint32_t flags) {
    if (!texture) { w.fail(); return false; }
    w.begin(OpPresentBuffer);
    w.u32(texture);
    w.u32(interval);
    w.u32(flags);
    return w.end();
  }

  bool encode_SharedHandleClosed(CommandWriter& w, ObjectId object) {
    if (!object) { w.fail(); return false; }
    w.begin(OpSharedHandleClosed);
    w.u32(object);
    return w.end();
  }

  ErrorCode appendReply_QueryHostInfo(std::vector<uint8_t>& replies, const std::vector<uint8_t>& blob) {
    // header + payload tag + bytes padded to 4 must fit one command
    size_t padded = (blob.size() + 3) & ~size_t(3);
    if (blob.size() >= kPayloadBulkTag || 8 + padded > kMaxCommandBytes)
      return ErrorCode::EncoderOverflow;
    size_t start = replies.size();
    replies.resize(start + 8 + padded, 0);
    uint32_t header = packHeader(OpQueryHostInfo, uint16_t((8 + padded) / 4));
    uint32_t tag = uint32_t(blob.size());
    std::memcpy(replies.data() + start, &header, 4);
    std::memcpy(replies.data() + start + 4, &tag, 4);
    if (!blob.empty()) std::memcpy(replies.data() + start + 8, blob.data(), blob.size());
    return ErrorCode::Ok;
  }

  ErrorCode decodeReply_QueryHostInfo(const void* data, size_t size, std::vector<uint8_t>& blob) {
    if (size < 4) return ErrorCode::Truncated;
    uint32_t h;
    std::memcpy(&h, data, 4);
    if (headerOpcode(h) != OpQueryHostInfo) return ErrorCode::UnknownOpcode;
    if (size_t(headerWords(h)) * 4 != size) return ErrorCode::BadHeader;
    CommandReader r(static_cast<const uint8_t*>(data) + 4, size - 4);
    Payload p = r.payload(0xfffffffdu);
    if (!r.ok()) return r.error();
    if (p.isNull || p.isBulk) return ErrorCode::BadPayload;  // the blob always travels inline
    if (!r.atEnd()) return ErrorCode::TrailingBytes;
    const uint8_t* bytes = static_cast<const uint8_t*>(p.data);
    blob.assign(bytes, bytes + p.size);
    return ErrorCode::Ok;
  }

}
