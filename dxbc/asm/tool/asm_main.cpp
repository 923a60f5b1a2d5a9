// SPDX-License-Identifier: MIT
// dxbc-asm: the build-time assembler. Same job as `dxbc-tool asm`, as a standalone program
// that meson builds for the build machine (native: true), so the Windows cross build can
// assemble the GS/HS/DS/CS shaders that samples embed.
//
//   dxbc-asm FILE -o OUT [--tokens] [--header NAME]

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "dxbc/asm/assembler.h"

int main(int argc, char** argv) {
  std::string input, output, headerName;
  bool tokensOnly = false;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "-o") && i + 1 < argc)
      output = argv[++i];
    else if (!std::strcmp(argv[i], "--header") && i + 1 < argc)
      headerName = argv[++i];
    else if (!std::strcmp(argv[i], "--tokens"))
      tokensOnly = true;
    else if (input.empty() && argv[i][0] != '-')
      input = argv[i];
    else
      input.clear(), output.clear(), i = argc;
  }
  if (input.empty() || output.empty()) {
    std::fprintf(stderr, "usage: dxbc-asm FILE -o OUT [--tokens] [--header NAME]\n");
    return 2;
  }
  std::ifstream in(input, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "dxbc-asm: cannot open %s\n", input.c_str());
    return 1;
  }
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};

  std::vector<uint8_t> bytes;
  dxbc::sm::AssemblyResult result;
  if (tokensOnly) {
    std::vector<uint32_t> tokens;
    result = dxbc::sm::assembleProgram(text, tokens);
    bytes.resize(tokens.size() * 4);
    std::memcpy(bytes.data(), tokens.data(), bytes.size());
  } else {
    result = dxbc::sm::assembleContainer(text, bytes);
  }
  if (!result.ok) {
    std::fprintf(stderr, "%s\n", result.error.format(input).c_str());
    return 1;
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  if (headerName.empty()) {
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  } else {
    std::string header = dxbc::sm::formatByteArrayHeader(headerName, bytes);
    out.write(header.data(), std::streamsize(header.size()));
  }
  if (!out) {
    std::fprintf(stderr, "dxbc-asm: cannot write %s\n", output.c_str());
    return 1;
  }
  return 0;
}
