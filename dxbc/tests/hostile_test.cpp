// SPDX-License-Identifier: MIT
// Malformed containers, signatures and token streams are rejected with the right code,
// never read out of bounds (run under -fsanitize=address to prove the latter).

#include <gtest/gtest.h>

#include <random>

#include "dxbc/dxbc.h"

namespace dxbc::test {
namespace {

void put32(std::vector<uint8_t>& bytes, size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    bytes[at + i] = uint8_t(value >> (8 * i));
}

// A valid two-chunk container: ISGN (empty signature) and a minimal ps_4_0 "ret".
std::vector<uint8_t> validContainer() {
  ContainerWriter writer;
  std::vector<uint8_t> signature;
  EXPECT_TRUE(writeSignature(Signature{}, SignatureFormat::Basic, signature).ok());
  writer.addChunk(tag::ISGN, signature);
  const uint32_t tokens[] = {token::makeVersion(ProgramType::Pixel, 4, 0), 3, 0x0100003e};
  writer.addChunk(tag::SHDR, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(tokens), sizeof(tokens)));
  std::vector<uint8_t> out;
  EXPECT_TRUE(writer.write(out).ok());
  return out;
}

ErrorCode parseCode(std::vector<uint8_t> bytes, bool fixChecksum = true) {
  if (fixChecksum)
    updateContainerChecksum(bytes);
  ContainerReader reader;
  return ContainerReader::parse(bytes, reader).code;
}

TEST(Hostile, ValidBaselineParses) {
  std::vector<uint8_t> bytes = validContainer();
  ContainerReader reader;
  ASSERT_TRUE(ContainerReader::parse(bytes, reader).ok());
  EXPECT_EQ(reader.chunkCount(), 2u);
  ShaderCode code;
  EXPECT_TRUE(getShaderCode(reader, code).ok());
}

TEST(Hostile, HeaderErrors) {
  std::vector<uint8_t> bytes = validContainer();
  EXPECT_EQ(parseCode({bytes.begin(), bytes.begin() + 31}), ErrorCode::TooSmall);
  auto bad = bytes; bad[0] = 'X';
  EXPECT_EQ(parseCode(bad), ErrorCode::BadMagic);
  bad = bytes; put32(bad, 20, 2);
  EXPECT_EQ(parseCode(bad), ErrorCode::BadVersion);
  bad = bytes; put32(bad, 24, uint32_t(bytes.size() + 4));
  EXPECT_EQ(parseCode(bad), ErrorCode::SizeMismatch);
  bad = bytes; bad.push_back(0);
  EXPECT_EQ(parseCode(bad), ErrorCode::SizeMismatch);
  bad = bytes; put32(bad, 28, 0x40000000);
  EXPECT_EQ(parseCode(bad), ErrorCode::TooManyChunks);
  bad = bytes; put32(bad, 28, uint32_t(bytes.size() / 4));
  EXPECT_EQ(parseCode(bad), ErrorCode::TooManyChunks);
}

TEST(Hostile, ChunkTableErrors) {
  const std::vector<uint8_t> bytes = validContainer();
  auto bad = bytes; put32(bad, 32, 0x7fffffff & ~3u);
  EXPECT_EQ(parseCode(bad), ErrorCode::ChunkOffsetOutOfRange);
  bad = bytes; put32(bad, 32, uint32_t(bytes.size() - 4));
  EXPECT_EQ(parseCode(bad), ErrorCode::ChunkOffsetOutOfRange);
  bad = bytes; put32(bad, 32, 41);
  EXPECT_EQ(parseCode(bad), ErrorCode::ChunkOffsetMisaligned);
  bad = bytes; put32(bad, 32, 0);
  EXPECT_EQ(parseCode(bad), ErrorCode::ChunkOverlap);
  // Both entries point at the same chunk.
  bad = bytes; put32(bad, 36, bytes[32] | (bytes[33] << 8));
  EXPECT_EQ(parseCode(bad), ErrorCode::ChunkOverlap);
  // First chunk's size grows into the second.
  const uint32_t first = bytes[32] | (bytes[33] << 8);
  bad = bytes; put32(bad, first + 4, 24);
  EXPECT_EQ(parseCode(bad), ErrorCode::ChunkOverlap);
  // Oversized: payload beyond the container end, including 32-bit wrap-around.
  bad = bytes; put32(bad, first + 4, uint32_t(bytes.size()));
  EXPECT_EQ(parseCode(bad), ErrorCode::ChunkSizeOutOfRange);
  bad = bytes; put32(bad, first + 4, 0xfffffffc);
  EXPECT_EQ(parseCode(bad), ErrorCode::ChunkSizeOutOfRange);
}

TEST(Hostile, ChecksumMismatch) {
  std::vector<uint8_t> bytes = validContainer();
  bytes[bytes.size() - 1] ^= 1;
  EXPECT_EQ(parseCode(bytes, false), ErrorCode::BadChecksum);
  ReadOptions options;
  options.verifyChecksum = false;
  ContainerReader reader;
  EXPECT_TRUE(ContainerReader::parse(bytes, reader, options).ok());
}

TEST(Hostile, MissingAndDuplicateShaderChunks) {
  ContainerWriter writer;
  std::vector<uint8_t> out;
  writer.addChunk(tag::RDEF, std::vector<uint8_t>(8, 0));
  ASSERT_TRUE(writer.write(out).ok());
  ContainerReader reader;
  ASSERT_TRUE(ContainerReader::parse(out, reader).ok());
  ShaderCode code;
  EXPECT_EQ(getShaderCode(reader, code).code, ErrorCode::MissingChunk);

  const uint32_t tokens[] = {token::makeVersion(ProgramType::Vertex, 4, 0), 3, 0x0100003e};
  std::span<const uint8_t> payload(reinterpret_cast<const uint8_t*>(tokens), sizeof(tokens));
  writer.addChunk(tag::SHDR, payload);
  writer.addChunk(tag::SHEX, payload);
  ASSERT_TRUE(writer.write(out).ok());
  ASSERT_TRUE(ContainerReader::parse(out, reader).ok());
  EXPECT_EQ(getShaderCode(reader, code).code, ErrorCode::DuplicateChunk);
}

TEST(Hostile, SignatureErrors) {
  Signature signature;
  SignatureElement element;
  element.semanticName = "TEXCOORD";
  signature.elements.push_back(element);
  std::vector<uint8_t> good;
  ASSERT_TRUE(writeSignature(signature, SignatureFormat::Basic, good).ok());
  Signature parsed;
  ASSERT_TRUE(parseSignature(tag::ISGN, good, parsed).ok());
  EXPECT_EQ(parsed.elements.at(0).semanticName, "TEXCOORD");

  EXPECT_EQ(parseSignature(tag::ISGN, std::span(good).first(7), parsed).code,
            ErrorCode::SignatureTruncated);
  auto bad = good; put32(bad, 0, 2);
  EXPECT_EQ(parseSignature(tag::ISGN, bad, parsed).code, ErrorCode::SignatureTruncated);
  bad = good; put32(bad, 0, 0x10000000);
  EXPECT_EQ(parseSignature(tag::ISGN, bad, parsed).code, ErrorCode::SignatureTooLarge);
  bad = good; put32(bad, 4, 0xfffffff0);
  EXPECT_EQ(parseSignature(tag::ISGN, bad, parsed).code, ErrorCode::SignatureTruncated);
  bad = good; put32(bad, 8, uint32_t(good.size()));
  EXPECT_EQ(parseSignature(tag::ISGN, bad, parsed).code, ErrorCode::SignatureNameOutOfRange);
  // Name without terminator: cut the chunk right after the name's characters.
  bad = std::vector<uint8_t>(good.begin(), good.begin() + 8 + 24 + 8);
  EXPECT_EQ(parseSignature(tag::ISGN, bad, parsed).code, ErrorCode::SignatureNameUnterminated);
  // The 32-byte ISG1 stride needs more room than the 24-byte ISGN one.
  EXPECT_EQ(parseSignature(tag::ISG1, std::span(good).first(8 + 28), parsed).code,
            ErrorCode::SignatureTruncated);
  EXPECT_EQ(parseSignature(tag::SHDR, good, parsed).code, ErrorCode::InvalidArgument);
}

ErrorCode scanCode(std::vector<uint32_t> tokens) {
  std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(tokens.data()), tokens.size() * 4);
  ShaderCode code;
  Status status = parseShaderCode(bytes, code);
  if (!status.ok())
    return status.code;
  ShaderInfo info;
  return scanShader(code, info).code;
}

