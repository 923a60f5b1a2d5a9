// SPDX-License-Identifier: MIT
// Corpus-wide properties: 11.0-stride component-type accuracy (reported) and generic
// names consistent between producer and consumer stages.

#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "corpus.h"
#include "dxbc/dxbc.h"

namespace dxbc::test {
namespace {

struct Loaded {
  std::string name;
  ProgramType type;
  ContainerSignatures original;
  RebuiltSignatures rebuilt;
};

std::vector<Loaded> loadAll(DdiStride stride) {
  std::vector<Loaded> all;
  for (const std::string& path : corpusFiles()) {
    std::vector<uint8_t> bytes = readBytes(path);
    ContainerReader container;
    if (!ContainerReader::parse(bytes, container).ok() ||
        !(container.find(tag::SHDR) || container.find(tag::SHEX)))
      continue;
    Loaded loaded;
    loaded.name = shortName(path);
    DdiShader ddi;
    std::vector<uint8_t> out;
    ShaderCode code;
    if (!stripContainer(container, stride, ddi).ok() ||
        !readContainerSignatures(container, loaded.original).ok() ||
        !getShaderCode(container, code).ok() ||
        !rebuildContainer(ddi.tokens, ddi.view(), out, &loaded.rebuilt).ok())
      continue;
    loaded.type = code.type;
    all.push_back(std::move(loaded));
  }
  return all;
}

TEST(CorpusStats, ComponentTypesWith11_0Stride) {
  const std::vector<Loaded> all = loadAll(DdiStride::D3D11_0);
  if (all.empty())
    GTEST_SKIP() << "corpus not found";
  size_t total = 0, correct = 0;
  for (const Loaded& l : all) {
    const Signature* originals[] = {&l.original.input, &l.original.output, &l.original.patchConstant};
    const Signature* rebuilts[] = {&l.rebuilt.input, &l.rebuilt.output, &l.rebuilt.patchConstant};
    for (int k = 0; k < 3; ++k) {
      ASSERT_EQ(originals[k]->elements.size(), rebuilts[k]->elements.size()) << l.name;
      for (size_t i = 0; i < originals[k]->elements.size(); ++i) {
        ++total;
        correct += originals[k]->elements[i].componentType == rebuilts[k]->elements[i].componentType;
      }
    }
  }
  const double ratio = double(correct) / double(total);
  std::printf("11.0 stride: %zu of %zu elements (%.1f%%) get the original component type\n",
              correct, total, 100.0 * ratio);
  RecordProperty("componentTypeAccuracyPermille", int(ratio * 1000));
  // System values are typed exactly; generic elements by what typed instructions write
  // or read, float otherwise (631/712 when written, see README). Guards the rules.
  EXPECT_GE(ratio, 0.88);
}

// Generic elements are named from (register, first component), so whenever the original
// producer output and consumer input agree on a semantic at the same register, the
// rebuilt ones agree too.
TEST(CorpusStats, GenericNamesConsistentAcrossStages) {
  const std::vector<Loaded> all = loadAll(DdiStride::D3D11_1);
  if (all.empty())
    GTEST_SKIP() << "corpus not found";
  auto upper = [](std::string s) {
    for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
  };
  size_t linkedPairs = 0, linkedElements = 0;
  for (const Loaded& producer : all) {
    if (producer.type == ProgramType::Pixel || producer.type == ProgramType::Compute)
      continue;
    for (const Loaded& consumer : all) {
      if (consumer.type == ProgramType::Vertex || consumer.type == ProgramType::Compute)
        continue;
      // Stage order of the pipeline: VS→HS/GS/PS, HS→DS, DS→GS/PS, GS→PS.
      const ProgramType p = producer.type, c = consumer.type;
      const bool adjacent =
          (p == ProgramType::Vertex && (c == ProgramType::Hull || c == ProgramType::Geometry ||
                                        c == ProgramType::Pixel)) ||
          (p == ProgramType::Hull && c == ProgramType::Domain) ||
          (p == ProgramType::Domain && (c == ProgramType::Geometry || c == ProgramType::Pixel)) ||
          (p == ProgramType::Geometry && c == ProgramType::Pixel);
      if (!adjacent)
        continue;
      const auto& outs = producer.original.output.elements;
      const auto& ins = consumer.original.input.elements;
      if (ins.empty())
        continue;
      // Linked as D3D links: every consumer input is found in the producer by name+index
      // with the same register (system-generated inputs aside).
      bool linked = true;
      std::vector<std::pair<size_t, size_t>> pairs;
      for (size_t i = 0; i < ins.size() && linked; ++i) {
        if (ins[i].registerIndex == kNoRegister)
          continue;
        if (ins[i].systemValue == sysval::IsFrontFace || ins[i].systemValue == sysval::SampleIndex ||
            ins[i].systemValue == sysval::PrimitiveId)
          continue;
        bool found = false;
        for (size_t o = 0; o < outs.size(); ++o) {
          if (upper(outs[o].semanticName) == upper(ins[i].semanticName) &&
              outs[o].semanticIndex == ins[i].semanticIndex && outs[o].stream == 0 &&
              outs[o].registerIndex == ins[i].registerIndex && outs[o].mask == ins[i].mask &&
              outs[o].systemValue == ins[i].systemValue) {
            pairs.emplace_back(o, i);
            found = true;
            break;
          }
        }
        linked = found;
      }
      if (!linked || pairs.empty())
        continue;
      ++linkedPairs;
      for (auto [o, i] : pairs) {
        ++linkedElements;
        const SignatureElement& out = producer.rebuilt.output.elements[o];
        const SignatureElement& in = consumer.rebuilt.input.elements[i];
        EXPECT_EQ(upper(out.semanticName), upper(in.semanticName))
            << producer.name << " -> " << consumer.name << " register " << in.registerIndex;
        EXPECT_EQ(out.semanticIndex, in.semanticIndex)
            << producer.name << " -> " << consumer.name << " register " << in.registerIndex;
      }
    }
  }
  std::printf("%zu linked producer/consumer pairs, %zu linked elements checked\n", linkedPairs,
              linkedElements);
  EXPECT_GT(linkedPairs, 10u);
}

}  // namespace
}  // namespace dxbc::test
