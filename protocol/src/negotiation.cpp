// SPDX-License-Identifier: MIT
#include <cstring>

#include "npt/protocol/negotiation.h"
#include "npt/protocol/reader.h"

namespace npt::protocol {

  Capabilities Capabilities::all() {
    Capabilities c;
    for (uint16_t i = 1; i < kInterfaceCount; i++)
      if (interfaceName(i)) c.set(i, true);
    return c;
  }

  void Capabilities::set(uint16_t iface, bool on) {
    if (iface >= kInterfaceCount) return;
    if (on) interfaces[iface >> 3] |= uint8_t(1u << (iface & 7));
    else    interfaces[iface >> 3] &= uint8_t(~(1u << (iface & 7)));
  }

  bool encodeHello(CommandWriter& w, const Capabilities& caps) {
    w.begin(OpHello);
    w.u32(kProtocolMagic);
    w.u32(uint32_t(caps.major) | (uint32_t(caps.minor) << 16));
    w.u32(kInterfaceCount);
    w.bytes(caps.interfaces.data(), caps.interfaces.size());
    return w.end();
  }

  ErrorCode decodeHello(const void* data, size_t size, Capabilities& caps) {
    if (size < 4) return ErrorCode::Truncated;
    uint32_t h;
    std::memcpy(&h, data, 4);
    if (headerOpcode(h) != OpHello) return ErrorCode::UnknownOpcode;
    if (size_t(headerWords(h)) * 4 != size) return ErrorCode::BadHeader;
    CommandReader r(static_cast<const uint8_t*>(data) + 4, size - 4);
    if (r.u32() != kProtocolMagic && r.ok()) return ErrorCode::VersionMismatch;
    uint32_t version = r.u32();
    uint32_t bits = r.u32();
    if (!r.ok()) return r.error();
    if (bits > 65536) return ErrorCode::CountTooLarge;
    const uint8_t* map = r.bytes((bits + 7) / 8);
    if (!r.ok()) return r.error();
    if (!r.atEnd()) return ErrorCode::TrailingBytes;
    caps = Capabilities();
    caps.major = uint16_t(version);
    caps.minor = uint16_t(version >> 16);
    // Ids beyond what this build knows are ignored: they are newer interfaces.
    for (uint32_t i = 0; i < bits && i < kInterfaceCount; i++)
      caps.set(uint16_t(i), (map[i >> 3] >> (i & 7)) & 1);
    return ErrorCode::Ok;
  }

  ErrorCode negotiate(const Capabilities& guest, const Capabilities& host, Capabilities& out) {
    if (guest.major != host.major) return ErrorCode::VersionMismatch;
    out = Capabilities();
    out.major = guest.major;
    out.minor = guest.minor < host.minor ? guest.minor : host.minor;
    for (size_t i = 0; i < out.interfaces.size(); i++)
      out.interfaces[i] = guest.interfaces[i] & host.interfaces[i];
    return ErrorCode::Ok;
  }

}