TEST(Hostile, TokenStreamErrors) {
  const uint32_t ps40 = token::makeVersion(ProgramType::Pixel, 4, 0);
  EXPECT_EQ(scanCode({ps40, 3, 0x0100003e}), ErrorCode::Ok);
  EXPECT_EQ(scanCode({ps40}), ErrorCode::ShaderTruncated);
  EXPECT_EQ(scanCode({ps40, 4, 0x0100003e}), ErrorCode::ShaderTruncated);
  EXPECT_EQ(scanCode({ps40, 1, 0x0100003e}), ErrorCode::ShaderTruncated);
  EXPECT_EQ(scanCode({token::makeVersion(ProgramType(9), 4, 0), 2}), ErrorCode::ShaderBadVersion);
  EXPECT_EQ(scanCode({token::makeVersion(ProgramType::Pixel, 6, 0), 2}), ErrorCode::ShaderBadVersion);
  EXPECT_EQ(scanCode({ps40, 3, 0x0000003e}), ErrorCode::ShaderBadInstruction);      // length 0
  EXPECT_EQ(scanCode({ps40, 3, 0x0200003e}), ErrorCode::ShaderBadInstruction);      // past end
  EXPECT_EQ(scanCode({ps40, 4, 0x00000035, 9}), ErrorCode::ShaderBadInstruction);   // customdata
  EXPECT_EQ(scanCode({ps40, 4, 0x00000035, 1}), ErrorCode::ShaderBadInstruction);
  EXPECT_EQ(scanCode({ps40, 3, 0x00000035}), ErrorCode::ShaderBadInstruction);
  // Custom data of the right length is skipped whole, whatever it contains.
  EXPECT_EQ(scanCode({ps40, 7, 0x00000035, 4, 0x0400005f, 0xffffffff, 0x0100003e}), ErrorCode::Ok);
  // dcl_input v1.xy whose operand is cut off by the instruction length.
  EXPECT_EQ(scanCode({ps40, 4, 0x0200005f, 0x00101032}), ErrorCode::ShaderBadOperand);
  // dcl_input_siv without its name token.
  EXPECT_EQ(scanCode({ps40, 5, 0x03000061, 0x00101032, 1}), ErrorCode::ShaderBadOperand);
  // Extended opcode chain that never ends inside the instruction.
  EXPECT_EQ(scanCode({ps40, 4, 0x82000036, 0x80000001}), ErrorCode::ShaderBadInstruction);
  // Extended operand chain that never ends.
  EXPECT_EQ(scanCode({ps40, 5, 0x0300005f, 0x80101032, 0x80000001}), ErrorCode::ShaderBadOperand);
  // Nested relative addressing deeper than any real shader.
  std::vector<uint32_t> deep = {ps40, 0, 0};
  for (int i = 0; i < 8; ++i)
    deep.push_back(0x00901032);  // v[relative].xy, relative again
  deep[1] = uint32_t(deep.size());
  deep[2] = (uint32_t(deep.size() - 2) << 24) | 0x5f;
  EXPECT_EQ(scanCode(deep), ErrorCode::ShaderBadOperand);
}

