// SPDX-License-Identifier: MIT
// dxbc-tool strip FILE -o OUT [--stride 11.0|11.1]
//   container → what the D3D11 runtime hands a driver (DDIS file: tokens + entries).
// dxbc-tool rebuild FILE [-o OUT] [--stride 11.0|11.1] [--drop-entries]
//   DDIS file or container → rebuilt container. For a container input, the rebuilt
//   signatures are compared field by field with the original ones (exit 1 on mismatch).

#include <cstdio>
#include <cstring>
#include <string>

#include "dxbc/dxbc.h"
#include "tool_command.h"

namespace dxbc::tool {
namespace {

struct Options {
  std::string input;
  std::string output;
  DdiStride stride = DdiStride::D3D11_1;
  bool dropEntries = false;
};

bool parseOptions(std::span<char* const> args, Options& options, bool allowDrop) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string arg = args[i];
    if (arg == "-o" && i + 1 < args.size()) {
      options.output = args[++i];
    } else if (arg == "--stride" && i + 1 < args.size()) {
      const std::string value = args[++i];
      if (value == "11.0")
        options.stride = DdiStride::D3D11_0;
      else if (value == "11.1")
        options.stride = DdiStride::D3D11_1;
      else
        return false;
    } else if (allowDrop && arg == "--drop-entries") {
      options.dropEntries = true;
    } else if (options.input.empty() && arg[0] != '-') {
      options.input = arg;
    } else {
      return false;
    }
  }
  return !options.input.empty();
}

void report(const char* path, const Status& status) {
  std::fprintf(stderr, "%s: %s: %s (offset %u)\n", path, errorCodeName(status.code), status.reason,
               status.offset);
}

int runStrip(std::span<char* const> args) {
  Options options;
  if (!parseOptions(args, options, false) || options.output.empty()) {
    std::fprintf(stderr, "usage: dxbc-tool strip FILE -o OUT [--stride 11.0|11.1]\n");
    return 2;
  }
  std::vector<uint8_t> bytes;
  if (!readFile(options.input, bytes))
    return 1;
  ContainerReader container;
  DdiShader shader;
  Status status = ContainerReader::parse(bytes, container);
  if (status.ok())
    status = stripContainer(container, options.stride, shader);
  if (!status.ok()) {
    report(options.input.c_str(), status);
    return 1;
  }
  std::vector<uint8_t> out;
  serializeDdiShader(shader, out);
  std::printf("%s: %zu token bytes, %zu/%zu/%zu entries (stride %u)\n", options.input.c_str(),
              shader.tokens.size(), shader.input.size(), shader.output.size(),
              shader.patchConstant.size(), uint32_t(options.stride));
  return writeFile(options.output, out) ? 0 : 1;
}

int runRebuild(std::span<char* const> args) {
  Options options;
  if (!parseOptions(args, options, true)) {
    std::fprintf(stderr,
                 "usage: dxbc-tool rebuild FILE [-o OUT] [--stride 11.0|11.1] [--drop-entries]\n");
    return 2;
  }
  std::vector<uint8_t> bytes;
  if (!readFile(options.input, bytes))
    return 1;

  DdiShader shader;
  ContainerReader original;
  bool fromContainer = false;
  Status status = deserializeDdiShader(bytes, shader);
  if (status.code == ErrorCode::BadMagic) {
    status = ContainerReader::parse(bytes, original);
    if (status.ok())
      status = stripContainer(original, options.stride, shader);
    fromContainer = true;
  }
  if (!status.ok()) {
    report(options.input.c_str(), status);
    return 1;
  }
  if (options.dropEntries)
    shader.input.clear(), shader.output.clear(), shader.patchConstant.clear();

  std::vector<uint8_t> rebuilt;
  RebuiltSignatures signatures;
  status = rebuildContainer(shader.tokens, shader.view(), rebuilt, &signatures);
  if (!status.ok()) {
    report(options.input.c_str(), status);
    return 1;
  }
  if (!options.output.empty() && !writeFile(options.output, rebuilt))
    return 1;

  if (!fromContainer) {
    std::printf("%s: rebuilt %zu bytes\n", options.input.c_str(), rebuilt.size());
    return 0;
  }
  ContainerSignatures originalSignatures;
  status = readContainerSignatures(original, originalSignatures);
  if (!status.ok()) {
    report(options.input.c_str(), status);
    return 1;
  }
  CompareOptions compare;
  compare.compareComponentType = shader.stride == DdiStride::D3D11_1 && !options.dropEntries;
  compare.onlyDeclared = options.dropEntries;
  std::vector<std::string> mismatches;
  compareSignature("input", originalSignatures.input, signatures.input, compare, mismatches);
  compareSignature("output", originalSignatures.output, signatures.output, compare, mismatches);
  compareSignature("patch", originalSignatures.patchConstant, signatures.patchConstant, compare,
                   mismatches);
  std::printf("%s: rebuilt %zu bytes, %zu mismatches\n", options.input.c_str(), rebuilt.size(),
              mismatches.size());
  for (const std::string& line : mismatches)
    std::printf("  %s\n", line.c_str());
  return mismatches.empty() ? 0 : 1;
}

const CommandRegistration kStrip{
    {"strip", "FILE -o OUT [--stride S]", "reduce a container to tokens + DDI entries", runStrip}};
const CommandRegistration kRebuild{
    {"rebuild", "FILE [-o OUT] [--stride S]", "rebuild a container from tokens + DDI entries",
     runRebuild}};

}  // namespace
}  // namespace dxbc::tool
