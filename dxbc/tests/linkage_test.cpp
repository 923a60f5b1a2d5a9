// SPDX-License-Identifier: MIT
// Input-layout and stream-output mapping against rebuilt corpus signatures.

#include <gtest/gtest.h>

#include "corpus.h"
#include "dxbc/dxbc.h"

namespace dxbc::test {
namespace {

struct Rebuilt {
  std::string name;
  ProgramType type;
  ContainerSignatures original;
  RebuiltSignatures rebuilt;
};

std::vector<Rebuilt> rebuildCorpus() {
  std::vector<Rebuilt> all;
  for (const std::string& path : corpusFiles()) {
    std::vector<uint8_t> bytes = readBytes(path), out;
    ContainerReader container;
    ShaderCode code;
    Rebuilt r;
    DdiShader ddi;
    if (!ContainerReader::parse(bytes, container).ok() || !getShaderCode(container, code).ok() ||
        !stripContainer(container, DdiStride::D3D11_1, ddi).ok() ||
        !readContainerSignatures(container, r.original).ok() ||
        !rebuildContainer(ddi.tokens, ddi.view(), out, &r.rebuilt).ok())
      continue;
    r.name = shortName(path);
    r.type = code.type;
    all.push_back(std::move(r));
  }
  return all;
}

uint32_t formatFor(uint32_t componentType, uint32_t count) {
  static const uint32_t kFloat[] = {41, 16, 6, 2}, kUint[] = {42, 17, 7, 3}, kSint[] = {43, 18, 8, 4};
  const uint32_t* table = componentType == comptype::Uint32 ? kUint
                          : componentType == comptype::Sint32 ? kSint : kFloat;
  return table[count - 1];
}

TEST(Linkage, InputLayoutMapsToRebuiltVertexInputs) {
  const auto all = rebuildCorpus();
  if (all.empty())
    GTEST_SKIP() << "corpus not found";
  size_t checked = 0;
  for (const Rebuilt& r : all) {
    if (r.type != ProgramType::Vertex)
      continue;
    for (const SignatureElement& e : r.original.input.elements) {
      if (e.systemValue != sysval::Undefined)
        continue;   // SV_VertexID/SV_InstanceID are not fed by the input layout
      const uint32_t count = e.mask ? 32 - __builtin_clz(uint32_t(e.mask)) : 1;
      InputElementRef ref{e.registerIndex, formatFor(e.componentType, count)};
      InputElementMapping mapping;
      ASSERT_TRUE(mapInputElement(r.rebuilt.input, ref, mapping).ok()) << r.name;
      // Same (semantic, index) as the rebuilt shader's element at that register.
      bool found = false;
      for (const SignatureElement& rebuilt : r.rebuilt.input.elements) {
        if (rebuilt.registerIndex == e.registerIndex) {
          EXPECT_EQ(mapping.semanticName, rebuilt.semanticName) << r.name;
          EXPECT_EQ(mapping.semanticIndex, rebuilt.semanticIndex) << r.name;
          found = true;
        }
      }
      EXPECT_TRUE(found) << r.name;
      // The vertex format gives the component type the 11.0 stride lacks.
      EXPECT_EQ(mapping.componentType, e.componentType) << r.name;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20u);
}

TEST(Linkage, InputLayoutContainerStandsAlone) {
  const InputElementRef elements[] = {{2, 2 /* R32G32B32A32_FLOAT */}, {0, 16 /* R32G32_FLOAT */},
                                      {5, 30 /* R8G8B8A8_UINT */}};
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(buildInputLayoutContainer(elements, bytes).ok());
  ContainerReader reader;
  ASSERT_TRUE(ContainerReader::parse(bytes, reader).ok());
  ContainerSignatures signatures;
  ASSERT_TRUE(readContainerSignatures(reader, signatures).ok());
  ASSERT_EQ(signatures.input.elements.size(), 3u);
  EXPECT_EQ(signatures.input.elements[0].registerIndex, 0u);
  EXPECT_EQ(signatures.input.elements[0].mask, 0x3);
  EXPECT_EQ(signatures.input.elements[1].semanticIndex, genericSemanticIndex(2, 0));
  EXPECT_EQ(signatures.input.elements[2].componentType, comptype::Uint32);
  // The names agree with what a vertex shader rebuild gives the same registers.
  InputElementMapping mapping;
  ASSERT_TRUE(mapInputElement(Signature{}, elements[2], mapping).ok());
  EXPECT_EQ(mapping.semanticName, signatures.input.elements[2].semanticName);
  EXPECT_EQ(mapping.semanticIndex, signatures.input.elements[2].semanticIndex);

  const InputElementRef clash[] = {{1, 2}, {1, 41}};
  EXPECT_EQ(buildInputLayoutContainer(clash, bytes).code, ErrorCode::SignatureConflict);
  const InputElementRef badFormat[] = {{0, 45 /* D24_UNORM_S8_UINT */}};
  EXPECT_EQ(buildInputLayoutContainer(badFormat, bytes).code, ErrorCode::UnsupportedFormat);
}

TEST(Linkage, StreamOutputMapsToRebuiltOutputs) {
  const auto all = rebuildCorpus();
  if (all.empty())
    GTEST_SKIP() << "corpus not found";
  size_t checked = 0;
  for (const Rebuilt& r : all) {
    if (r.type != ProgramType::Geometry && r.type != ProgramType::Vertex &&
        r.type != ProgramType::Domain)
      continue;
    const auto& original = r.original.output.elements;
    const auto& rebuilt = r.rebuilt.output.elements;
    ASSERT_EQ(original.size(), rebuilt.size()) << r.name;
    for (size_t i = 0; i < original.size(); ++i) {
      const SignatureElement& e = original[i];
      if (e.registerIndex == kNoRegister)
        continue;
      // Whole element, then its last component alone.
      StreamOutputMapping mapping;
      ASSERT_TRUE(mapStreamOutputEntry(r.rebuilt.output, {e.stream, 0, e.registerIndex, e.mask},
                                       mapping).ok()) << r.name;
      EXPECT_EQ(mapping.semanticName, rebuilt[i].semanticName) << r.name;
      EXPECT_EQ(mapping.semanticIndex, rebuilt[i].semanticIndex) << r.name;
      EXPECT_EQ(mapping.startComponent, 0);
      EXPECT_EQ(mapping.stream, e.stream);
      const uint8_t last = uint8_t(0x80 >> __builtin_clz(uint32_t(e.mask) << 24));
      ASSERT_TRUE(mapStreamOutputEntry(r.rebuilt.output, {e.stream, 1, e.registerIndex, last},
                                       mapping).ok()) << r.name;
      EXPECT_EQ(mapping.semanticName, rebuilt[i].semanticName);
      EXPECT_EQ(mapping.componentCount, 1);
      EXPECT_EQ(uint32_t(mapping.startComponent),
                uint32_t(__builtin_ctz(last) - __builtin_ctz(e.mask))) << r.name;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20u);

  Signature output;
  SignatureElement e;
  e.semanticName = "TEXCOORD";
  e.registerIndex = 1;
  e.mask = 0x6;
  output.elements.push_back(e);
  StreamOutputMapping mapping;
  EXPECT_TRUE(mapStreamOutputEntry(output, {0, 0, kNoRegister, 0x7}, mapping).ok());
  EXPECT_TRUE(mapping.semanticName.empty());
  EXPECT_EQ(mapping.componentCount, 3);
  EXPECT_EQ(mapStreamOutputEntry(output, {0, 0, 1, 0x5}, mapping).code, ErrorCode::InvalidArgument);
  EXPECT_EQ(mapStreamOutputEntry(output, {0, 0, 1, 0xe}, mapping).code, ErrorCode::SignatureConflict);
  EXPECT_EQ(mapStreamOutputEntry(output, {0, 0, 1, 0x1}, mapping).code, ErrorCode::NotFound);
  ASSERT_TRUE(mapStreamOutputEntry(output, {0, 2, 1, 0x4}, mapping).ok());
  EXPECT_EQ(mapping.startComponent, 1);
  EXPECT_EQ(mapping.outputSlot, 2u);
  EXPECT_EQ(mapStreamOutputEntry(output, {1, 0, 1, 0x4}, mapping).code, ErrorCode::NotFound);
}

}  // namespace
}  // namespace dxbc::test
