// SPDX-License-Identifier: MIT
#pragma once

// The recording backend: a fake D3D11 driver for native tests and fuzzing. It renders
// nothing; it records the calls the executor makes, and it checks what a real driver
// silently relies on (the invariants validation exists to guarantee):
//   * every object pointer it receives is one of its own live objects of the expected
//     kind and of the same device (wrong-type, stale or foreign handles never reach it);
//   * slot ranges and counts are within the D3D11 limits;
//   * boxes, copy regions, subresource indices and view ranges lie inside the resource;
//   * every byte of initial data, UpdateSubresource sources and shader bytecode that the
//     footprint implies is readable (it is read, so AddressSanitizer sees an overrun);
//   * Map memory is exactly the subresource (pitches are padded, as drivers do) and is
//     freed at Unmap, so reads or writes past it or after Unmap are sanitizer reports;
//   * references are balanced (a Release below zero is a violation; the live-object
//     count tells a test whether everything was released).
// A broken invariant is recorded as a violation (the fuzz harness turns it into a
// finding); it never throws or aborts by itself.
//
// Selected by name: registerRecordingBackend() adds "recording" to openBackend().

#include <cstdint>
#include <string>
#include <vector>

namespace npt::backends::recording {

struct Journal {
  std::vector<const char*> calls;          // method names in call order (bounded: kMaxCalls)
  std::vector<std::string> violations;     // broken driver invariants, in order
  uint64_t unhandledCalls = 0;             // calls the fake answers with its generated default
  // Guest-derived memory the driver read (initial data, update sources, bytecode, arrays):
  // a test checks that none of it is guest-visible shared memory (read once: the host
  // validates and executes its own copy). Bounded: kMaxReads.
  struct Read { const void* data; uint64_t size; };
  std::vector<Read> reads;
  static constexpr size_t kMaxCalls = 1 << 16;
  static constexpr size_t kMaxReads = 1 << 12;
};

// Adds the backend "recording" to openBackend() (idempotent).
void registerRecordingBackend();

// The process-wide journal (the fake backend is used from one thread at a time).
Journal& journal();
void resetJournal();

// Fake COM objects alive right now (devices, contexts, resources, views, states...).
int64_t liveObjects();

// Whether any read of the journal overlaps [begin, begin + size).
bool journalReadInside(const void* begin, uint64_t size);

// Whether the journal recorded a call to `method` ("CreateTexture2D", "Draw", ...).
bool journalHas(const char* method);

}  // namespace npt::backends::recording
