// SPDX-License-Identifier: MIT
#include <cstring>

#include "dxbc/asm/assembler.h"
#include "dxbc/container.h"
#include "dxbc/rebuild.h"
#include "dxbc/shader_code.h"
#include "dxbc/token_scanner.h"
#include "sm_lexer.h"
#include "sm_program_assembler.h"
#include "sm_signature_text.h"

namespace dxbc::sm {
namespace {

AssemblyResult failure(std::string message) {
  AssemblyResult result;
  result.error = {1, 1, std::move(message)};
  return result;
}

// The chunk variant for a table: min precision needs *SG1, streams need OSG5 (outputs);
// otherwise keep what the declaration-driven rebuild chose.
SignatureFormat formatFor(const Signature& signature, SignatureKind kind,
                          SignatureFormat rebuilt) {
  bool precision = false, streams = false;
  for (const SignatureElement& e : signature.elements) {
    precision |= e.minPrecision != 0;
    streams |= e.stream != 0;
  }
  if (precision)
    return SignatureFormat::MinPrecision;
  if (streams && kind == SignatureKind::Output)
    return SignatureFormat::Stream;
  if (rebuilt == SignatureFormat::MinPrecision)
    return SignatureFormat::Basic;
  return rebuilt;
}

}  // namespace

AssemblyResult assembleContainer(std::string_view text, std::vector<uint8_t>& container,
                                 const ContainerAssemblyOptions& options) {
  LexResult lex = lexAssembly(text);
  if (!lex.ok) {
    AssemblyResult result;
    result.error = {lex.errorLine, lex.errorColumn, lex.error};
    return result;
  }
  SignatureTables tables;
  AssemblyResult result = parseSignatureTables(lex.comments, tables);
  if (!result.ok)
    return result;
  std::vector<uint32_t> program;
  result = assembleProgramFromLex(lex.tokens, program);
  if (!result.ok)
    return result;

  std::vector<uint8_t> bytes(program.size() * 4);
  std::memcpy(bytes.data(), program.data(), bytes.size());
  ShaderCode code;
  ShaderInfo info;
  Status status = parseShaderCode(bytes, code);
  if (status.ok())
    status = scanShader(code, info);
  RebuiltSignatures sigs;
  if (status.ok())
    status = rebuildSignatures(info, DdiSignatures{}, sigs);
  if (!status.ok())
    return failure(std::string("cannot derive signatures: ") + status.reason);

  // Tables written in the text name the elements; declarations fill in the rest.
  // Hull shaders write their patch constants; domain shaders read them.
  if (tables.input) {
    sigs.input = tableToSignature(*tables.input, false);
    sigs.inputFormat = formatFor(sigs.input, SignatureKind::Input, sigs.inputFormat);
  }
  if (tables.output) {
    sigs.output = tableToSignature(*tables.output, true);
    sigs.outputFormat = formatFor(sigs.output, SignatureKind::Output, sigs.outputFormat);
  }
  if (tables.patchConstant) {
    sigs.patchConstant = tableToSignature(*tables.patchConstant, info.type == ProgramType::Hull);
    sigs.patchConstantFormat =
        formatFor(sigs.patchConstant, SignatureKind::PatchConstant, sigs.patchConstantFormat);
  }
  ContainerWriter writer;
  status = addSignatureChunks(writer, info.type, sigs);
  if (!status.ok())
    return failure(std::string("cannot write signatures: ") + status.reason);
  FourCC tag = options.forceShex ? tag::SHEX : shaderChunkTagFor(info.major);
  for (const CommentLine& comment : lex.comments) {
    std::string_view line = comment.text;
    constexpr std::string_view kMarker = " Shader chunk: ";
    if (line.rfind(kMarker, 0) == 0) {
      std::string_view name = line.substr(kMarker.size());
      if (name == "SHEX")
        tag = tag::SHEX;
      else if (name == "SHDR")
        tag = tag::SHDR;
    }
  }
  writer.addChunk(tag, std::move(bytes));
  status = writer.write(container);
  if (!status.ok())
    return failure(std::string("cannot write the container: ") + status.reason);
  result.ok = true;
  return result;
}

}  // namespace dxbc::sm
