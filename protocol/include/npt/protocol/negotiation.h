// SPDX-License-Identifier: MIT
#pragma once

#include <array>

#include "writer.h"
#include "npt_ids.h"

namespace npt::protocol {

  // What one side speaks: protocol version and the set of interface ids it
  // implements. A host advertises its set; the guest exposes (QueryInterface,
  // entry points) only interfaces in the intersection, so a guest runs against
  // an older host that lacks optional interfaces such as ID3D11Device5.
  struct Capabilities {
    uint16_t major = kProtocolMajor;
    uint16_t minor = kProtocolMinor;
    std::array<uint8_t, (kInterfaceCount + 7) / 8> interfaces = { };

    static Capabilities all();
    bool supports(uint16_t iface) const { return iface < kInterfaceCount && ((interfaces[iface >> 3] >> (iface & 7)) & 1); }
    void set(uint16_t iface, bool on);
  };

  // Hello message (control opcode OpHello), exchanged once each way on the
  // transport's handshake before any command:
  //   u32 magic 'NPT1', u16 major, u16 minor, u32 bitCount, ceil(bitCount/8) bytes bitmap, pad to 4.
  bool      encodeHello(CommandWriter& w, const Capabilities& caps);
  ErrorCode decodeHello(const void* data, size_t size, Capabilities& caps);

  // Intersection; VersionMismatch when majors differ.
  ErrorCode negotiate(const Capabilities& guest, const Capabilities& host, Capabilities& out);

}
