// SPDX-License-Identifier: MIT
#pragma once

// The DXBC checksum: MD5 over the container from byte 20 (after magic and checksum)
// with a non-standard final block (bit count in the first word, (bitcount >> 2) | 1 in
// the last one). Hosts reject containers whose checksum does not match.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace dxbc {

using Checksum = std::array<uint32_t, 4>;

// Checksum of data as it would be hashed (i.e. the container bytes from offset 20).
Checksum computeChecksumOfPayload(std::span<const uint8_t> payload);

// Checksum of a whole container; returns zeros if the span is shorter than 20 bytes.
Checksum computeContainerChecksum(std::span<const uint8_t> container);

// Recomputes and stores the checksum in place (container must be >= 20 bytes).
bool updateContainerChecksum(std::span<uint8_t> container);

}  // namespace dxbc
