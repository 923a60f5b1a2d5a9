// SPDX-License-Identifier: MIT
#pragma once

// Bulk regions added after connect, checked against a running server (--dispatch diag)
// by every kind of guest: native (memfd over the UNIX socket), PE under Wine (the native
// server's /dev/shm file through Z:) and against neptune-server.exe (named mappings).
// Shared by the native and Windows test programs and transport_pe_guest.exe, which has no
// GoogleTest: it returns what failed instead of asserting.
#include <cstring>
#include <string>
#include <vector>

#include "../diagnostic_dispatch.h"
#include "neptune/transport/guest_connection.h"

namespace npt::server::testing {

inline uint64_t fnv_bytes(const uint8_t* data, size_t size, uint64_t hash = 1469598103934665603ull) {
  for (size_t i = 0; i < size; i++)
    hash = (hash ^ data[i]) * 1099511628211ull;
  return hash;
}

// guest: 2 rings, region 0 of 1 MiB, on a server whose --max-bulk is `limit` (16 MiB or
// more leaves room for everything below).
inline std::vector<std::string> check_bulk_regions(transport::GuestConnection& guest, uint64_t limit) {
  using namespace transport;
  std::vector<std::string> failures;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok)
      failures.push_back(what);
  };
  expect(guest.can_add_regions(), "the server grants bulk regions after connect");
  const uint64_t region0 = guest.geometry().bulk_size;

  // A guest uploads more than region 0 holds: one command three times its size, then
  // more, all hashed by the worker.
  std::vector<uint8_t> big(size_t(3 * region0 + 12345));
  const uint32_t query = kDiagQuery;
  uint64_t before[2] = {};   // what the worker hashed before (count, hash)
  size_t n = 0;
  expect(guest.call(0, &query, 4, before, sizeof(before), &n) == kOk, "query the worker's hash");
  uint64_t hash = before[1];
  const uint32_t accum = kDiagAccum;
  for (int k = 0; k < 4; k++) {
    const size_t size = big.size() - size_t(k) * 100000;
    for (size_t i = 0; i < size; i++)
      big[i] = uint8_t(i * 7 + k * 13);
    std::memcpy(big.data(), &accum, 4);
    expect(guest.submit(0, big.data(), size) == kOk, "submit of " + std::to_string(size) + " bytes");
    hash = fnv_bytes(big.data(), size, hash);
  }
  uint64_t result[2] = {};
  expect(guest.call(0, &query, 4, result, sizeof(result), &n) == kOk && result[0] == before[0] + 4 && result[1] == hash,
         "the worker hashed every byte of the four large commands");
  expect(guest.bulk().region_count() >= 2, "a region was added");
  expect(guest.finish(0) == kOk, "finish");

  // A payload reference into an added region, read by the worker through the sizes it knows.
  BulkRef ref = {};
  if (guest.bulk().allocate(2 * region0, &ref)) {
    expect(ref.region != 0, "two region-0 sizes come from an added region");
    uint8_t* bytes = guest.bulk().pointer(ref);
    for (uint64_t i = 0; i < ref.size; i++)
      bytes[i] = uint8_t(i * 3 + 1);
    uint32_t cmd[6] = { kDiagBulkHash, ref.region };
    std::memcpy(&cmd[2], &ref.offset, 8);
    std::memcpy(&cmd[4], &ref.size, 8);
    uint64_t seen = 0;
    expect(guest.call(1, cmd, sizeof(cmd), &seen, sizeof(seen), &n) == kOk && seen == fnv_bytes(bytes, size_t(ref.size)),
           "the worker reads the guest's bytes in an added region");
    guest.bulk().free(ref);
  } else {
    expect(false, "allocate two region-0 sizes after the growth");
  }

  // Large replies: each ring's reply area is a region of its own, mapped on first use.
  uint32_t regions[2] = {};
  for (uint32_t ring = 0; ring < 2; ring++) {
    const uint64_t size = 2 * region0 + 100 + ring;
    uint32_t cmd[4] = { kDiagReplyArea, ring + 5 };
    std::memcpy(&cmd[2], &size, 8);
    uint32_t answer[4] = {};
    Status s = guest.call(ring, cmd, sizeof(cmd), answer, sizeof(answer), &n);
    expect(s == kOk && n == sizeof(answer), "reply area of ring " + std::to_string(ring));
    regions[ring] = answer[0];
    expect(answer[0] != 0, "a two-ring guest's reply area is not region 0");
    const uint8_t* bytes = guest.region_bytes(ring, answer[0], 0, size);
    bool same = bytes != nullptr;
    for (uint64_t i = 0; same && i < size; i++)
      same = bytes[i] == uint8_t(i * 31 + ring + 5);
    expect(same, "the reply's bytes arrive in ring " + std::to_string(ring) + "'s region");
    expect(guest.region_bytes(ring, answer[0], 0, 4 * region0) == nullptr, "bounded by the region's size");
  }
  expect(regions[0] != regions[1], "each ring has its own reply region");

  // The limit: refused with the reason, and the context goes on.
  std::string error;
  expect(guest.add_bulk_region(0, limit, &error) == kOutOfMemory, "more than the limit is refused");
  expect(error.find("bulk memory limit") != std::string::npos && error.find(std::to_string(limit)) != std::string::npos,
         "the refusal names the limit: " + error);
  uint32_t echo[3] = { kDiagEcho, 1, 2 }, back[3] = {};
  expect(guest.call(1, echo, sizeof(echo), back, sizeof(back), &n) == kOk && back[2] == 2, "the context goes on");
  expect(guest.status() == kOk, "the context is alive");
  return failures;
}

inline std::string joined(const std::vector<std::string>& failures) {
  std::string text;
  for (const std::string& f : failures)
    text += "  " + f + "\n";
  return text;
}

}
