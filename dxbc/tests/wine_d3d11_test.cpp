// SPDX-License-Identifier: MIT
// Wine's d3d11 and d3dcompiler as consumers of rebuilt containers: every corpus shader
// and its rebuild (11.1 stride, from what the DDI delivers) must get the same answer
// from Create*Shader, D3DReflect must report the same signature parameters, and input
// layouts / stream-output declarations translated through the rebuilt signatures must
// be accepted exactly when the originals are.

#include <d3d11.h>
#include <d3d11shader.h>
#include <d3dcompiler.h>
#include <gtest/gtest.h>
#include <wrl/client.h>

#include <cstring>

#include "corpus.h"
#include "dxbc/dxbc.h"

using Microsoft::WRL::ComPtr;

namespace dxbc::test {
namespace {

struct Shader {
  std::string name;
  std::vector<uint8_t> original;
  std::vector<uint8_t> rebuilt;
  ProgramType type;
  RebuiltSignatures signatures;
  ContainerSignatures originalSignatures;
};

std::vector<Shader> loadShaders() {
  std::vector<Shader> shaders;
  for (const std::string& path : corpusFiles()) {
    Shader s;
    s.name = shortName(path);
    s.original = readBytes(path);
    ContainerReader container;
    ShaderCode code;
    DdiShader ddi;
    if (!ContainerReader::parse(s.original, container).ok() || !getShaderCode(container, code).ok())
      continue;
    if (!stripContainer(container, DdiStride::D3D11_1, ddi).ok() ||
        !readContainerSignatures(container, s.originalSignatures).ok() ||
        !rebuildContainer(ddi.tokens, ddi.view(), s.rebuilt, &s.signatures).ok()) {
      ADD_FAILURE() << "rebuild failed: " << s.name;
      continue;
    }
    s.type = code.type;
    shaders.push_back(std::move(s));
  }
  return shaders;
}

class WineD3D11 : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    if (corpusFiles().empty())
      return;
    shaders = new std::vector<Shader>(loadShaders());
  }
  static void TearDownTestSuite() {
    delete shaders;
    shaders = nullptr;
  }
  void SetUp() override {
    if (!shaders)
      GTEST_SKIP() << "corpus not found";
    D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_0};
    D3D_FEATURE_LEVEL level{};
    ASSERT_EQ(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, levels, 1,
                                D3D11_SDK_VERSION, &device, &level, &context), S_OK);
  }

  HRESULT create(ProgramType type, const std::vector<uint8_t>& code) {
    const void* p = code.data();
    const SIZE_T n = code.size();
    switch (type) {
      case ProgramType::Vertex: { ComPtr<ID3D11VertexShader> s; return device->CreateVertexShader(p, n, nullptr, &s); }
      case ProgramType::Pixel: { ComPtr<ID3D11PixelShader> s; return device->CreatePixelShader(p, n, nullptr, &s); }
      case ProgramType::Geometry: { ComPtr<ID3D11GeometryShader> s; return device->CreateGeometryShader(p, n, nullptr, &s); }
      case ProgramType::Hull: { ComPtr<ID3D11HullShader> s; return device->CreateHullShader(p, n, nullptr, &s); }
      case ProgramType::Domain: { ComPtr<ID3D11DomainShader> s; return device->CreateDomainShader(p, n, nullptr, &s); }
      case ProgramType::Compute: { ComPtr<ID3D11ComputeShader> s; return device->CreateComputeShader(p, n, nullptr, &s); }
    }
    return E_INVALIDARG;
  }

  static std::vector<Shader>* shaders;
  ComPtr<ID3D11Device> device;
  ComPtr<ID3D11DeviceContext> context;
};

std::vector<Shader>* WineD3D11::shaders = nullptr;

TEST_F(WineD3D11, CreateShaderSameResultForOriginalAndRebuilt) {
  size_t created = 0;
  for (const Shader& s : *shaders) {
    const HRESULT original = create(s.type, s.original);
    const HRESULT rebuilt = create(s.type, s.rebuilt);
    EXPECT_EQ(original, rebuilt) << s.name;
    created += SUCCEEDED(rebuilt);
  }
  std::printf("%zu of %zu shaders created from rebuilt containers\n", created, shaders->size());
  EXPECT_GT(created, shaders->size() / 2);
}

