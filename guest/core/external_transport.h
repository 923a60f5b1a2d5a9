// SPDX-License-Identifier: MIT
#pragma once

// A transport the process's Neptune guest runtime uses instead of connecting to a server
// through NPT_SERVER: shared memory that someone else had the host lay out and mapped
// (a context's blob 0, transport/layout.h), and the functions the runtime needs beyond
// the memory: waking an idle host, sleeping until a word changes and, optionally,
// mapping the bulk regions the host adds after connect (transport/README.md). Triton's
// kernel transport hands one over (triton/kernel/CONTRACT.md), through the guest
// d3d11.dll's export NptAttachExternalTransport, before it creates its first target
// device. Plain C types: the two sides are different modules.

#include <stdint.h>

extern "C" {

struct NptExternalTransport {
  uint32_t struct_size;      // sizeof(NptExternalTransport)
  uint32_t version;          // kNptExternalTransportVersion
  void* context;             // passed back to the functions
  uint8_t* shared_base;      // the context's memory, ControlBlock at offset 0
  uint64_t shared_size;
  // The guest incremented *word (the control block's doorbell) after finding the host
  // idle: wake the host.
  void (*doorbell)(void* context, uint32_t* word);
  // Sleep while *word == expected, until woken or timeout_us passed. Returns 0 once the
  // host is known to be gone, nonzero otherwise.
  int32_t (*block)(void* context, const uint32_t* word, uint32_t expected, uint32_t timeout_us);
  // Version 2. Bulk regions added after connect (ids 1..63, the host's grants): map
  // region `region` of exactly `size` bytes (null when it cannot), and free one the guest
  // released. Both null: the connection has region 0 only (it asks the host for no more).
  uint8_t* (*map_region)(void* context, uint32_t region, uint64_t size);
  void (*unmap_region)(void* context, uint32_t region);
};

// Returns S_OK, or E_INVALIDARG (malformed description, memory not laid out by a host)
// or E_FAIL (the runtime is already connected).
typedef long (*PFN_NptAttachExternalTransport)(const NptExternalTransport* transport);

}

inline constexpr uint32_t kNptExternalTransportVersion = 2;
inline constexpr const char* kNptAttachExternalTransportExport = "NptAttachExternalTransport";
