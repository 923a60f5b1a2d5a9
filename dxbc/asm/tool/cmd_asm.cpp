// SPDX-License-Identifier: MIT
// dxbc-tool asm: fxc-syntax assembly to a complete container (or a bare token stream).

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dxbc/asm/assembler.h"
#include "tool_command.h"

namespace dxbc::tool {
namespace {

constexpr const char* kUsage = "usage: dxbc-tool asm FILE -o OUT [--tokens] [--header NAME]\n";

int runAsm(std::span<char* const> args) {
  std::string input, output, headerName;
  bool tokensOnly = false;
  for (size_t i = 0; i < args.size(); i++) {
    if (!std::strcmp(args[i], "-o") && i + 1 < args.size())
      output = args[++i];
    else if (!std::strcmp(args[i], "--header") && i + 1 < args.size())
      headerName = args[++i];
    else if (!std::strcmp(args[i], "--tokens"))
      tokensOnly = true;
    else if (input.empty() && args[i][0] != '-')
      input = args[i];
    else {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  if (input.empty() || output.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::vector<uint8_t> source;
  if (!readFile(input, source))
    return 1;
  std::string_view text(reinterpret_cast<const char*>(source.data()), source.size());

  std::vector<uint8_t> bytes;
  sm::AssemblyResult result;
  if (tokensOnly) {
    std::vector<uint32_t> tokens;
    result = sm::assembleProgram(text, tokens);
    bytes.resize(tokens.size() * 4);
    std::memcpy(bytes.data(), tokens.data(), bytes.size());
  } else {
    result = sm::assembleContainer(text, bytes);
  }
  if (!result.ok) {
    std::fprintf(stderr, "%s\n", result.error.format(input).c_str());
    return 1;
  }
  if (!headerName.empty()) {
    std::string header = sm::formatByteArrayHeader(headerName, bytes);
    bytes.assign(header.begin(), header.end());
  }
  return writeFile(output, bytes) ? 0 : 1;
}

const CommandRegistration kAsm{
    {"asm", "FILE -o OUT [--tokens|--header NAME]", "assemble fxc-syntax text into a container", runAsm}};

}  // namespace
}  // namespace dxbc::tool
