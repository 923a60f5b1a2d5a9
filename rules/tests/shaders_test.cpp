// SPDX-License-Identifier: MIT
// Shader containers and input layouts. Containers are built here byte by byte so each
// corruption is precise; the corpus test runs real compiler output through the same
// checks (skipped when ../shared/corpus is absent).

#include "test_helpers.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dxbc/container.h"
#include "dxbc/fourcc.h"
#include "npt/validation/queries.h"
#include "npt/validation/shaders.h"

using namespace npt::validation;

namespace {

void put32(std::vector<uint8_t>& out, uint32_t value) {
  for (int i = 0; i < 4; i++) out.push_back(uint8_t(value >> (8 * i)));
}

void set32(std::vector<uint8_t>& out, size_t offset, uint32_t value) { std::memcpy(&out[offset], &value, 4); }

struct SignatureElement {
  const char* name;
  uint32_t index;
  uint32_t systemValue;
};

std::vector<uint8_t> signatureChunk(const std::vector<SignatureElement>& elements) {
  dxbc::Signature signature;
  uint32_t reg = 0;
  for (const SignatureElement& e : elements) {
    dxbc::SignatureElement element;
    element.semanticName = e.name;
    element.semanticIndex = e.index;
    element.systemValue = e.systemValue;
    element.componentType = dxbc::comptype::Float32;
    element.registerIndex = reg++;
    element.mask = 0xf;
    element.rwMask = 0xf;
    signature.elements.push_back(element);
  }
  std::vector<uint8_t> out;
  EXPECT_TRUE(dxbc::writeSignature(signature, dxbc::SignatureFormat::Basic, out).ok());
  return out;
}

std::vector<uint8_t> codeChunk(ShaderStage stage, uint32_t major = 5, uint32_t minor = 0) {
  std::vector<uint8_t> chunk;
  put32(chunk, uint32_t(stage) << 16 | major << 4 | minor);
  put32(chunk, 3);            // program length in DWORDs
  put32(chunk, 0x0100003e);   // ret
  return chunk;
}

// A signed container (valid checksum), built by the dxbc library's writer.
std::vector<uint8_t> container(const std::vector<std::pair<const char*, std::vector<uint8_t>>>& chunks) {
  dxbc::ContainerWriter writer;
  for (auto& chunk : chunks) writer.addChunk(dxbc::makeFourCC(chunk.first[0], chunk.first[1], chunk.first[2], chunk.first[3]), std::span<const uint8_t>(chunk.second));
  std::vector<uint8_t> out;
  EXPECT_TRUE(writer.write(out).ok());
  return out;
}

std::vector<uint8_t> vertexShader() {
  return container({{"ISGN", signatureChunk({{"POSITION", 0, 0}, {"TEXCOORD", 1, 0}, {"SV_VertexID", 0, 6}})},
                    {"SHEX", codeChunk(ShaderStage::Vertex)}});
}

TEST(ShaderBytecode, ValidContainer) {
  auto vs = vertexShader();
  ShaderInfo info;
  EXPECT_PASS(validateShaderBytecode(vs.data(), vs.size(), ShaderStage::Vertex, &info));
  EXPECT_EQ(info.majorVersion, 5u);
  EXPECT_TRUE(info.hasInputSignature);
  EXPECT_EQ(info.inputSignature.elements.size(), 3u);
  auto ps = container({{"SHDR", codeChunk(ShaderStage::Pixel, 4, 1)}});
  EXPECT_PASS(validateShaderBytecode(ps.data(), ps.size(), ShaderStage::Pixel));
}

TEST(ShaderBytecode, FeatureLevelCapsTheShaderModel) {
  auto sm40 = container({{"SHDR", codeChunk(ShaderStage::Pixel, 4, 0)}});
  auto sm41 = container({{"SHDR", codeChunk(ShaderStage::Pixel, 4, 1)}});
  auto sm50 = container({{"SHEX", codeChunk(ShaderStage::Pixel, 5, 0)}});
  // A 4_0_level_9_x profile: the SM4 program beside its Aon9 (level 9) bytecode.
  auto level9 = container({{"Aon9", std::vector<uint8_t>(16)}, {"SHDR", codeChunk(ShaderStage::Pixel, 4, 0)}});
  for (D3D_FEATURE_LEVEL level : {D3D_FEATURE_LEVEL_9_1, D3D_FEATURE_LEVEL_9_3}) {
    EXPECT_PASS(validateShaderFeatureLevel(level9.data(), level9.size(), level));
    EXPECT_REJECT(validateShaderFeatureLevel(sm40.data(), sm40.size(), level), ShaderModel, Fail);
  }
  EXPECT_PASS(validateShaderFeatureLevel(sm40.data(), sm40.size(), D3D_FEATURE_LEVEL_10_0));
  EXPECT_PASS(validateShaderFeatureLevel(level9.data(), level9.size(), D3D_FEATURE_LEVEL_10_0));
  EXPECT_REJECT(validateShaderFeatureLevel(sm41.data(), sm41.size(), D3D_FEATURE_LEVEL_10_0), ShaderModel, Fail);
  EXPECT_PASS(validateShaderFeatureLevel(sm41.data(), sm41.size(), D3D_FEATURE_LEVEL_10_1));
  EXPECT_REJECT(validateShaderFeatureLevel(sm50.data(), sm50.size(), D3D_FEATURE_LEVEL_10_1), ShaderModel, Fail);
  EXPECT_PASS(validateShaderFeatureLevel(sm50.data(), sm50.size(), D3D_FEATURE_LEVEL_11_0));
  EXPECT_PASS(validateShaderFeatureLevel(sm50.data(), sm50.size(), D3D_FEATURE_LEVEL_11_1));
}

TEST(ShaderBytecode, StageMustMatch) {
  auto vs = vertexShader();
  EXPECT_REJECT(validateShaderBytecode(vs.data(), vs.size(), ShaderStage::Pixel), ShaderStageMismatch, Fail);
}

TEST(ShaderBytecode, HeaderAndSize) {
  auto vs = vertexShader();
  EXPECT_REJECT(validateShaderBytecode(vs.data(), 31, ShaderStage::Vertex), ShaderTooSmall, Fail);
  EXPECT_REJECT(validateShaderBytecode(nullptr, 0, ShaderStage::Vertex), ShaderTooSmall, Fail);
  EXPECT_REJECT(validateShaderBytecode(vs.data(), vs.size() - 4, ShaderStage::Vertex), ShaderContainerSize, Fail);
  auto magic = vs;
  magic[0] = 'X';
  EXPECT_REJECT(validateShaderBytecode(magic.data(), magic.size(), ShaderStage::Vertex), ShaderMagic, Fail);
  // Appending bytes without updating the header is a size mismatch too.
  auto longer = vs;
  longer.resize(vs.size() + 16);
  EXPECT_REJECT(validateShaderBytecode(longer.data(), longer.size(), ShaderStage::Vertex), ShaderContainerSize, Fail);
}

TEST(ShaderBytecode, ChunkTableAndBounds) {
  auto vs = vertexShader();
  auto count = vs;
  set32(count, 28, 0x40000000);
  EXPECT_REJECT(validateShaderBytecode(count.data(), count.size(), ShaderStage::Vertex), ShaderChunkTable, Fail);
  auto offset = vs;
  set32(offset, 32, uint32_t(vs.size() - 4));
  EXPECT_REJECT(validateShaderBytecode(offset.data(), offset.size(), ShaderStage::Vertex), ShaderChunkBounds, Fail);
  auto inside = vs;
  set32(inside, 32, 8);   // points into the header
  EXPECT_REJECT(validateShaderBytecode(inside.data(), inside.size(), ShaderStage::Vertex), ShaderChunkBounds, Fail);
  auto size = vs;
  const uint32_t first = 40;   // header 32 + two offsets
  set32(size, first + 4, 0xfffffff0u);
  EXPECT_REJECT(validateShaderBytecode(size.data(), size.size(), ShaderStage::Vertex), ShaderChunkBounds, Fail);
}

TEST(ShaderBytecode, CodeChunk) {
  auto none = container({{"ISGN", signatureChunk({})}});
  EXPECT_REJECT(validateShaderBytecode(none.data(), none.size(), ShaderStage::Vertex), ShaderNoCode, Fail);
  auto code = codeChunk(ShaderStage::Vertex);
  set32(code, 4, 100);   // claims 100 DWORDs
  auto longProgram = container({{"SHEX", code}});
  EXPECT_REJECT(validateShaderBytecode(longProgram.data(), longProgram.size(), ShaderStage::Vertex), ShaderCodeBounds,
                Fail);
  auto sm3 = container({{"SHDR", codeChunk(ShaderStage::Vertex, 3, 0)}});
  EXPECT_FALSE(validateShaderBytecode(sm3.data(), sm3.size(), ShaderStage::Vertex).passed());
  // SM5.1 is Direct3D 12 only.
  auto sm51 = container({{"SHEX", codeChunk(ShaderStage::Vertex, 5, 1)}});
  EXPECT_REJECT(validateShaderBytecode(sm51.data(), sm51.size(), ShaderStage::Vertex), ShaderModel, Fail);
  auto two = container({{"SHEX", codeChunk(ShaderStage::Vertex)}, {"SHDR", codeChunk(ShaderStage::Vertex, 4, 0)}});
  EXPECT_REJECT(validateShaderBytecode(two.data(), two.size(), ShaderStage::Vertex), ShaderNoCode, Fail);
}

TEST(ShaderBytecode, ChecksumMustMatch) {
  // Windows refuses modified bytecode; one flipped bit in the program is enough.
  auto vs = vertexShader();
  vs[vs.size() - 1] ^= 0x01;
  EXPECT_REJECT(validateShaderBytecode(vs.data(), vs.size(), ShaderStage::Vertex), ShaderChecksum, Fail);
}

TEST(ShaderBytecode, CorpusContainersPassForExactlyTheirStage) {
  const std::filesystem::path corpus = NPT_CORPUS_DIR;
  if (!std::filesystem::exists(corpus)) GTEST_SKIP() << "corpus not present: " << corpus;
  size_t files = 0, accepted = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(corpus)) {
    if (entry.path().extension() != ".dxbc") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    files++;
    int stagesAccepted = 0;
    for (uint32_t stage = 0; stage <= 5; stage++) {
      Check check = validateShaderBytecode(bytes.data(), bytes.size(), ShaderStage(stage));
      if (check.passed()) stagesAccepted++;
      // The only containers rejected are those without a program (the corpus also
      // holds D3D12 root signatures, RTS0-only containers), SM5.1 (D3D12) programs,
      // or those of another stage.
      else EXPECT_TRUE(check.rule() == Rule::ShaderStageMismatch || check.rule() == Rule::ShaderNoCode ||
                       check.rule() == Rule::ShaderModel)
          << entry.path() << ": " << check.describe();
    }
    EXPECT_LE(stagesAccepted, 1) << entry.path();
    if (stagesAccepted == 1) {
      accepted++;
      // Truncating a valid container always fails, and never reads past the end.
      for (size_t cut : {size_t(1), size_t(4), bytes.size() / 2}) {
        for (uint32_t stage = 0; stage <= 5; stage++)
          EXPECT_FALSE(validateShaderBytecode(bytes.data(), bytes.size() - cut, ShaderStage(stage)).passed());
      }
    }
  }
  ASSERT_GT(files, 0u);
  // Most of the corpus is SM4/5 compiler output.
  EXPECT_GE(accepted * 10, files * 8) << accepted << " of " << files;
  RecordProperty("corpus_files", int(files));
  RecordProperty("corpus_accepted", int(accepted));
}

