// SPDX-License-Identifier: MIT
#pragma once

// Entry points shared by the libFuzzer targets (fuzz_*.cpp, clang + sanitizers) and
// the regression test (regression_test.cpp, the default gcc build). Each one feeds
// untrusted bytes through the same code the host runs on guest input and reports what
// happened; a broken invariant is a finding even when nothing crashed.

#include <cstddef>
#include <cstdint>
#include <string>

namespace npt::fuzz {

struct Outcome {
  bool accepted = false;         // the input went through without a rejection
  uint32_t code = 0;             // stable error code of the first rejection (0 = none)
  std::string broken;            // non-empty: an invariant failed (a finding)
};

// (a) DXBC: container reader, checksum, signature parse/write, token scanner,
// strip + signature rebuild, disassembler (+ lossless re-assembly), and the host's
// shader bytecode validation; also the bytes as a bare DDI token stream.
Outcome runDxbc(const uint8_t* data, size_t size);

// (b) Transport: a context's shared memory built from the bytes (ring headers and
// data, reply/push/fence areas, bulk region 0), consumed by the host with a dispatcher
// that reads every command, writes replies and rewrites shared memory mid-dispatch.
// code = FatalReason of the context (0 if it stayed alive).
Outcome runTransport(const uint8_t* data, size_t size);

// (c) Protocol: a command stream decoded against a handle table holding one object of
// every interface, dispatched into the generated recording backend.
// code = protocol ErrorCode.
Outcome runProtocol(const uint8_t* data, size_t size);

// (d) Host info: the bytes as a QueryHostInfo blob, parsed as the guest does; an
// accepted blob must serialize back to the same bytes. code = protocol ErrorCode.
Outcome runHostInfo(const uint8_t* data, size_t size);

// (e) Executor: a command stream through StreamDecoder and the host executor (validation,
// object table) onto the recording backend, whose driver invariants must hold; every
// backend object must be released by the end. code = protocol ErrorCode of a decoder
// rejection, else the executor's FatalCode (0 if the context stayed alive).
Outcome runExecutor(const uint8_t* data, size_t size);

// (f) Sharing registry: the section every worker of a server instance writes, from an
// image in the bytes, driven through the registry's API by an honest worker while hostile
// writes (some by a second thread during a call) change it (registry_input.h). code = 1
// when the image's header is refused at attach, else 0.
Outcome runRegistry(const uint8_t* data, size_t size);

}  // namespace npt::fuzz
