// SPDX-License-Identifier: MIT
#pragma once

// Subcommand registry of dxbc-tool. Every subcommand lives in its own source file and
// registers itself at static-initialization time:
//
//   static const dxbc::tool::CommandRegistration kDump{
//       {"dump", "FILE", "print chunks, signatures and declarations", runDump}};
//
// The sources are compiled straight into the executable (not a static library), so
// the registrations cannot be dropped by the linker. To add subcommands from another
// area, define `dxbc_tool_extra_sources` (files) and optionally `dxbc_tool_extra_deps`
// in a meson.build that dxbc/meson.build processes before tool/ (dxbc/asm does).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace dxbc::tool {

struct Command {
  const char* name;
  const char* arguments;   // e.g. "FILE [-o OUT]"
  const char* summary;
  // args excludes the program and subcommand names. Returns the process exit code.
  int (*run)(std::span<char* const> args);
};

class CommandRegistration {
public:
  explicit CommandRegistration(const Command& command);
};

const std::vector<Command>& registeredCommands();

// Helpers shared by subcommands; they print their own diagnostics to stderr.
bool readFile(const std::string& path, std::vector<uint8_t>& out);
bool writeFile(const std::string& path, std::span<const uint8_t> data);

}  // namespace dxbc::tool
