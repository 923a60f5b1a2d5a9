// SPDX-License-Identifier: MIT
#include "dxbc/ddi_signature.h"

#include "byte_io.h"

namespace dxbc {

Status decodeDdiSignature(std::span<const uint8_t> bytes, uint32_t count, DdiStride stride,
                          std::vector<DdiSignatureEntry>& out) {
  out.clear();
  const uint64_t size = uint64_t(count) * uint32_t(stride);
  if (count > 4096)
    return Status::fail(ErrorCode::SignatureTooLarge, "implausible DDI signature entry count");
  if (size > bytes.size())
    return Status::fail(ErrorCode::InvalidArgument, "DDI signature entries exceed the buffer");
  out.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* e = bytes.data() + size_t(i) * uint32_t(stride);
    DdiSignatureEntry& entry = out[i];
    entry.systemValue = loadLE32(e);
    entry.registerIndex = loadLE32(e + 4);
    entry.mask = e[8];
    if (stride == DdiStride::D3D11_1) {
      entry.componentType = loadLE32(e + 12);
      entry.minPrecision = loadLE32(e + 16);
    }
  }
  return Status::success();
}

void encodeDdiSignature(std::span<const DdiSignatureEntry> entries, DdiStride stride,
                        std::vector<uint8_t>& out) {
  out.assign(entries.size() * uint32_t(stride), 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    uint8_t* e = out.data() + i * uint32_t(stride);
    storeLE32(e, entries[i].systemValue);
    storeLE32(e + 4, entries[i].registerIndex);
    e[8] = entries[i].mask;
    if (stride == DdiStride::D3D11_1) {
      storeLE32(e + 12, entries[i].componentType);
      storeLE32(e + 16, entries[i].minPrecision);
    }
  }
}

}  // namespace dxbc
