// SPDX-License-Identifier: MIT
// The main test: every container of the corpus disassembles to fxc syntax without .raw
// fallbacks, and assembling that text gives back the identical token stream and, through
// the signature comment tables, the identical signature chunks.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "dxbc/asm/assembler.h"
#include "dxbc/asm/disassembler.h"
#include "dxbc/container.h"
#include "dxbc/shader_code.h"
#include "dxbc/signature.h"

namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> readBytes(const fs::path& path);

// Root-signature-only containers (RTS0) hold no program to disassemble.
bool hasProgram(const fs::path& path) {
  std::vector<uint8_t> bytes = readBytes(path);
  dxbc::ContainerReader reader;
  dxbc::ShaderCode code;
  return dxbc::ContainerReader::parse(bytes, reader).ok() && dxbc::getShaderCode(reader, code).ok();
}

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(DXBC_CORPUS_DIR, ec))
    return files;
  for (const auto& entry : fs::recursive_directory_iterator(DXBC_CORPUS_DIR, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".dxbc" && hasProgram(entry.path()))
      files.push_back(fs::relative(entry.path(), DXBC_CORPUS_DIR).string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<uint8_t> readBytes(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::vector<uint8_t> chunkBytes(const dxbc::ContainerReader& reader, dxbc::FourCC tag) {
  const dxbc::ChunkView* chunk = reader.find(tag);
  if (!chunk)
    return {};
  return {chunk->data.begin(), chunk->data.end()};
}

class CorpusRoundTrip : public ::testing::TestWithParam<std::string> { };

TEST_P(CorpusRoundTrip, DisassembleAssembleIsIdentity) {
  std::vector<uint8_t> original = readBytes(fs::path(DXBC_CORPUS_DIR) / GetParam());
  dxbc::ContainerReader reader;
  ASSERT_TRUE(dxbc::ContainerReader::parse(original, reader).ok());
  dxbc::ShaderCode code;
  ASSERT_TRUE(dxbc::getShaderCode(reader, code).ok());
  std::vector<uint32_t> tokens(code.tokens.size());
  for (size_t i = 0; i < tokens.size(); i++)
    tokens[i] = code.tokens[i];

  std::string text;
  dxbc::sm::DisassemblyStats stats;
  ASSERT_TRUE(dxbc::sm::disassembleContainer(original, text, {}, &stats).ok());
  EXPECT_EQ(stats.rawInstructions, 0u) << text;
  EXPECT_GT(stats.instructions, 0u);

  // Token level: byte-identical program.
  std::vector<uint32_t> assembled;
  dxbc::sm::AssemblyResult result = dxbc::sm::assembleProgram(text, assembled);
  ASSERT_TRUE(result.ok) << result.error.format(GetParam()) << "\n" << text;
  ASSERT_EQ(assembled.size(), tokens.size()) << text;
  for (size_t i = 0; i < tokens.size(); i++)
    ASSERT_EQ(assembled[i], tokens[i]) << "token " << i << "\n" << text;

  // Container level: same program chunk, same signature chunks, valid checksum.
  std::vector<uint8_t> container;
  result = dxbc::sm::assembleContainer(text, container);
  ASSERT_TRUE(result.ok) << result.error.format(GetParam());
  dxbc::ContainerReader rebuilt;
  ASSERT_TRUE(dxbc::ContainerReader::parse(container, rebuilt).ok());
  EXPECT_EQ(chunkBytes(rebuilt, code.tag), chunkBytes(reader, code.tag));
  for (const dxbc::ChunkView& chunk : reader.chunks()) {
    dxbc::SignatureKind kind;
    dxbc::SignatureFormat format;
    if (!dxbc::classifySignatureTag(chunk.tag, &kind, &format))
      continue;
    EXPECT_EQ(chunkBytes(rebuilt, chunk.tag), chunkBytes(reader, chunk.tag))
        << dxbc::fourCCToString(chunk.tag);
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusRoundTrip, ::testing::ValuesIn(corpusFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = fs::path(info.param).stem().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           }
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusRoundTrip);

TEST(CorpusRoundTripPresence, CorpusIsReadable) {
  if (!fs::is_directory(DXBC_CORPUS_DIR))
    GTEST_SKIP() << "corpus not found at " << DXBC_CORPUS_DIR;
  // 310 containers, 24 of them root signatures only.
  EXPECT_GE(corpusFiles().size(), 280u);
}

}  // namespace

namespace {

// Hostile input: corpus programs with random bit flips. The disassembler must never read
// out of bounds (ASan/valgrind catch that), and whatever it accepts must still assemble
// back to the identical tokens -- the .raw fallback keeps even garbage lossless.
TEST(CorpusMutations, DisassemblyOfMutatedProgramsIsLosslessOrRejected) {
  std::vector<std::string> files = corpusFiles();
  if (files.empty())
    GTEST_SKIP() << "corpus not found at " << DXBC_CORPUS_DIR;
  // DXBC_ASM_MUTATIONS / DXBC_ASM_SEED widen the search on demand; the default stays fast.
  const char* variantsEnv = std::getenv("DXBC_ASM_MUTATIONS");
  const char* seedEnv = std::getenv("DXBC_ASM_SEED");
  int variants = variantsEnv ? std::atoi(variantsEnv) : 8;
  uint32_t state = seedEnv ? uint32_t(std::strtoul(seedEnv, nullptr, 0)) | 1u : 0x12345678;
  auto random = [&] {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  uint32_t accepted = 0, rejected = 0;
  for (const std::string& file : files) {
    std::vector<uint8_t> bytes = readBytes(fs::path(DXBC_CORPUS_DIR) / file);
    dxbc::ContainerReader reader;
    dxbc::ShaderCode code;
    ASSERT_TRUE(dxbc::ContainerReader::parse(bytes, reader).ok());
    ASSERT_TRUE(dxbc::getShaderCode(reader, code).ok());
    std::vector<uint32_t> original(code.tokens.size());
    for (size_t i = 0; i < original.size(); i++)
      original[i] = code.tokens[i];
    for (int variant = 0; variant < variants; variant++) {
      std::vector<uint32_t> tokens = original;
      for (int flips = 0; flips < 3; flips++)
        tokens[2 + random() % (tokens.size() - 2)] ^= 1u << (random() % 32);
      std::string text;
      if (!dxbc::sm::disassembleProgram(tokens, text).ok()) {
        rejected++;
        continue;
      }
      accepted++;
      std::vector<uint32_t> again;
      dxbc::sm::AssemblyResult result = dxbc::sm::assembleProgram(text, again);
      ASSERT_TRUE(result.ok) << file << " variant " << variant << ": "
                             << result.error.format() << "\n" << text;
      // Tokens past the declared length are not part of the program.
      tokens.resize(std::min<size_t>(tokens.size(), tokens[1]));
      size_t diff = 0;
      while (diff < again.size() && diff < tokens.size() && again[diff] == tokens[diff])
        diff++;
      ASSERT_EQ(again, tokens) << file << " variant " << variant << ": first difference at token "
                               << diff << " (" << std::hex << (diff < again.size() ? again[diff] : 0) << " vs " << (diff < tokens.size() ? tokens[diff] : 0) << std::dec << ")\n" << text;
    }
  }
  EXPECT_GT(accepted, 0u);
  RecordProperty("accepted", int(accepted));
  RecordProperty("rejected", int(rejected));
}

}  // namespace

namespace {

// Garbled text: the assembler returns an error with a position inside the text or
// succeeds; it never crashes or reads past the text (checked under ASan).
TEST(CorpusMutations, AssemblerSurvivesGarbledText) {
  std::vector<std::string> files = corpusFiles();
  if (files.empty())
    GTEST_SKIP() << "corpus not found at " << DXBC_CORPUS_DIR;
  uint32_t state = 0x9e3779b9;
  auto random = [&] {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  const char alphabet[] = "xyzw0123456789.,-|[](){}:=+* \nlrvo_#";
  uint32_t failures = 0;
  for (size_t f = 0; f < files.size(); f += 3) {
    std::vector<uint8_t> bytes = readBytes(fs::path(DXBC_CORPUS_DIR) / files[f]);
    std::string text;
    ASSERT_TRUE(dxbc::sm::disassembleContainer(bytes, text).ok());
    uint32_t lines = uint32_t(std::count(text.begin(), text.end(), '\n')) + 1;
    for (int variant = 0; variant < 4; variant++) {
      std::string garbled = text;
      for (int edits = 0; edits < 4; edits++) {
        size_t at = random() % garbled.size();
        switch (random() % 3) {
          case 0: garbled[at] = alphabet[random() % (sizeof(alphabet) - 1)]; break;
          case 1: garbled.erase(at, 1 + random() % 8); break;
          default: garbled.insert(at, 1, alphabet[random() % (sizeof(alphabet) - 1)]); break;
        }
      }
      std::vector<uint8_t> container;
      dxbc::sm::AssemblyResult result = dxbc::sm::assembleContainer(garbled, container);
      if (!result.ok) {
        failures++;
        EXPECT_GE(result.error.line, 1u);
        EXPECT_LE(result.error.line, lines + 8);
        EXPECT_FALSE(result.error.message.empty());
      } else {
        dxbc::ContainerReader reader;
        EXPECT_TRUE(dxbc::ContainerReader::parse(container, reader).ok());
      }
    }
  }
  EXPECT_GT(failures, 0u);   // the edits do break things; errors are what is tested
}

}  // namespace
