// SPDX-License-Identifier: MIT
// dxbc-tool disasm: container (or bare SHDR/SHEX token stream) to fxc-syntax text.

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dxbc/asm/disassembler.h"
#include "tool_command.h"

namespace dxbc::tool {
namespace {

int runDisasm(std::span<char* const> args) {
  std::string input, output;
  sm::DisassemblyOptions options;
  for (size_t i = 0; i < args.size(); i++) {
    if (!std::strcmp(args[i], "-o") && i + 1 < args.size())
      output = args[++i];
    else if (!std::strcmp(args[i], "--no-signatures"))
      options.signatureComments = false;
    else if (input.empty() && args[i][0] != '-')
      input = args[i];
    else {
      std::fprintf(stderr, "usage: dxbc-tool disasm FILE [-o OUT] [--no-signatures]\n");
      return 2;
    }
  }
  if (input.empty()) {
    std::fprintf(stderr, "usage: dxbc-tool disasm FILE [-o OUT] [--no-signatures]\n");
    return 2;
  }
  std::vector<uint8_t> bytes;
  if (!readFile(input, bytes))
    return 1;

  std::string text;
  sm::DisassemblyStats stats;
  Status status;
  if (bytes.size() >= 4 && !std::memcmp(bytes.data(), "DXBC", 4)) {
    status = sm::disassembleContainer(bytes, text, options, &stats);
  } else {
    // A bare token stream, as the DDI hands it over.
    std::vector<uint32_t> tokens(bytes.size() / 4);
    std::memcpy(tokens.data(), bytes.data(), tokens.size() * 4);
    status = sm::disassembleProgram(tokens, text, &stats);
  }
  if (!status.ok()) {
    std::fprintf(stderr, "dxbc-tool: %s: %s (%s at byte %u)\n", input.c_str(), status.reason,
                 errorCodeName(status.code), status.offset);
    return 1;
  }
  if (stats.rawInstructions)
    std::fprintf(stderr, "dxbc-tool: %s: %u instruction(s) written as .raw\n", input.c_str(),
                 stats.rawInstructions);
  if (output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  return writeFile(output, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()),
                                                    text.size())) ? 0 : 1;
}

const CommandRegistration kDisasm{
    {"disasm", "FILE [-o OUT]", "print the shader as fxc-syntax assembly", runDisasm}};

}  // namespace
}  // namespace dxbc::tool
