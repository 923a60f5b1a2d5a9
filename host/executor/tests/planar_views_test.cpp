// SPDX-License-Identifier: MIT
// Views of planar video formats through the 11.3 view descs (PlaneSlice): plane 0 in the
// luma format, plane 1 in the chroma format reach the backend; a plane slice that is not
// the plane of the view's format, a format of no plane and default views are refused
// before it (E_INVALIDARG on Windows: no backend object).
#include "device_fixture.h"

namespace npt::executor::testing {
namespace {

class PlanarViewsTest : public DeviceTest {
protected:
  protocol::ObjectId srv1(protocol::ObjectId resource, DXGI_FORMAT format, UINT plane) {
    D3D11_SHADER_RESOURCE_VIEW_DESC1 desc = {};
    desc.Format = format;
    desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
    desc.Texture2D.MipLevels = 1;
    desc.Texture2D.PlaneSlice = plane;
    protocol::ObjectId id = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device3_CreateShaderResourceView1(h.w(), device, resource, &desc, id));
    h.runOk();
    return id;
  }
  protocol::ObjectId rtv1(protocol::ObjectId resource, DXGI_FORMAT format, UINT plane) {
    D3D11_RENDER_TARGET_VIEW_DESC1 desc = {};
    desc.Format = format;
    desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
    desc.Texture2D.PlaneSlice = plane;
    protocol::ObjectId id = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device3_CreateRenderTargetView1(h.w(), device, resource, &desc, id));
    h.runOk();
    return id;
  }
  protocol::ObjectId uav1(protocol::ObjectId resource, DXGI_FORMAT format, UINT plane) {
    D3D11_UNORDERED_ACCESS_VIEW_DESC1 desc = {};
    desc.Format = format;
    desc.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2D;
    desc.Texture2D.PlaneSlice = plane;
    protocol::ObjectId id = h.newId();
    EXPECT_TRUE(protocol::encode_ID3D11Device3_CreateUnorderedAccessView1(h.w(), device, resource, &desc, id));
    h.runOk();
    return id;
  }
  bool created(protocol::ObjectId id) { return h.executor().backendObject(id) != nullptr; }
};

TEST_F(PlanarViewsTest, APlaneSliceOfAResourceThatIsNotPlanarIsRefused) {
  protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET, 0);
  EXPECT_TRUE(created(srv1(texture, DXGI_FORMAT_R8G8B8A8_UNORM, 0)));
  EXPECT_FALSE(created(srv1(texture, DXGI_FORMAT_R8G8B8A8_UNORM, 1)));
  EXPECT_FALSE(created(rtv1(texture, DXGI_FORMAT_R8G8B8A8_UNORM, 1)));
  EXPECT_TRUE(h.logContains("E4012")) << "ViewPlaneSlice";
  EXPECT_FALSE(h.executor().isFatal());
}

TEST_F(PlanarViewsTest, EachPlaneIsViewedInItsOwnFormat) {
  // 4x4 NV12: 4 rows of luma, 2 rows of interleaved chroma, one pitch.
  std::vector<uint8_t> texels(4 * 6);
  for (size_t i = 0; i < texels.size(); i++) texels[i] = uint8_t(i * 9);
  NPT_SUBRESOURCE_DATA data = {h.stage(0, texels.data(), uint32_t(texels.size())), 4, 0};
  const UINT bind = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS;
  protocol::ObjectId texture = texture2D(4, 4, D3D11_USAGE_DEFAULT, bind, 0, DXGI_FORMAT_NV12, &data);
  const bool backendHasNV12 = created(texture);
  RecordProperty("backend_creates_nv12", backendHasNV12 ? 1 : 0);
  if (!backendHasNV12) {
    // The backend's refusal (its own, or its format caps, which validation asks): the view
    // rules are covered by the PlanarViews tests of rules/.
    std::string why;
    for (const std::string& line : h.logLines())
      if (line.find("CreateTexture2D") != std::string::npos) why = line;
    EXPECT_TRUE(why.find("the backend refused") != std::string::npos || why.find("support") != std::string::npos) << why;
    GTEST_SKIP() << "the backend does not create NV12 textures: " << why;
  }
  EXPECT_TRUE(created(srv1(texture, DXGI_FORMAT_R8_UNORM, 0)));
  EXPECT_TRUE(created(srv1(texture, DXGI_FORMAT_R8G8_UNORM, 1)));
  // Refused before the backend: the plane of another format, a format of no plane, no desc.
  EXPECT_FALSE(created(srv1(texture, DXGI_FORMAT_R8_UNORM, 1)));
  EXPECT_FALSE(created(srv1(texture, DXGI_FORMAT_R8G8_UNORM, 2)));
  EXPECT_FALSE(created(srv1(texture, DXGI_FORMAT_R8G8B8A8_UNORM, 0)));
  EXPECT_FALSE(created(uav1(texture, DXGI_FORMAT_R8G8_UINT, 0)));
  protocol::ObjectId defaultView = h.newId();
  ASSERT_TRUE(protocol::encode_ID3D11Device_CreateShaderResourceView(h.w(), device, texture, nullptr, defaultView));
  h.runOk();
  EXPECT_FALSE(created(defaultView));
  EXPECT_TRUE(h.logContains("E4012"));
  EXPECT_TRUE(h.logContains("E4003"));
  EXPECT_FALSE(h.executor().isFatal());
}

}  // namespace
}  // namespace npt::executor::testing
