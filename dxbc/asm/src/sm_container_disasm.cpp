// SPDX-License-Identifier: MIT
#include <vector>

#include "dxbc/asm/disassembler.h"
#include "dxbc/container.h"
#include "dxbc/shader_code.h"
#include "dxbc/signature.h"
#include "sm_signature_text.h"

namespace dxbc::sm {

Status disassembleContainer(std::span<const uint8_t> container, std::string& text,
                            const DisassemblyOptions& options, DisassemblyStats* stats) {
  // A listing is for reading: a stale checksum must not hide the code.
  ReadOptions readOptions;
  readOptions.verifyChecksum = false;
  ContainerReader reader;
  Status status = ContainerReader::parse(container, reader, readOptions);
  if (!status.ok())
    return status;
  ShaderCode code;
  status = getShaderCode(reader, code);
  if (!status.ok())
    return status;

  std::string out;
  if (options.signatureComments) {
    static const char* const kTitles[] = {"Input signature:", "Output signature:",
                                          "Patch Constant signature:"};
    for (const ChunkView& chunk : reader.chunks()) {
      SignatureKind kind;
      SignatureFormat format;
      if (!classifySignatureTag(chunk.tag, &kind, &format))
        continue;
      Signature signature;
      status = parseSignature(chunk.tag, chunk.data, signature);
      if (!status.ok())
        return status;
      // Hull shaders write their patch constants; domain shaders read them.
      bool outputs = kind == SignatureKind::Output ||
          (kind == SignatureKind::PatchConstant && code.type == ProgramType::Hull);
      out += formatSignatureTable(kTitles[size_t(kind)], signature, outputs);
    }
    if (!out.empty())
      out += "//\n";
  }
  // fxc picks SHEX for SM5 and SHDR before; say so only where a container differs.
  if (code.tag != shaderChunkTagFor(code.major))
    out += "// Shader chunk: " + fourCCToString(code.tag) + "\n";

  std::vector<uint32_t> tokens(code.tokens.size());
  for (size_t i = 0; i < tokens.size(); i++)
    tokens[i] = code.tokens[i];
  std::string program;
  status = disassembleProgram(tokens, program, stats);
  if (!status.ok())
    return status;
  text = out + program;
  return Status::success();
}

}  // namespace dxbc::sm
