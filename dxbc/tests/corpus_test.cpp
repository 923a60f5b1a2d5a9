// SPDX-License-Identifier: MIT
// Every container of the corpus: checksum, byte-exact rewrite, strip → rebuild →
// field-by-field comparison for both DDI strides and with entries dropped.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "corpus.h"
#include "dxbc/dxbc.h"

namespace dxbc::test {
namespace {

class CorpusContainer : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    bytes = readBytes(GetParam());
    ASSERT_FALSE(bytes.empty());
    Status status = ContainerReader::parse(bytes, container);
    ASSERT_TRUE(status.ok()) << errorCodeName(status.code) << ": " << status.reason;
    isShader = container.find(tag::SHDR) || container.find(tag::SHEX);
  }

  void expectRebuildMatches(DdiStride stride, bool compareTypes) {
    if (!isShader)
      GTEST_SKIP() << "not a shader (root signature)";
    DdiShader ddi;
    ASSERT_TRUE(stripContainer(container, stride, ddi).ok());
    std::vector<uint8_t> rebuilt;
    RebuiltSignatures signatures;
    Status status = rebuildContainer(ddi.tokens, ddi.view(), rebuilt, &signatures);
    ASSERT_TRUE(status.ok()) << errorCodeName(status.code) << ": " << status.reason;

    ContainerSignatures original;
    ASSERT_TRUE(readContainerSignatures(container, original).ok());
    CompareOptions options;
    options.compareComponentType = compareTypes;
    std::vector<std::string> mismatches;
    compareSignature("input", original.input, signatures.input, options, mismatches);
    compareSignature("output", original.output, signatures.output, options, mismatches);
    compareSignature("patch", original.patchConstant, signatures.patchConstant, options, mismatches);
    for (const std::string& line : mismatches)
      ADD_FAILURE() << line;

    // The rebuilt container parses, validates and carries the very same tokens and the
    // chunk variants fxc chose.
    ContainerReader reread;
    ASSERT_TRUE(ContainerReader::parse(rebuilt, reread).ok());
    ShaderCode originalCode, rebuiltCode;
    ASSERT_TRUE(getShaderCode(container, originalCode).ok());
    ASSERT_TRUE(getShaderCode(reread, rebuiltCode).ok());
    EXPECT_EQ(originalCode.tag, rebuiltCode.tag);
    ASSERT_EQ(originalCode.tokens.bytes().size(), rebuiltCode.tokens.bytes().size());
    EXPECT_EQ(0, std::memcmp(originalCode.tokens.bytes().data(), rebuiltCode.tokens.bytes().data(),
                             originalCode.tokens.bytes().size()));
    // SFI0 is reproduced from the tokens exactly when fxc wrote one.
    const ChunkView* originalSfi0 = container.find(tag::SFI0);
    const ChunkView* rebuiltSfi0 = reread.find(tag::SFI0);
    ASSERT_EQ(originalSfi0 != nullptr, rebuiltSfi0 != nullptr);
    if (originalSfi0) {
      EXPECT_TRUE(std::equal(originalSfi0->data.begin(), originalSfi0->data.end(),
                             rebuiltSfi0->data.begin(), rebuiltSfi0->data.end()));
    }
    ContainerSignatures again;
    ASSERT_TRUE(readContainerSignatures(reread, again).ok());
    if (compareTypes) {
      EXPECT_EQ(fourCCToString(original.inputTag), fourCCToString(again.inputTag));
      EXPECT_EQ(fourCCToString(original.outputTag), fourCCToString(again.outputTag));
      EXPECT_EQ(fourCCToString(original.patchConstantTag), fourCCToString(again.patchConstantTag));
    }
  }

  std::vector<uint8_t> bytes;
  ContainerReader container;
  bool isShader = false;
};

TEST_P(CorpusContainer, ChecksumValidates) {
  EXPECT_EQ(computeContainerChecksum(bytes), container.storedChecksum());
}

TEST_P(CorpusContainer, WriterReproducesBytes) {
  ContainerWriter writer;
  for (const ChunkView& chunk : container.chunks())
    writer.addChunk(chunk.tag, chunk.data);
  std::vector<uint8_t> out;
  ASSERT_TRUE(writer.write(out).ok());
  EXPECT_EQ(out, bytes);
}

