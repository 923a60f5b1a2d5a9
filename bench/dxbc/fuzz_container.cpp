// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes through the reader, signature parser, scanner,
// strip and rebuild, and as raw DDI data (tokens + entries). Built and run by
// run_fuzz.sh (clang, -fsanitize=fuzzer,address,undefined); not part of the test suite.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dxbc/dxbc.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dxbc;
  std::span<const uint8_t> bytes(data, size);

  ReadOptions options;
  options.verifyChecksum = false;
  ContainerReader container;
  if (ContainerReader::parse(bytes, container, options).ok()) {
    ContainerSignatures signatures;
    (void)readContainerSignatures(container, signatures);
    DdiShader ddi;
    std::vector<uint8_t> out;
    if (stripContainer(container, DdiStride::D3D11_1, ddi).ok())
      (void)rebuildContainer(ddi.tokens, ddi.view(), out);
  }

  // The same bytes as a DDI delivery: entries first (11.1 stride), tokens after.
  if (size >= 4) {
    const uint32_t count = data[0] % 8;
    const size_t entryBytes = count * uint32_t(DdiStride::D3D11_1);
    if (size >= 4 + entryBytes) {
      std::vector<DdiSignatureEntry> entries;
      if (decodeDdiSignature(bytes.subspan(4, entryBytes), count, DdiStride::D3D11_1, entries).ok()) {
        DdiSignatures ddi{entries, entries, entries, true};
        std::vector<uint8_t> tokens(data + 4 + entryBytes, data + size);   // exact-size copy
        std::vector<uint8_t> out;
        (void)rebuildContainer(tokens, ddi, out);
      }
    }
  }
  return 0;
}