TEST_F(WineD3D11, FlippedChecksumNegativeControl) {
  // Record what Wine does with a corrupt checksum; the rebuilt containers above carry
  // valid ones, so they never depend on a lenient consumer.
  size_t refused = 0, total = 0;
  for (const Shader& s : *shaders) {
    if (FAILED(create(s.type, s.rebuilt)))
      continue;
    std::vector<uint8_t> flipped = s.rebuilt;
    flipped[4] ^= 0x01;
    ++total;
    refused += FAILED(create(s.type, flipped));
  }
  std::printf("flipped checksum: %zu of %zu refused by Wine's d3d11\n", refused, total);
  RecordProperty("flippedChecksumRefused", int(refused));
  RecordProperty("flippedChecksumTotal", int(total));
  // Wine 8's d3d11 does not verify checksums (see README): the check is ours alone.
  ContainerReader reader;
  std::vector<uint8_t> flipped = shaders->front().rebuilt;
  flipped[4] ^= 0x01;
  EXPECT_EQ(ContainerReader::parse(flipped, reader).code, ErrorCode::BadChecksum);
}

void expectSameParameters(const char* what, const std::string& name, ID3D11ShaderReflection* a,
                          ID3D11ShaderReflection* b, UINT count,
                          HRESULT (STDMETHODCALLTYPE ID3D11ShaderReflection::*get)(UINT, D3D11_SIGNATURE_PARAMETER_DESC*)) {
  for (UINT i = 0; i < count; ++i) {
    D3D11_SIGNATURE_PARAMETER_DESC x{}, y{};
    ASSERT_EQ((a->*get)(i, &x), S_OK);
    ASSERT_EQ((b->*get)(i, &y), S_OK);
    EXPECT_EQ(x.Register, y.Register) << name << " " << what << i;
    EXPECT_EQ(x.SystemValueType, y.SystemValueType) << name << " " << what << i;
    EXPECT_EQ(x.ComponentType, y.ComponentType) << name << " " << what << i;
    EXPECT_EQ(x.Mask, y.Mask) << name << " " << what << i;
    EXPECT_EQ(x.ReadWriteMask, y.ReadWriteMask) << name << " " << what << i;
    EXPECT_EQ(x.Stream, y.Stream) << name << " " << what << i;
    EXPECT_EQ(x.MinPrecision, y.MinPrecision) << name << " " << what << i;
    if (x.SystemValueType != D3D_NAME_UNDEFINED) {
      EXPECT_EQ(_stricmp(x.SemanticName, y.SemanticName), 0) << name << " " << what << i;
    }
  }
}

TEST_F(WineD3D11, ReflectionReportsSameSignatures) {
  size_t reflected = 0;
  for (const Shader& s : *shaders) {
    ComPtr<ID3D11ShaderReflection> a, b;
    const HRESULT ha = D3DReflect(s.original.data(), s.original.size(), IID_ID3D11ShaderReflection,
                                  reinterpret_cast<void**>(a.GetAddressOf()));
    const HRESULT hb = D3DReflect(s.rebuilt.data(), s.rebuilt.size(), IID_ID3D11ShaderReflection,
                                  reinterpret_cast<void**>(b.GetAddressOf()));
    EXPECT_EQ(SUCCEEDED(ha), SUCCEEDED(hb)) << s.name;
    if (FAILED(ha) || FAILED(hb))
      continue;
    D3D11_SHADER_DESC da{}, db{};
    ASSERT_EQ(a->GetDesc(&da), S_OK);
    ASSERT_EQ(b->GetDesc(&db), S_OK);
    EXPECT_EQ(da.Version, db.Version) << s.name;
    ASSERT_EQ(da.InputParameters, db.InputParameters) << s.name;
    ASSERT_EQ(da.OutputParameters, db.OutputParameters) << s.name;
    ASSERT_EQ(da.PatchConstantParameters, db.PatchConstantParameters) << s.name;
    expectSameParameters("input", s.name, a.Get(), b.Get(), da.InputParameters,
                         &ID3D11ShaderReflection::GetInputParameterDesc);
    expectSameParameters("output", s.name, a.Get(), b.Get(), da.OutputParameters,
                         &ID3D11ShaderReflection::GetOutputParameterDesc);
    expectSameParameters("patch", s.name, a.Get(), b.Get(), da.PatchConstantParameters,
                         &ID3D11ShaderReflection::GetPatchConstantParameterDesc);
    ++reflected;
  }
  EXPECT_GT(reflected, shaders->size() / 2);
}

DXGI_FORMAT formatFor(const SignatureElement& e) {
  const uint32_t count = e.mask >= 8 ? 4 : e.mask >= 4 ? 3 : e.mask >= 2 ? 2 : 1;
  static const DXGI_FORMAT kFloat[] = {DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R32G32_FLOAT,
                                       DXGI_FORMAT_R32G32B32_FLOAT, DXGI_FORMAT_R32G32B32A32_FLOAT};
  static const DXGI_FORMAT kUint[] = {DXGI_FORMAT_R32_UINT, DXGI_FORMAT_R32G32_UINT,
                                      DXGI_FORMAT_R32G32B32_UINT, DXGI_FORMAT_R32G32B32A32_UINT};
  static const DXGI_FORMAT kSint[] = {DXGI_FORMAT_R32_SINT, DXGI_FORMAT_R32G32_SINT,
                                      DXGI_FORMAT_R32G32B32_SINT, DXGI_FORMAT_R32G32B32A32_SINT};
  return (e.componentType == comptype::Uint32 ? kUint
          : e.componentType == comptype::Sint32 ? kSint : kFloat)[count - 1];
}

