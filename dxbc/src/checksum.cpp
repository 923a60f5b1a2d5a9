// SPDX-License-Identifier: MIT
#include "dxbc/checksum.h"

#include <cstring>

namespace dxbc {

namespace {

// Plain MD5 block function (RFC 1321); only the final padding differs for DXBC.
constexpr uint32_t kShift[64] = {
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
  5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
  4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
  6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};

constexpr uint32_t kSine[64] = {
  0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
  0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
  0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
  0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
  0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
  0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
  0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
  0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

inline uint32_t rotl(uint32_t v, uint32_t s) { return (v << s) | (v >> (32 - s)); }

void md5Block(uint32_t state[4], const uint8_t block[64]) {
  uint32_t m[16];
  for (int i = 0; i < 16; ++i)
    m[i] = uint32_t(block[4 * i]) | (uint32_t(block[4 * i + 1]) << 8) |
           (uint32_t(block[4 * i + 2]) << 16) | (uint32_t(block[4 * i + 3]) << 24);

  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  for (uint32_t i = 0; i < 64; ++i) {
    uint32_t f, g;
    if (i < 16) {
      f = (b & c) | (~b & d);
      g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) & 15;
    } else if (i < 48) {
      f = b ^ c ^ d;
      g = (3 * i + 5) & 15;
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) & 15;
    }
    uint32_t next = b + rotl(a + f + kSine[i] + m[g], kShift[i]);
    a = d;
    d = c;
    c = b;
    b = next;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
}

void storeLE32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v);
  p[1] = uint8_t(v >> 8);
  p[2] = uint8_t(v >> 16);
  p[3] = uint8_t(v >> 24);
}

}  // namespace

Checksum computeChecksumOfPayload(std::span<const uint8_t> payload) {
  uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  const size_t fullBlocks = payload.size() / 64;
  for (size_t i = 0; i < fullBlocks; ++i)
    md5Block(state, payload.data() + i * 64);

  const size_t tail = payload.size() % 64;
  // An empty span may carry a null data pointer: never hand it to memcpy.
  const uint8_t* rest = tail ? payload.data() + fullBlocks * 64 : nullptr;
  // DXBC stores the bit count as the first word of the last block and (bits >> 2) | 1
  // (i.e. bytes * 2 + 1) as its last word, instead of MD5's 64-bit trailer.
  const uint32_t bitCount = uint32_t(payload.size() * 8);
  const uint32_t trailer = (bitCount >> 2) | 1;

  uint8_t block[64];
  if (tail >= 56) {
    std::memset(block, 0, sizeof(block));
    std::memcpy(block, rest, tail);   // tail >= 56 here
    block[tail] = 0x80;
    md5Block(state, block);

    std::memset(block, 0, sizeof(block));
    storeLE32(block, bitCount);
    storeLE32(block + 60, trailer);
    md5Block(state, block);
  } else {
    std::memset(block, 0, sizeof(block));
    storeLE32(block, bitCount);
    if (tail)
      std::memcpy(block + 4, rest, tail);
    block[4 + tail] = 0x80;
    storeLE32(block + 60, trailer);
    md5Block(state, block);
  }
  return Checksum{state[0], state[1], state[2], state[3]};
}

Checksum computeContainerChecksum(std::span<const uint8_t> container) {
  if (container.size() < 20)
    return Checksum{};
  return computeChecksumOfPayload(container.subspan(20));
}

bool updateContainerChecksum(std::span<uint8_t> container) {
  if (container.size() < 20)
    return false;
  Checksum sum = computeContainerChecksum(container);
  for (int i = 0; i < 4; ++i)
    storeLE32(container.data() + 4 + 4 * i, sum[i]);
  return true;
}

}  // namespace dxbc
