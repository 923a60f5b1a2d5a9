// SPDX-License-Identifier: MIT
#pragma once

// Signature entries as the D3D11 runtime hands them to a user-mode driver.
//
//   D3D10DDIARG_SIGNATURE_ENTRY     (D3D11.0 stride, 12 bytes):
//     D3D10_SB_NAME SystemValue; UINT Register; BYTE Mask; (3 bytes padding)
//   D3D11_1DDIARG_SIGNATURE_ENTRY   (D3D11.1 stride, 20 bytes):
//     ... as above ...; D3D10_SB_REGISTER_COMPONENT_TYPE RegisterComponentType;
//     D3D11_SB_OPERAND_MIN_PRECISION MinPrecision;
//
// Entries carry no names, no semantic indices and no streams.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "dxbc/status.h"

namespace dxbc {

enum class DdiStride : uint32_t { D3D11_0 = 12, D3D11_1 = 20 };

struct DdiSignatureEntry {
  uint32_t systemValue = 0;       // D3D10_SB_NAME
  uint32_t registerIndex = 0;     // 0xffffffff for register-less outputs
  uint8_t mask = 0;
  uint32_t componentType = 0;     // 11.1 only; 0 (unknown) with the 11.0 stride
  uint32_t minPrecision = 0;      // 11.1 only
};

// Decodes count entries of the given stride from raw DDI memory (bytes must hold
// count * stride bytes).
Status decodeDdiSignature(std::span<const uint8_t> bytes, uint32_t count, DdiStride stride,
                          std::vector<DdiSignatureEntry>& out);

// Encodes entries in the DDI layout (for tests and for tools that fake the runtime).
void encodeDdiSignature(std::span<const DdiSignatureEntry> entries, DdiStride stride,
                        std::vector<uint8_t>& out);

}  // namespace dxbc