TEST_P(CorpusContainer, SignatureChunksRoundTrip) {
  for (const ChunkView& chunk : container.chunks()) {
    SignatureFormat format;
    if (!classifySignatureTag(chunk.tag, nullptr, &format))
      continue;
    Signature signature, again;
    ASSERT_TRUE(parseSignature(chunk.tag, chunk.data, signature).ok());
    std::vector<uint8_t> written;
    ASSERT_TRUE(writeSignature(signature, format, written).ok());
    ASSERT_TRUE(parseSignature(chunk.tag, written, again).ok());
    ASSERT_EQ(signature.elements.size(), again.elements.size());
    for (size_t i = 0; i < signature.elements.size(); ++i) {
      const SignatureElement& a = signature.elements[i];
      const SignatureElement& b = again.elements[i];
      EXPECT_EQ(a.semanticName, b.semanticName);
      EXPECT_EQ(a.semanticIndex, b.semanticIndex);
      EXPECT_EQ(a.systemValue, b.systemValue);
      EXPECT_EQ(a.componentType, b.componentType);
      EXPECT_EQ(a.registerIndex, b.registerIndex);
      EXPECT_EQ(a.mask, b.mask);
      EXPECT_EQ(a.rwMask, b.rwMask);
      EXPECT_EQ(a.stream, b.stream);
      EXPECT_EQ(a.minPrecision, b.minPrecision);
    }
    EXPECT_EQ(written.size(), chunk.data.size()) << fourCCToString(chunk.tag);
  }
}

TEST_P(CorpusContainer, FlippedChecksumByteRejected) {
  for (size_t at = 4; at < 20; at += 5) {
    std::vector<uint8_t> corrupt = bytes;
    corrupt[at] ^= 0x01;
    ContainerReader reader;
    EXPECT_EQ(ContainerReader::parse(corrupt, reader).code, ErrorCode::BadChecksum);
  }
  // A flipped payload byte is caught by the same check.
  std::vector<uint8_t> corrupt = bytes;
  corrupt.back() ^= 0x80;
  ContainerReader reader;
  EXPECT_EQ(ContainerReader::parse(corrupt, reader).code, ErrorCode::BadChecksum);
}

TEST_P(CorpusContainer, EveryTruncationRejected) {
  for (size_t size = 0; size < bytes.size(); ++size) {
    ContainerReader reader;
    std::span<const uint8_t> prefix(bytes.data(), size);
    ASSERT_FALSE(ContainerReader::parse(prefix, reader).ok()) << "size " << size;
  }
}

TEST_P(CorpusContainer, EveryTruncationOfTheTokenStreamRejected) {
  if (!isShader)
    GTEST_SKIP() << "not a shader";
  ShaderCode code;
  ASSERT_TRUE(getShaderCode(container, code).ok());
  const auto tokens = code.tokens.bytes();
  for (size_t size = 0; size < tokens.size(); size += 4) {
    // Copy so that a read past the prefix would be a real out-of-bounds access.
    std::vector<uint8_t> prefix(tokens.begin(), tokens.begin() + ptrdiff_t(size));
    ShaderCode truncated;
    ASSERT_FALSE(parseShaderCode(prefix, truncated).ok()) << "size " << size;
  }
}

TEST_P(CorpusContainer, Rebuild11_1MatchesExactly) { expectRebuildMatches(DdiStride::D3D11_1, true); }

TEST_P(CorpusContainer, Rebuild11_0MatchesExceptComponentTypes) {
  expectRebuildMatches(DdiStride::D3D11_0, false);
}

TEST_P(CorpusContainer, RebuildWithEntriesDroppedRecoversDeclarations) {
  if (!isShader)
    GTEST_SKIP() << "not a shader";
  ContainerSignatures original;
  ASSERT_TRUE(readContainerSignatures(container, original).ok());
  // Drop each signature's entries in turn (a stream-output GS gets no output entries),
  // then all of them.
  for (int variant = 0; variant < 4; ++variant) {
    DdiShader ddi;
    ASSERT_TRUE(stripContainer(container, DdiStride::D3D11_1, ddi).ok());
    if (variant == 0 || variant == 3) ddi.input.clear();
    if (variant == 1 || variant == 3) ddi.output.clear();
    if (variant == 2 || variant == 3) ddi.patchConstant.clear();
    std::vector<uint8_t> rebuilt;
    RebuiltSignatures signatures;
    ASSERT_TRUE(rebuildContainer(ddi.tokens, ddi.view(), rebuilt, &signatures).ok());
    CompareOptions options;
    std::vector<std::string> mismatches;
    for (int kind = 0; kind < 3; ++kind) {
      const bool dropped = variant == 3 || variant == kind;
      const Signature& a = kind == 0 ? original.input : kind == 1 ? original.output : original.patchConstant;
      const Signature& b = kind == 0 ? signatures.input : kind == 1 ? signatures.output : signatures.patchConstant;
      options.onlyDeclared = dropped;
      compareSignature(kind == 0 ? "input" : kind == 1 ? "output" : "patch", a, b, options,
                       mismatches);
    }
    for (const std::string& line : mismatches)
      ADD_FAILURE() << "variant " << variant << ": " << line;
  }
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  return shortName(info.param);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusContainer, ::testing::ValuesIn(corpusFiles()), testName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusContainer);

TEST(Corpus, Present) {
  if (corpusFiles().empty())
    GTEST_SKIP() << "corpus not found at " << corpusDir();
  EXPECT_GE(corpusFiles().size(), 300u);
}

}  // namespace
}  // namespace dxbc::test
