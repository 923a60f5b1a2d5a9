// SPDX-License-Identifier: MIT
// dxbc-tool: inspect, strip, rebuild and verify DXBC containers. Subcommands register
// themselves (tool_command.h); this file only dispatches.

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "tool_command.h"

namespace dxbc::tool {

static std::vector<Command>& commandList() {
  static std::vector<Command> commands;
  return commands;
}

CommandRegistration::CommandRegistration(const Command& command) {
  commandList().push_back(command);
}

const std::vector<Command>& registeredCommands() { return commandList(); }

bool readFile(const std::string& path, std::vector<uint8_t>& out) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "dxbc-tool: cannot open %s\n", path.c_str());
    return false;
  }
  out.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  return true;
}

bool writeFile(const std::string& path, std::span<const uint8_t> data) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    std::fprintf(stderr, "dxbc-tool: cannot write %s\n", path.c_str());
    return false;
  }
  file.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
  return bool(file);
}

static void printUsage(FILE* to) {
  std::fprintf(to, "usage: dxbc-tool COMMAND ARGS...\n\ncommands:\n");
  std::vector<Command> commands = registeredCommands();
  std::sort(commands.begin(), commands.end(),
            [](const Command& a, const Command& b) { return std::strcmp(a.name, b.name) < 0; });
  for (const Command& command : commands)
    std::fprintf(to, "  %-8s %-28s %s\n", command.name, command.arguments, command.summary);
}

}  // namespace dxbc::tool

int main(int argc, char** argv) {
  using namespace dxbc::tool;
  if (argc < 2 || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help") ||
      !std::strcmp(argv[1], "help")) {
    printUsage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (const Command& command : registeredCommands()) {
    if (!std::strcmp(command.name, argv[1]))
      return command.run(std::span<char* const>(argv + 2, size_t(argc - 2)));
  }
  std::fprintf(stderr, "dxbc-tool: unknown command '%s'\n\n", argv[1]);
  printUsage(stderr);
  return 2;
}