TEST_F(WineD3D11, InputLayoutsThroughRebuiltSignature) {
  size_t layouts = 0;
  for (const Shader& s : *shaders) {
    if (s.type != ProgramType::Vertex)
      continue;
    // The application's layout, named after the original semantics.
    std::vector<D3D11_INPUT_ELEMENT_DESC> appLayout;
    std::vector<InputElementRef> ddiLayout;
    for (const SignatureElement& e : s.originalSignatures.input.elements) {
      if (e.systemValue != sysval::Undefined)
        continue;
      D3D11_INPUT_ELEMENT_DESC d{};
      d.SemanticName = e.semanticName.c_str();
      d.SemanticIndex = e.semanticIndex;
      d.Format = formatFor(e);
      d.AlignedByteOffset = D3D11_APPEND_ALIGNED_ELEMENT;
      appLayout.push_back(d);
      ddiLayout.push_back({e.registerIndex, uint32_t(d.Format)});
    }
    if (appLayout.empty())
      continue;
    ComPtr<ID3D11InputLayout> layout;
    const HRESULT original = device->CreateInputLayout(appLayout.data(), UINT(appLayout.size()),
                                                       s.original.data(), s.original.size(), &layout);
    // What Triton sees (input register + format) translated back through the rebuild.
    std::vector<InputElementMapping> mappings(ddiLayout.size());
    std::vector<D3D11_INPUT_ELEMENT_DESC> hostLayout = appLayout;
    for (size_t i = 0; i < ddiLayout.size(); ++i) {
      ASSERT_TRUE(mapInputElement(s.signatures.input, ddiLayout[i], mappings[i]).ok());
      hostLayout[i].SemanticName = mappings[i].semanticName.c_str();
      hostLayout[i].SemanticIndex = mappings[i].semanticIndex;
    }
    const HRESULT rebuilt = device->CreateInputLayout(hostLayout.data(), UINT(hostLayout.size()),
                                                      s.rebuilt.data(), s.rebuilt.size(), &layout);
    EXPECT_EQ(original, rebuilt) << s.name;
    // And with the stand-alone layout signature, before any vertex shader is known.
    std::vector<uint8_t> standAlone;
    ASSERT_TRUE(buildInputLayoutContainer(ddiLayout, standAlone).ok());
    EXPECT_EQ(device->CreateInputLayout(hostLayout.data(), UINT(hostLayout.size()),
                                        standAlone.data(), standAlone.size(), &layout), S_OK)
        << s.name;
    layouts += SUCCEEDED(rebuilt);
  }
  EXPECT_GT(layouts, 5u);
}

TEST_F(WineD3D11, StreamOutputThroughRebuiltSignature) {
  size_t created = 0;
  for (const Shader& s : *shaders) {
    if (s.type != ProgramType::Geometry && s.type != ProgramType::Vertex)
      continue;
    std::vector<D3D11_SO_DECLARATION_ENTRY> appDecl, hostDecl;
    std::vector<StreamOutputMapping> mappings;
    for (const SignatureElement& e : s.originalSignatures.output.elements) {
      if (e.registerIndex == kNoRegister || e.stream != 0)
        continue;
      D3D11_SO_DECLARATION_ENTRY d{};
      d.Stream = e.stream;
      d.SemanticName = e.semanticName.c_str();
      d.SemanticIndex = e.semanticIndex;
      d.StartComponent = 0;
      d.ComponentCount = BYTE(__builtin_popcount(e.mask));
      appDecl.push_back(d);
      StreamOutputMapping mapping;
      ASSERT_TRUE(mapStreamOutputEntry(s.signatures.output, {e.stream, 0, e.registerIndex, e.mask},
                                       mapping).ok()) << s.name;
      mappings.push_back(std::move(mapping));
    }
    if (appDecl.empty())
      continue;
    hostDecl = appDecl;
    for (size_t i = 0; i < hostDecl.size(); ++i) {
      hostDecl[i].SemanticName = mappings[i].semanticName.c_str();
      hostDecl[i].SemanticIndex = mappings[i].semanticIndex;
      hostDecl[i].StartComponent = mappings[i].startComponent;
      hostDecl[i].ComponentCount = mappings[i].componentCount;
    }
    UINT stride = 0;
    for (const auto& d : appDecl)
      stride += 4 * d.ComponentCount;
    ComPtr<ID3D11GeometryShader> gs;
    const HRESULT original = device->CreateGeometryShaderWithStreamOutput(
        s.original.data(), s.original.size(), appDecl.data(), UINT(appDecl.size()), &stride, 1,
        D3D11_SO_NO_RASTERIZED_STREAM, nullptr, &gs);
    const HRESULT rebuilt = device->CreateGeometryShaderWithStreamOutput(
        s.rebuilt.data(), s.rebuilt.size(), hostDecl.data(), UINT(hostDecl.size()), &stride, 1,
        D3D11_SO_NO_RASTERIZED_STREAM, nullptr, &gs);
    EXPECT_EQ(original, rebuilt) << s.name;
    created += SUCCEEDED(rebuilt);
  }
  EXPECT_GT(created, 5u);
}