// Random mutations of a real-looking shader: whatever the bytes, parse and rebuild
// either succeed or fail with a code, without touching memory outside the buffer.
TEST(Hostile, MutatedContainersNeverCrash) {
  const uint32_t vs40 = token::makeVersion(ProgramType::Vertex, 4, 0);
  std::vector<uint32_t> tokens = {vs40, 0,
      0x0300005f, 0x001010f2, 0x00000000,               // dcl_input v0.xyzw
      0x04000067, 0x001020f2, 0x00000000, 0x00000001,   // dcl_output_siv o0.xyzw, position
      0x05000036, 0x001020f2, 0x00000000, 0x00101e46, 0x00000000,  // mov o0, v0
      0x0100003e};
  tokens[1] = uint32_t(tokens.size());
  std::span<const uint8_t> tokenBytes(reinterpret_cast<const uint8_t*>(tokens.data()), tokens.size() * 4);
  std::vector<uint8_t> container;
  DdiSignatures none{};
  ASSERT_TRUE(rebuildContainer(tokenBytes, none, container).ok());

  std::mt19937 rng(12345);
  size_t accepted = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::vector<uint8_t> mutated = container;
    const int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f)
      mutated[rng() % mutated.size()] = uint8_t(rng());
    if (rng() % 8 == 0)
      mutated.resize(rng() % mutated.size());
    ReadOptions options;
    options.verifyChecksum = false;
    ContainerReader reader;
    if (!ContainerReader::parse(mutated, reader, options).ok())
      continue;
    ContainerSignatures signatures;
    (void)readContainerSignatures(reader, signatures);
    ShaderCode code;
    if (!getShaderCode(reader, code).ok())
      continue;
    // Copy the tokens to an exactly sized buffer so overreads are real overreads.
    std::vector<uint8_t> exact(code.tokens.bytes().begin(), code.tokens.bytes().end());
    DdiShader ddi;
    std::vector<uint8_t> rebuilt;
    if (stripContainer(reader, DdiStride::D3D11_1, ddi).ok() &&
        rebuildContainer(exact, ddi.view(), rebuilt).ok())
      ++accepted;
  }
  EXPECT_GT(accepted, 0u);
}

TEST(Hostile, DdiEntryDecoding) {
  std::vector<DdiSignatureEntry> entries(2);
  entries[0] = {sbname::Position, 0, 0xf, comptype::Float32, 0};
  entries[1] = {0, 1, 0x3, comptype::Uint32, minprec::Uint16};
  for (DdiStride stride : {DdiStride::D3D11_0, DdiStride::D3D11_1}) {
    std::vector<uint8_t> raw;
    encodeDdiSignature(entries, stride, raw);
    EXPECT_EQ(raw.size(), 2 * size_t(stride));
    std::vector<DdiSignatureEntry> decoded;
    ASSERT_TRUE(decodeDdiSignature(raw, 2, stride, decoded).ok());
    EXPECT_EQ(decoded[1].registerIndex, 1u);
    EXPECT_EQ(decoded[1].mask, 0x3);
    EXPECT_EQ(decoded[1].componentType, stride == DdiStride::D3D11_1 ? comptype::Uint32 : 0u);
    EXPECT_EQ(decoded[1].minPrecision, stride == DdiStride::D3D11_1 ? minprec::Uint16 : 0u);
    EXPECT_FALSE(decodeDdiSignature(std::span(raw).first(raw.size() - 1), 2, stride, decoded).ok());
  }
}

}  // namespace
}  // namespace dxbc::test
