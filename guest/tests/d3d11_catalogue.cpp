// SPDX-License-Identifier: MIT
#include "d3d11_catalogue.h"

#include <cstdio>

namespace npt::test::catalogue {

namespace {

const char kVertexShader[] =
    "struct In { float4 position : POSITION; float2 uv : TEXCOORD; };\n"
    "float4 main(In v) : SV_Position { return v.position + float4(v.uv, 0, 0); }\n";
const char kPixelShader[] = "float4 main() : SV_Target { return float4(1, 0, 0, 1); }\n";

ID3DBlob* compile(const char* source, const char* profile) {
  ID3DBlob* code = nullptr;
  ID3DBlob* errors = nullptr;
  HRESULT hr = D3DCompile(source, std::strlen(source), "catalogue", nullptr, nullptr, "main", profile, 0, 0, &code, &errors);
  if (errors)
    errors->Release();
  return SUCCEEDED(hr) ? code : nullptr;
}

std::string hex(HRESULT hr) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08lx", static_cast<unsigned long>(hr));
  return text;
}

struct EnvHolder {
  Env env;
  EnvHolder() {
    D3D11Under& under = D3D11Under::get();
    if (!under.ready() || FAILED(under.createDevice(&env.device, &env.context)))
      return;
    env.vertexShader = compile(kVertexShader, "vs_4_0");
    env.pixelShader = compile(kPixelShader, "ps_4_0");
  }
  ~EnvHolder() {
    if (env.vertexShader)
      env.vertexShader->Release();
    if (env.pixelShader)
      env.pixelShader->Release();
    if (env.context)
      env.context->Release();
    if (env.device)
      env.device->Release();
  }
};

}

Env& Env::get() {
  static EnvHolder holder;
  return holder.env;
}

ID3D11Texture2D* Env::texture2D(UINT width, UINT height, DXGI_FORMAT format, UINT bind, UINT mips, UINT arraySize,
                                D3D11_USAGE usage, UINT cpu, UINT misc) {
  D3D11_TEXTURE2D_DESC desc = {};
  desc.Width = width;
  desc.Height = height;
  desc.MipLevels = mips;
  desc.ArraySize = arraySize;
  desc.Format = format;
  desc.SampleDesc.Count = 1;
  desc.Usage = usage;
  desc.BindFlags = bind;
  desc.CPUAccessFlags = cpu;
  desc.MiscFlags = misc;
  ID3D11Texture2D* texture = nullptr;
  return SUCCEEDED(device->CreateTexture2D(&desc, nullptr, &texture)) ? texture : nullptr;
}

ID3D11Buffer* Env::buffer(UINT size, UINT bind, UINT misc, UINT stride, D3D11_USAGE usage, UINT cpu, const void* data) {
  D3D11_BUFFER_DESC desc = { size, usage, bind, cpu, misc, stride };
  D3D11_SUBRESOURCE_DATA init = { data, 0, 0 };
  ID3D11Buffer* buffer = nullptr;
  return SUCCEEDED(device->CreateBuffer(&desc, data ? &init : nullptr, &buffer)) ? buffer : nullptr;
}

std::vector<uint8_t> Env::readBuffer(ID3D11Buffer* source, UINT size) {
  std::vector<uint8_t> bytes;
  ID3D11Buffer* staging = buffer(size, 0, 0, 0, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
  if (!staging)
    return bytes;
  context->CopyResource(staging, source);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  if (SUCCEEDED(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped))) {
    bytes.assign(static_cast<uint8_t*>(mapped.pData), static_cast<uint8_t*>(mapped.pData) + size);
    context->Unmap(staging, 0);
  }
  staging->Release();
  return bytes;
}

void RowTest::run() {
  const Row& row = GetParam();
  D3D11Under& under = D3D11Under::get();
  ASSERT_TRUE(under.ready()) << under.error();
  if (row.oracle == kDocumentedOnly && !under.neptune())
    GTEST_SKIP() << "Windows' documented answer, which Wine 8's d3d11 does not give (it accepts the call)";
  Env& env = Env::get();
  ASSERT_NE(env.device, nullptr);
  ASSERT_NE(env.vertexShader, nullptr);
  env.context->ClearState();
  const ULONG deviceRefs = refcount(env.device);
  IUnknown* created = nullptr;
  const HRESULT hr = row.call(env, &created);
  EXPECT_EQ(hex(hr), hex(row.expected));
  EXPECT_EQ(created, nullptr) << "the call created an object";
  if (created)
    created->Release();
  EXPECT_EQ(refcount(env.device), deviceRefs) << "the call leaked a device reference";
}

}  // namespace npt::test::catalogue

namespace npt::test::catalogue {

TEST_P(RowTest, AnswersAsWindows) {
  run();
}

}  // namespace npt::test::catalogue
