// SPDX-License-Identifier: MIT
// Hand-written GS (two streams), HS (all phases), DS and CS programs, plus a VS whose
// signatures come from its declarations: they assemble to containers that the container
// library accepts, that survive a disassemble/assemble cycle unchanged, and that
// vkd3d-compiler translates to SPIR-V which spirv-val accepts.

#include <gtest/gtest.h>

#include <cstdio>
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

std::string readText(const std::string& name) {
  std::ifstream file(fs::path(DXBC_ASM_SHADER_DIR) / name, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

bool writeBytes(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return bool(file);
}

bool toolAvailable(const char* name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos)
      end = dirs.size();
    if (fs::exists(fs::path(dirs.substr(start, end - start)) / name))
      return true;
    start = end + 1;
  }
  return false;
}

// vkd3d-compiler (DXBC -> SPIR-V) then spirv-val; true when both accept.
bool vkd3dAndSpirvValAccept(const std::vector<uint8_t>& container, const std::string& stem) {
  fs::path dir = fs::temp_directory_path() / ("dxbc-asm-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path dxbc = dir / (stem + ".dxbc"), spv = dir / (stem + ".spv");
  if (!writeBytes(dxbc, container))
    return false;
  std::string compile = "vkd3d-compiler -x dxbc-tpf -b spirv-binary -o '" + spv.string() +
                        "' '" + dxbc.string() + "' >/dev/null 2>&1";
  std::string validate = "spirv-val '" + spv.string() + "' >/dev/null 2>&1";
  bool ok = std::system(compile.c_str()) == 0 && std::system(validate.c_str()) == 0;
  fs::remove_all(dir);
  return ok;
}

struct StageCase {
  const char* file;
  dxbc::ProgramType type;
};

class StageShader : public ::testing::TestWithParam<StageCase> {
protected:
  std::vector<uint8_t> assemble() {
    std::string text = readText(GetParam().file);
    EXPECT_FALSE(text.empty()) << GetParam().file;
    std::vector<uint8_t> container;
    dxbc::sm::AssemblyResult result = dxbc::sm::assembleContainer(text, container);
    EXPECT_TRUE(result.ok) << result.error.format(GetParam().file);
    return container;
  }
};

TEST_P(StageShader, AssemblesToValidContainer) {
  std::vector<uint8_t> container = assemble();
  dxbc::ContainerReader reader;
  ASSERT_TRUE(dxbc::ContainerReader::parse(container, reader).ok());   // checksum verified
  dxbc::ShaderCode code;
  ASSERT_TRUE(dxbc::getShaderCode(reader, code).ok());
  EXPECT_EQ(code.type, GetParam().type);
  EXPECT_EQ(code.tag, code.major >= 5 ? dxbc::tag::SHEX : dxbc::tag::SHDR);
  EXPECT_NE(reader.findAny(std::vector<dxbc::FourCC>{dxbc::tag::ISGN, dxbc::tag::ISG1}), nullptr);
}

TEST_P(StageShader, DisassemblyReassemblesToSameContainer) {
  std::vector<uint8_t> container = assemble();
  std::string text;
  dxbc::sm::DisassemblyStats stats;
  ASSERT_TRUE(dxbc::sm::disassembleContainer(container, text, {}, &stats).ok());
  EXPECT_EQ(stats.rawInstructions, 0u);
  std::vector<uint8_t> again;
  dxbc::sm::AssemblyResult result = dxbc::sm::assembleContainer(text, again);
  ASSERT_TRUE(result.ok) << result.error.format() << "\n" << text;
  EXPECT_EQ(again, container) << text;
}

TEST_P(StageShader, Vkd3dTranslatesAndSpirvValAccepts) {
  if (!toolAvailable("vkd3d-compiler") || !toolAvailable("spirv-val"))
    GTEST_SKIP() << "vkd3d-compiler or spirv-val not installed";
  std::vector<uint8_t> container = assemble();
  std::string stem = fs::path(GetParam().file).stem().string();
  EXPECT_TRUE(vkd3dAndSpirvValAccept(container, stem));

  // Negative control: the same pipeline rejects a container with a flipped checksum byte.
  container[4] ^= 0xff;
  EXPECT_FALSE(vkd3dAndSpirvValAccept(container, stem + "-bad"));
}

INSTANTIATE_TEST_SUITE_P(Stages, StageShader, ::testing::Values(
    StageCase{"gs_streams.asm", dxbc::ProgramType::Geometry},
    StageCase{"hs_phases.asm", dxbc::ProgramType::Hull},
    StageCase{"ds_tri.asm", dxbc::ProgramType::Domain},
    StageCase{"cs_shared.asm", dxbc::ProgramType::Compute},
    StageCase{"vs_derived.asm", dxbc::ProgramType::Vertex}),
    [](const ::testing::TestParamInfo<StageCase>& info) {
      return fs::path(info.param.file).stem().string();
    });

dxbc::Signature signatureOf(const dxbc::ContainerReader& reader, dxbc::FourCC tag) {
  dxbc::Signature signature;
  const dxbc::ChunkView* chunk = reader.find(tag);
  EXPECT_NE(chunk, nullptr) << dxbc::fourCCToString(tag);
  if (chunk)
    EXPECT_TRUE(dxbc::parseSignature(tag, chunk->data, signature).ok());
  return signature;
}

TEST(StageSignatures, GeometryStreamsUseOsg5WithStreamIndices) {
  std::vector<uint8_t> container;
  ASSERT_TRUE(dxbc::sm::assembleContainer(readText("gs_streams.asm"), container).ok);
  dxbc::ContainerReader reader;
  ASSERT_TRUE(dxbc::ContainerReader::parse(container, reader).ok());
  dxbc::Signature output = signatureOf(reader, dxbc::tag::OSG5);
  ASSERT_EQ(output.elements.size(), 3u);
  EXPECT_EQ(output.elements[0].semanticName, "SV_Position");
  EXPECT_EQ(output.elements[0].systemValue, dxbc::sysval::Position);
  EXPECT_EQ(output.elements[2].semanticName, "TEXCOORD");
  EXPECT_EQ(output.elements[2].stream, 1u);
  EXPECT_EQ(output.elements[2].mask, 0x3);
}

TEST(StageSignatures, HullPatchConstantsFollowOutputs) {
  std::vector<uint8_t> container;
  ASSERT_TRUE(dxbc::sm::assembleContainer(readText("hs_phases.asm"), container).ok);
  dxbc::ContainerReader reader;
  ASSERT_TRUE(dxbc::ContainerReader::parse(container, reader).ok());
  ASSERT_EQ(reader.chunkCount(), 4u);
  EXPECT_EQ(reader.chunk(1).tag, dxbc::tag::OSGN);
  EXPECT_EQ(reader.chunk(2).tag, dxbc::tag::PCSG);
  dxbc::Signature patch = signatureOf(reader, dxbc::tag::PCSG);
  ASSERT_EQ(patch.elements.size(), 5u);
  EXPECT_EQ(patch.elements[3].semanticName, "SV_InsideTessFactor");
  EXPECT_EQ(patch.elements[3].systemValue, dxbc::sysval::FinalTriInsideTessFactor);
  EXPECT_EQ(patch.elements[4].semanticName, "PATCHSCALE");
  EXPECT_EQ(patch.elements[4].registerIndex, 4u);
}

TEST(StageSignatures, DeclarationsGiveSignaturesWithoutTables) {
  std::vector<uint8_t> container;
  ASSERT_TRUE(dxbc::sm::assembleContainer(readText("vs_derived.asm"), container).ok);
  dxbc::ContainerReader reader;
  ASSERT_TRUE(dxbc::ContainerReader::parse(container, reader).ok());
  dxbc::Signature input = signatureOf(reader, dxbc::tag::ISGN);
  dxbc::Signature output = signatureOf(reader, dxbc::tag::OSGN);
  ASSERT_EQ(input.elements.size(), 2u);
  EXPECT_EQ(input.elements[1].registerIndex, 1u);
  EXPECT_EQ(input.elements[1].mask, 0x3);
  ASSERT_EQ(output.elements.size(), 2u);
  EXPECT_EQ(output.elements[0].semanticName, "SV_Position");
  EXPECT_EQ(output.elements[0].systemValue, dxbc::sysval::Position);
  // Generic elements get the same name on both sides of a stage boundary.
  EXPECT_EQ(output.elements[1].semanticName, input.elements[1].semanticName);
}

}  // namespace
