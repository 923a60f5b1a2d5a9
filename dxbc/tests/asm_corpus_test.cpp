// SPDX-License-Identifier: MIT
// Hand-assembled shaders (dxbc/tests/shaders and dxbc/asm/tests/shaders) extend the
// corpus to cases fxc output in ../shared/corpus lacks: register-less depth variants
// with oMask, clip/cull distances with array indices from the vertex shader, isoline
// tessellation factors, instanced geometry shaders, multi-stream GS, hull-shader phases.
// Their signature tables are assembled into the containers; the rebuild from tokens +
// DDI entries must reproduce them.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dxbc/asm/assembler.h"
#include "dxbc/dxbc.h"

namespace dxbc::test {
namespace {

std::vector<std::string> asmFiles() {
  std::vector<std::string> files;
  for (const char* dir : {DXBC_TEST_SHADER_DIR, DXBC_ASM_SHADER_DIR}) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error))
      if (entry.path().extension() == ".asm")
        files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class AssembledShader : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    std::ifstream file(GetParam());
    std::stringstream text;
    text << file.rdbuf();
    sm::AssemblyResult result = sm::assembleContainer(text.str(), bytes);
    ASSERT_TRUE(result.ok) << result.error.format(GetParam());
    ASSERT_TRUE(ContainerReader::parse(bytes, container).ok());
    ASSERT_TRUE(readContainerSignatures(container, original).ok());
  }

  void rebuild(DdiStride stride, int dropKinds, RebuiltSignatures& out) {
    DdiShader ddi;
    ASSERT_TRUE(stripContainer(container, stride, ddi).ok());
    if (dropKinds & 1) ddi.input.clear();
    if (dropKinds & 2) ddi.output.clear();
    if (dropKinds & 4) ddi.patchConstant.clear();
    std::vector<uint8_t> rebuilt;
    Status status = rebuildContainer(ddi.tokens, ddi.view(), rebuilt, &out);
    ASSERT_TRUE(status.ok()) << status.reason;
    ContainerReader reread;
    ASSERT_TRUE(ContainerReader::parse(rebuilt, reread).ok());
  }

  void compare(const RebuiltSignatures& rebuilt, const CompareOptions& base, int droppedKinds) {
    std::vector<std::string> mismatches;
    CompareOptions options = base;
    options.onlyDeclared = droppedKinds & 1;
    compareSignature("input", original.input, rebuilt.input, options, mismatches);
    options.onlyDeclared = droppedKinds & 2;
    compareSignature("output", original.output, rebuilt.output, options, mismatches);
    options.onlyDeclared = droppedKinds & 4;
    compareSignature("patch", original.patchConstant, rebuilt.patchConstant, options, mismatches);
    for (const std::string& line : mismatches)
      ADD_FAILURE() << line;
  }

  std::vector<uint8_t> bytes;
  ContainerReader container;
  ContainerSignatures original;
};

TEST_P(AssembledShader, Rebuild11_1MatchesExactly) {
  RebuiltSignatures rebuilt;
  rebuild(DdiStride::D3D11_1, 0, rebuilt);
  compare(rebuilt, CompareOptions{}, 0);
  // Chunk variants: OSG5 for SM5 geometry shaders, as in the assembled container.
  SignatureKind kind;
  SignatureFormat format;
  if (original.outputTag && classifySignatureTag(original.outputTag, &kind, &format)) {
    EXPECT_EQ(int(format), int(rebuilt.outputFormat));
  }
}

TEST_P(AssembledShader, Rebuild11_0MatchesExceptComponentTypes) {
  RebuiltSignatures rebuilt;
  rebuild(DdiStride::D3D11_0, 0, rebuilt);
  CompareOptions options;
  options.compareComponentType = false;
  compare(rebuilt, options, 0);
}

TEST_P(AssembledShader, RebuildWithEntriesDroppedRecoversDeclarations) {
  for (int drop : {1, 2, 4, 7}) {
    RebuiltSignatures rebuilt;
    rebuild(DdiStride::D3D11_1, drop, rebuilt);
    compare(rebuilt, CompareOptions{}, drop);
  }
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = std::filesystem::path(info.param).stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Assembled, AssembledShader, ::testing::ValuesIn(asmFiles()), testName);

TEST(AssembledShaders, Present) { EXPECT_GE(asmFiles().size(), 4u); }

}  // namespace
}  // namespace dxbc::test