// Shaders compiled here by Wine's d3dcompiler (not fxc): packed varyings, integer and
// system-value inputs, multiple render targets with a gap, depth output.
constexpr char kHlsl[] = R"(
struct VsIn { float4 pos : POSITION; float2 uv : TEXCOORD0; uint id : BLENDINDICES; float3 n : NORMAL; };
struct VsOut {
  float4 pos : SV_Position;
  float2 uv : TEXCOORD0;
  float2 uv2 : TEXCOORD1;
  nointerpolation uint id : ID;
  float3 n : NORMAL;
};
VsOut vs_main(VsIn i, uint vid : SV_VertexID) {
  VsOut o;
  o.pos = i.pos + float(vid);
  o.uv = i.uv;
  o.uv2 = i.uv * 2.0;
  o.id = i.id + vid;
  o.n = i.n;
  return o;
}
float4 ps_main(VsOut i) : SV_Target {
  return float4(i.uv + i.uv2, float(i.id), i.pos.x);
}
struct PsOut { float4 c0 : SV_Target0; float4 c2 : SV_Target2; float depth : SV_Depth; };
PsOut ps_mrt(VsOut i) {
  PsOut o;
  o.c0 = float4(i.n, 1.0);
  o.c2 = float4(i.uv, 0.0, 1.0);
  o.depth = i.pos.z;
  return o;
}
)";

TEST_F(WineD3D11, HlslCompiledByWineRebuildsAndCreates) {
  struct Entry { const char* entry; const char* profile; ProgramType type; };
  const Entry entries[] = {{"vs_main", "vs_4_0", ProgramType::Vertex},
                           {"vs_main", "vs_5_0", ProgramType::Vertex},
                           {"ps_main", "ps_4_0", ProgramType::Pixel},
                           {"ps_mrt", "ps_5_0", ProgramType::Pixel}};
  for (const Entry& e : entries) {
    ComPtr<ID3DBlob> code, errors;
    HRESULT hr = D3DCompile(kHlsl, sizeof(kHlsl) - 1, "rebuild.hlsl", nullptr, nullptr, e.entry,
                            e.profile, 0, 0, &code, &errors);
    ASSERT_EQ(hr, S_OK) << e.entry << " " << e.profile << ": "
                        << (errors ? static_cast<const char*>(errors->GetBufferPointer()) : "");
    const auto* p = static_cast<const uint8_t*>(code->GetBufferPointer());
    std::vector<uint8_t> original(p, p + code->GetBufferSize());
    ContainerReader container;
    ASSERT_TRUE(ContainerReader::parse(original, container).ok()) << e.entry;
    ContainerSignatures originalSignatures;
    ASSERT_TRUE(readContainerSignatures(container, originalSignatures).ok());
    for (DdiStride stride : {DdiStride::D3D11_1, DdiStride::D3D11_0}) {
      DdiShader ddi;
      ASSERT_TRUE(stripContainer(container, stride, ddi).ok());
      std::vector<uint8_t> rebuilt;
      RebuiltSignatures signatures;
      ASSERT_TRUE(rebuildContainer(ddi.tokens, ddi.view(), rebuilt, &signatures).ok());
      CompareOptions options;
      options.compareComponentType = stride == DdiStride::D3D11_1;
      // Wine's HLSL compiler marks every pixel-shader input component as used whether or
      // not it is read; fxc (and the rebuild) list what instructions read.
      options.compareRwMask = false;
      std::vector<std::string> mismatches;
      compareSignature("input", originalSignatures.input, signatures.input, options, mismatches);
      compareSignature("output", originalSignatures.output, signatures.output, options, mismatches);
      for (const std::string& line : mismatches)
        ADD_FAILURE() << e.entry << " " << e.profile << " stride " << uint32_t(stride) << ": " << line;
      EXPECT_EQ(create(e.type, original), S_OK) << e.entry;
      EXPECT_EQ(create(e.type, rebuilt), S_OK) << e.entry;
    }
  }
}

}  // namespace
}  // namespace dxbc::test