std::vector<D3D11_INPUT_ELEMENT_DESC> validLayout() {
  return {
    {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
    {"TEXCOORD", 1, DXGI_FORMAT_R16G16_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0},
    {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 0, D3D11_INPUT_PER_INSTANCE_DATA, 2},
  };
}

TEST(InputLayout, Valid) {
  auto vs = vertexShader();
  auto layout = validLayout();
  EXPECT_PASS(validateInputLayout(layout.data(), uint32_t(layout.size()), vs.data(), vs.size()));
  // Semantic names compare case-insensitively.
  layout[0].SemanticName = "position";
  EXPECT_PASS(validateInputLayout(layout.data(), uint32_t(layout.size()), vs.data(), vs.size()));
}

TEST(InputLayout, ElementRules) {
  auto vs = vertexShader();
  auto check = [&](auto mutate) {
    auto layout = validLayout();
    mutate(layout);
    return validateInputLayout(layout.data(), uint32_t(layout.size()), vs.data(), vs.size());
  };
  EXPECT_REJECT(check([](auto& l) { l[1].Format = DXGI_FORMAT_BC1_UNORM; }), InputLayoutFormat, Fail);
  EXPECT_REJECT(check([](auto& l) { l[1].Format = DXGI_FORMAT_R8G8B8A8_TYPELESS; }), InputLayoutFormat, Fail);
  EXPECT_REJECT(check([](auto& l) { l[1].Format = DXGI_FORMAT_UNKNOWN; }), InputLayoutFormat, Fail);
  EXPECT_REJECT(check([](auto& l) { l[2].InputSlot = 32; }), InputLayoutSlot, Fail);
  EXPECT_REJECT(check([](auto& l) { l[2].InputSlotClass = D3D11_INPUT_CLASSIFICATION(2); }), InputLayoutClass, Fail);
  EXPECT_REJECT(check([](auto& l) { l[1].InstanceDataStepRate = 1; }), InputLayoutStepRate, Fail);
  EXPECT_REJECT(check([](auto& l) { l[2].InputSlot = 0; }), InputLayoutSlotClassMix, Fail);
  EXPECT_REJECT(check([](auto& l) { l[1].AlignedByteOffset = 2047; }), InputLayoutOffset, Fail);
  // Components start aligned to their size, at most 4 bytes (Wine's d3d11 refuses the same).
  EXPECT_REJECT(check([](auto& l) { l[1].AlignedByteOffset = 14; }), InputLayoutOffset, Fail);
  EXPECT_PASS(check([](auto& l) { l[1].AlignedByteOffset = 16; }));
  EXPECT_REJECT(check([](auto& l) { l[2].SemanticName = "TEXCOORD"; l[2].SemanticIndex = 1; }), InputLayoutDuplicate,
                Fail);
  EXPECT_REJECT(check([](auto& l) { l[0].SemanticName = ""; }), InputLayoutSemantic, Fail);
  // The shader reads TEXCOORD1: a layout without it cannot feed the shader.
  EXPECT_REJECT(check([](auto& l) { l[1].SemanticIndex = 2; }), InputLayoutSemantic, Fail);
  // An appended element starts on its alignment: a float after a single byte lands at byte 4.
  EXPECT_PASS(check([](auto& l) {
    l[2].Format = DXGI_FORMAT_R8_UNORM;
    l.push_back({"TEXCOORD", 2, DXGI_FORMAT_R32_FLOAT, 1, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_INSTANCE_DATA, 2});
  }));
}

// What a driver gets as each element's offset: appended elements after the slot's previous
// element, on their component alignment (a float after a byte at 4, a half after a byte
// at 2), slots counted apart, explicit offsets kept.
TEST(InputLayout, AppendedElementOffsets) {
  const D3D11_INPUT_ELEMENT_DESC layout[] = {
    {"A", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0},
    {"B", 0, DXGI_FORMAT_R8_UNORM, 1, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_INSTANCE_DATA, 1},
    {"C", 0, DXGI_FORMAT_R32_FLOAT, 1, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_INSTANCE_DATA, 1},
    {"D", 0, DXGI_FORMAT_R8_UNORM, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0},
    {"E", 0, DXGI_FORMAT_R16_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0},
    {"F", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 32, D3D11_INPUT_PER_VERTEX_DATA, 0},
    {"G", 0, DXGI_FORMAT_R32_UINT, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0},
  };
  uint32_t offsets[7] = {};
  inputElementOffsets(layout, 7, offsets);
  EXPECT_EQ(offsets[0], 0u);
  EXPECT_EQ(offsets[1], 0u);
  EXPECT_EQ(offsets[2], 4u);
  EXPECT_EQ(offsets[3], 12u);
  EXPECT_EQ(offsets[4], 14u);
  EXPECT_EQ(offsets[5], 32u);
  EXPECT_EQ(offsets[6], 36u);
}

TEST(InputLayout, OnlyTheInputAssemblersSystemValuesNeedNoElement) {
  // SV_VertexID and SV_InstanceID come from the input assembler; any other system value in
  // the signature (SV_Position of a pixel shader's) must be fed like a plain input.
  // (A pixel shader's SV_InstanceID input carries no system value: known by its name.)
  auto ps = container({{"ISGN", signatureChunk({{"SV_Position", 0, 1}, {"SV_InstanceID", 0, 0}, {"SV_VertexID", 0, 6}})},
                       {"SHEX", codeChunk(ShaderStage::Pixel)}});
  std::vector<D3D11_INPUT_ELEMENT_DESC> layout = {
    {"SV_Position", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
  };
  EXPECT_PASS(validateInputLayout(layout.data(), 1, ps.data(), ps.size()));
  layout[0].SemanticName = "POSITION";
  EXPECT_REJECT(validateInputLayout(layout.data(), 1, ps.data(), ps.size()), InputLayoutSemantic, Fail);
}

TEST(InputLayout, CountAndBytecode) {
  auto vs = vertexShader();
  std::vector<D3D11_INPUT_ELEMENT_DESC> many(33, validLayout()[0]);
  EXPECT_REJECT(validateInputLayout(many.data(), 33, vs.data(), vs.size()), InputLayoutCount, Fail);
  auto layout = validLayout();
  // Any stage's bytecode gives the signature (Windows reads only that): a compute shader's
  // has nothing to feed, a pixel shader's is matched like a vertex shader's.
  auto cs = container({{"SHEX", codeChunk(ShaderStage::Compute)}});
  EXPECT_PASS(validateInputLayout(layout.data(), 3, cs.data(), cs.size()));
  auto ps = container({{"ISGN", signatureChunk({{"TEXCOORD", 1, 0}})}, {"SHEX", codeChunk(ShaderStage::Pixel)}});
  EXPECT_PASS(validateInputLayout(layout.data(), 3, ps.data(), ps.size()));
  auto psOther = container({{"ISGN", signatureChunk({{"NORMAL", 0, 0}})}, {"SHEX", codeChunk(ShaderStage::Pixel)}});
  EXPECT_REJECT(validateInputLayout(layout.data(), 3, psOther.data(), psOther.size()), InputLayoutSemantic, Fail);
  EXPECT_REJECT(validateInputLayout(layout.data(), 3, vs.data(), vs.size() - 1), ShaderContainerSize, Fail);
  // A signed container whose signature names point outside their chunk.
  auto signature = signatureChunk({{"POSITION", 0, 0}});
  set32(signature, 8, 0x7fffffff);   // first element's name offset
  auto badName = container({{"ISGN", signature}, {"SHEX", codeChunk(ShaderStage::Vertex)}});
  EXPECT_REJECT(validateInputLayout(layout.data(), 3, badName.data(), badName.size()), ShaderSignature, Fail);
}

}  // namespace

namespace {

TEST(StreamOutput, Declarations) {
  D3D11_SO_DECLARATION_ENTRY entries[] = {
    {0, "SV_POSITION", 0, 0, 4, 0},
    {0, nullptr, 0, 0, 2, 0},   // gap of two components
    {1, "TEXCOORD", 0, 1, 3, 1},
  };
  const UINT strides[] = {24, 12};
  EXPECT_PASS(validateStreamOutput(entries, 3, strides, 2, 0));
  EXPECT_PASS(validateStreamOutput(entries, 3, strides, 2, D3D11_SO_NO_RASTERIZED_STREAM));
  EXPECT_REJECT(validateStreamOutput(entries, 3, strides, 2, 4), ShaderStreamOutput, Fail);
  EXPECT_REJECT(validateStreamOutput(entries, 0, strides, 2, 0), ShaderStreamOutput, Fail);
  EXPECT_REJECT(validateStreamOutput(entries, 3, strides, 5, 0), ShaderStreamOutput, Fail);
  const UINT badStride[] = {2050};
  EXPECT_REJECT(validateStreamOutput(entries, 3, badStride, 1, 0), ShaderStreamOutput, Fail);
  auto with = [&](auto mutate) {
    D3D11_SO_DECLARATION_ENTRY copy[3] = {entries[0], entries[1], entries[2]};
    mutate(copy);
    return validateStreamOutput(copy, 3, strides, 2, 0);
  };
  EXPECT_REJECT(with([](auto* e) { e[0].Stream = 4; }), ShaderStreamOutput, Fail);
  EXPECT_REJECT(with([](auto* e) { e[2].OutputSlot = 4; }), ShaderStreamOutput, Fail);
  EXPECT_REJECT(with([](auto* e) { e[2].StartComponent = 2; }), ShaderStreamOutput, Fail);
  EXPECT_REJECT(with([](auto* e) { e[0].ComponentCount = 0; }), ShaderStreamOutput, Fail);
}

TEST(QueryDesc, Rules) {
  EXPECT_PASS(validateQueryDesc({D3D11_QUERY_TIMESTAMP, 0}, false));
  EXPECT_PASS(validateQueryDesc({D3D11_QUERY_OCCLUSION_PREDICATE, D3D11_QUERY_MISC_PREDICATEHINT}, true));
  EXPECT_PASS(validateQueryDesc({D3D11_QUERY_SO_OVERFLOW_PREDICATE, 0}, true));
  // The per-stream overflow predicates come from CreateQuery only (as on Windows).
  EXPECT_PASS(validateQueryDesc({D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM2, 0}, false));
  EXPECT_REJECT(validateQueryDesc({D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM2, 0}, true), QueryType, Fail);
  EXPECT_REJECT(validateQueryDesc({D3D11_QUERY(16), 0}, false), QueryType, Fail);
  EXPECT_REJECT(validateQueryDesc({D3D11_QUERY_OCCLUSION, 0}, true), QueryType, Fail);
  EXPECT_REJECT(validateQueryDesc({D3D11_QUERY_EVENT, 0x2}, false), QueryMiscFlags, Fail);
  EXPECT_REJECT(validateQueryDesc({D3D11_QUERY_EVENT, D3D11_QUERY_MISC_PREDICATEHINT}, false), QueryMiscFlags, Fail);
  // The per-stream statistics sit between the per-stream predicates: no predicate hint.
  EXPECT_PASS(validateQueryDesc({D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM1, D3D11_QUERY_MISC_PREDICATEHINT}, false));
  EXPECT_REJECT(validateQueryDesc({D3D11_QUERY_SO_STATISTICS_STREAM1, D3D11_QUERY_MISC_PREDICATEHINT}, false),
                QueryMiscFlags, Fail);
}

// D3D11_QUERY's values 8..15 alternate statistics (even) and overflow predicates (odd).
TEST(QueryDesc, PredicatesAndTheirResultSizes) {
  for (D3D11_QUERY q : {D3D11_QUERY_OCCLUSION_PREDICATE, D3D11_QUERY_SO_OVERFLOW_PREDICATE,
                        D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0, D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3}) {
    EXPECT_TRUE(isPredicateQuery(q)) << q;
    EXPECT_EQ(queryDataSize(q), sizeof(BOOL)) << q;
  }
  for (D3D11_QUERY q : {D3D11_QUERY_EVENT, D3D11_QUERY_OCCLUSION, D3D11_QUERY_SO_STATISTICS,
                        D3D11_QUERY_SO_STATISTICS_STREAM0, D3D11_QUERY_SO_STATISTICS_STREAM1,
                        D3D11_QUERY_SO_STATISTICS_STREAM3})
    EXPECT_FALSE(isPredicateQuery(q)) << q;
  EXPECT_EQ(queryDataSize(D3D11_QUERY_SO_STATISTICS_STREAM2), sizeof(D3D11_QUERY_DATA_SO_STATISTICS));
  EXPECT_EQ(queryDataSize(D3D11_QUERY_PIPELINE_STATISTICS), sizeof(D3D11_QUERY_DATA_PIPELINE_STATISTICS));
  EXPECT_EQ(queryDataSize(D3D11_QUERY(16)), 0u);
}

}  // namespace
