// SPDX-License-Identifier: MIT
// The recording backend reports what a real driver would silently misbehave on, and
// accepts what is valid: each invariant once on each side.
#include <gtest/gtest.h>

#include "npt/backends/backend.h"
#include "npt/backends/recording.h"

namespace npt::backends::recording {
namespace {

class RecordingBackendTest : public ::testing::Test {
protected:
  void SetUp() override {
    registerRecordingBackend();
    resetJournal();
    before = liveObjects();
    ASSERT_TRUE(openBackend("recording", backend).ok());
    ASSERT_TRUE(backend->createDevice(DeviceRequest{}, objects).ok());
    device = objects.device;
    context = objects.immediateContext;
  }
  void TearDown() override {
    context->Release();
    device->Release();
    EXPECT_EQ(liveObjects(), before) << "every object released";
  }
  std::string violations() const {
    std::string all;
    for (const std::string& v : journal().violations) all += v + "\n";
    return all;
  }
  ID3D11Texture2D* texture(UINT size, D3D11_USAGE usage = D3D11_USAGE_DEFAULT, UINT cpu = 0) {
    D3D11_TEXTURE2D_DESC desc = {size, size, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, usage,
                                 usage == D3D11_USAGE_STAGING ? 0u : UINT(D3D11_BIND_SHADER_RESOURCE), cpu, 0};
    ID3D11Texture2D* out = nullptr;
    EXPECT_EQ(device->CreateTexture2D(&desc, nullptr, &out), S_OK);
    return out;
  }

  std::unique_ptr<Backend> backend;
  DeviceObjects objects;
  ID3D11Device* device = nullptr;
  ID3D11DeviceContext* context = nullptr;
  int64_t before = 0;
};

TEST_F(RecordingBackendTest, ValidCallsAreRecordedWithoutViolations) {
  ID3D11Texture2D* tex = texture(16);
  ID3D11ShaderResourceView* srv = nullptr;
  ASSERT_EQ(device->CreateShaderResourceView(tex, nullptr, &srv), S_OK);
  context->PSSetShaderResources(127, 1, &srv);
  D3D11_BOX box = {0, 0, 0, 16, 16, 1};
  std::vector<uint8_t> pixels(16 * 64);
  context->UpdateSubresource(tex, 0, &box, pixels.data(), 64, 0);
  ID3D11Texture2D* staging = texture(16, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
  context->CopyResource(staging, tex);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  ASSERT_EQ(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped), S_OK);
  EXPECT_EQ(mapped.RowPitch, 256u) << "padded like a driver's";
  context->Unmap(staging, 0);
  srv->Release();
  tex->Release();
  staging->Release();
  EXPECT_TRUE(journalHas("UpdateSubresource"));
  EXPECT_TRUE(journalHas("Map"));
  EXPECT_EQ(violations(), "");
}

TEST_F(RecordingBackendTest, InvalidCallsAreViolations) {
  ID3D11Texture2D* tex = texture(16);
  D3D11_BOX outside = {8, 0, 0, 24, 4, 1};
  std::vector<uint8_t> pixels(4096);
  context->UpdateSubresource(tex, 0, &outside, pixels.data(), 64, 0);
  ID3D11Buffer* buffer = nullptr;
  D3D11_BUFFER_DESC desc = {64, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0, 0};
  ASSERT_EQ(device->CreateBuffer(&desc, nullptr, &buffer), S_OK);
  // A buffer passed where a view belongs (a wrong-type handle resolved without a check).
  auto* wrong = reinterpret_cast<ID3D11ShaderResourceView*>(buffer);
  context->PSSetShaderResources(0, 1, &wrong);
  context->PSSetShaderResources(120, 9, nullptr);   // slots 120..128 of 128
  D3D11_SHADER_RESOURCE_VIEW_DESC srv = {};
  srv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  srv.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
  srv.Texture2D.MostDetailedMip = 1;
  srv.Texture2D.MipLevels = 1;   // mip 1 of a 1-mip texture
  ID3D11ShaderResourceView* view = nullptr;
  device->CreateShaderResourceView(tex, &srv, &view);
  context->Unmap(tex, 0);   // never mapped
  context->Dispatch(70000, 1, 1);
  if (view) view->Release();
  buffer->Release();
  tex->Release();
  const std::string all = violations();
  EXPECT_NE(all.find("box outside the subresource"), std::string::npos) << all;
  EXPECT_NE(all.find("a buffer where another kind is expected"), std::string::npos) << all;
  EXPECT_NE(all.find("slots 120+9 of 128"), std::string::npos) << all;
  EXPECT_NE(all.find("mips 1+1 of 1"), std::string::npos) << all;
  EXPECT_NE(all.find("not mapped"), std::string::npos) << all;
  EXPECT_NE(all.find("70000x1x1 groups"), std::string::npos) << all;
}

TEST_F(RecordingBackendTest, ViewsKeepTheirResourceAliveAsInD3D11) {
  ID3D11Texture2D* tex = texture(4);
  ID3D11ShaderResourceView* srv = nullptr;
  ASSERT_EQ(device->CreateShaderResourceView(tex, nullptr, &srv), S_OK);
  tex->Release();   // the view keeps the texture alive, as in D3D11
  srv->Release();   // now both are gone
  EXPECT_EQ(violations(), "");
  EXPECT_EQ(liveObjects(), before + 2) << "device and immediate context only";
}

TEST_F(RecordingBackendTest, ReadsOfInitialDataAreJournaled) {
  std::vector<uint8_t> bytes(64 * 4);
  D3D11_SUBRESOURCE_DATA data = {bytes.data(), 64, 0};
  D3D11_TEXTURE2D_DESC desc = {16, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                               D3D11_BIND_SHADER_RESOURCE, 0, 0};
  ID3D11Texture2D* tex = nullptr;
  ASSERT_EQ(device->CreateTexture2D(&desc, &data, &tex), S_OK);
  tex->Release();
  EXPECT_TRUE(journalReadInside(bytes.data(), bytes.size()));
  std::vector<uint8_t> other(16);
  EXPECT_FALSE(journalReadInside(other.data(), other.size()));
}

}  // namespace
}  // namespace npt::backends::recording
