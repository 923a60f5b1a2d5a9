// SPDX-License-Identifier: MIT
// The DXGI DDI through the harness (the runtime) onto Wine's d3d11 (the target), for
// every DXGI table Triton fills (1.1 on the Windows 7 D3D11.0 interface, 1.2 on 11.1, 1.3
// on WDDM 1.3, 1.4 on WDDM 2.0, 1.5 on WDDM 2.1):
// Present (and DXGI 1.3's Present1) for blt-model and flip-model swapchains, Blt/Blt1 that copy, resolve,
// stretch, convert and rotate, RotateResourceIdentities, gamma caps, residency, priorities,
// offer/reclaim, and WDDM 2.x's trim and reclaim results.

#include <gtest/gtest.h>

#include <cstring>

#include "driver_test_support.h"

namespace triton::test {
namespace {

using ddi::DXGI1_2_DDI_BASE_FUNCTIONS;
using ddi::DXGI1_3_DDI_BASE_FUNCTIONS;
using ddi::DXGI1_4_DDI_BASE_FUNCTIONS;
using ddi::DXGI1_5_DDI_BASE_FUNCTIONS;

struct Rgba {
  uint8_t r, g, b, a;
  bool operator==(const Rgba&) const = default;
};
void PrintTo(const Rgba& c, std::ostream* os) {
  *os << "(" << int(c.r) << "," << int(c.g) << "," << int(c.b) << "," << int(c.a) << ")";
}

constexpr Rgba kRed{255, 0, 0, 255}, kGreen{0, 255, 0, 255}, kBlue{0, 0, 255, 255}, kWhite{255, 255, 255, 255};

// A member of the DXGI table the device's interface gets (the 1.1 .. 1.5 table: the
// members they share have one type).
#define TRITON_DXGI(device, member)                                                                        \
  ((device).isWddm2_1()   ? (device).dxgi1_5.member                                                        \
   : (device).isWddm2_0() ? (device).dxgi1_4.member                                                        \
   : (device).isWddm1_3() ? (device).dxgi1_3.member                                                        \
   : (device).is11_1()    ? (device).dxgi1_2.member                                                        \
                          : (device).dxgi1_1.member)

// Members from DXGI 1.2 on (Blt1, ReclaimResources) and 1.3 on (Present1): null before.
template <class Member>
Member fromDxgi1_2(const harness::Device& d, Member DXGI1_2_DDI_BASE_FUNCTIONS::*m1_2,
                   Member DXGI1_3_DDI_BASE_FUNCTIONS::*m1_3, Member DXGI1_4_DDI_BASE_FUNCTIONS::*m1_4,
                   Member DXGI1_5_DDI_BASE_FUNCTIONS::*m1_5) {
  if (d.isWddm2_1())
    return d.dxgi1_5.*m1_5;
  if (d.isWddm2_0())
    return d.dxgi1_4.*m1_4;
  if (d.isWddm1_3())
    return d.dxgi1_3.*m1_3;
  return d.is11_1() && m1_2 ? d.dxgi1_2.*m1_2 : nullptr;
}
#define TRITON_DXGI1_2(device, member)                                                                      \
  fromDxgi1_2(device, &DXGI1_2_DDI_BASE_FUNCTIONS::member, &DXGI1_3_DDI_BASE_FUNCTIONS::member,            \
              &DXGI1_4_DDI_BASE_FUNCTIONS::member, &DXGI1_5_DDI_BASE_FUNCTIONS::member)
// Members from DXGI 1.4 on (WDDM 2.x devices).
#define TRITON_DXGI2(device, member) ((device).isWddm2_1() ? (device).dxgi1_5.member : (device).dxgi1_4.member)
ddi::PFNDXGIDDI_PRESENT1 present1Of(const harness::Device& d) {
  return fromDxgi1_2<ddi::PFNDXGIDDI_PRESENT1>(d, nullptr, &DXGI1_3_DDI_BASE_FUNCTIONS::pfnPresent1,
                                               &DXGI1_4_DDI_BASE_FUNCTIONS::pfnPresent1,
                                               &DXGI1_5_DDI_BASE_FUNCTIONS::pfnPresent1);
}

class DriverDxgi : public DriverTest, public ::testing::WithParamInterface<const InterfaceVersion*> {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    ASSERT_EQ(device.create(adapter, GetParam()->interfaceVersion, GetParam()->version,
                            ddi::D3D11DDI_3DPIPELINELEVEL_10_0),
              S_OK);
  }
  ddi::DXGI_DDI_HDEVICE dxgiDevice() const { return reinterpret_cast<ddi::DXGI_DDI_HDEVICE>(device.handle().pDrvPrivate); }
  static ddi::DXGI_DDI_HRESOURCE dxgiResource(const harness::Resource& r) {
    return reinterpret_cast<ddi::DXGI_DDI_HRESOURCE>(r.handle.pDrvPrivate);
  }
  HRESULT present(ddi::DXGI_DDI_ARG_PRESENT& args) { return TRITON_DXGI(device, pfnPresent)(&args); }
  HRESULT blt(ddi::DXGI_DDI_ARG_BLT& args) { return TRITON_DXGI(device, pfnBlt)(&args); }

  // A 2D RGBA8 texture whose four quadrants are red, green (top), blue, white (bottom).
  harness::Resource quadrants(UINT size, UINT bind) {
    std::vector<Rgba> pixels(size * size);
    for (UINT y = 0; y < size; ++y)
      for (UINT x = 0; x < size; ++x)
        pixels[y * size + x] = y < size / 2 ? (x < size / 2 ? kRed : kGreen) : (x < size / 2 ? kBlue : kWhite);
    const D3D11_TEXTURE2D_DESC desc{size, size, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT, bind,
                                    0, 0};
    const D3D11_SUBRESOURCE_DATA data{pixels.data(), size * 4, 0};
    return device.createTexture2D(desc, &data);
  }
  harness::Resource target(UINT width, UINT height, DXGI_FORMAT format) {
    const D3D11_TEXTURE2D_DESC desc{width, height, 1, 1, format, {1, 0}, D3D11_USAGE_DEFAULT,
                                    D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE, 0, 0};
    return device.createTexture2D(desc);
  }
  void clear(const harness::Resource& texture, DXGI_FORMAT format, const Rgba& colour) {
    harness::RenderTargetView rtv = device.createRenderTargetView(texture, format);
    FLOAT c[4] = {colour.r / 255.0f, colour.g / 255.0f, colour.b / 255.0f, colour.a / 255.0f};
    TRITON_DDI(device, pfnClearRenderTargetView)(device.handle(), rtv.handle, c);
    device.destroy(rtv);
  }
  // The texture's pixels as RGBA (a BGRA texture's bytes are swapped back).
  std::vector<Rgba> readBack(const harness::Resource& texture, UINT width, UINT height, DXGI_FORMAT format) {
    const D3D11_TEXTURE2D_DESC desc{width, height, 1, 1, format, {1, 0}, D3D11_USAGE_STAGING, 0,
                                    D3D11_CPU_ACCESS_READ, 0};
    harness::Resource staging = device.createTexture2D(desc);
    TRITON_DDI(device, pfnResourceCopy)(device.handle(), staging.handle, texture.handle);
    ddi::D3D10DDI_MAPPED_SUBRESOURCE mapped{};
    TRITON_DDI(device, pfnStagingResourceMap)(device.handle(), staging.handle, 0, ddi::D3D10_DDI_MAP_READ, 0,
                                              &mapped);
    std::vector<Rgba> out(width * height);
    if (device.takeError() == S_OK && mapped.pData) {
      for (UINT y = 0; y < height; ++y)
        std::memcpy(&out[y * width], static_cast<const uint8_t*>(mapped.pData) + y * mapped.RowPitch, width * 4);
      TRITON_DDI(device, pfnStagingResourceUnmap)(device.handle(), staging.handle, 0);
    }
    device.destroyResource(staging);
    if (format == DXGI_FORMAT_B8G8R8A8_UNORM)
      for (Rgba& c : out)
        std::swap(c.r, c.b);
    return out;
  }

  harness::Device device;
};

// A plain Blt copies at DstLeft/DstTop; a stretching, converting Blt draws the source
// scaled into the destination rectangle in the destination's format.
TEST_P(DriverDxgi, BltCopiesStretchesAndConverts) {
  harness::Resource source = quadrants(4, D3D11_BIND_SHADER_RESOURCE);
  harness::Resource copy = target(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM);
  harness::Resource stretched = target(8, 8, DXGI_FORMAT_B8G8R8A8_UNORM);
  ASSERT_EQ(device.takeError(), S_OK);

  ddi::DXGI_DDI_ARG_BLT args{dxgiDevice(), dxgiResource(copy), 0, 0, 0, 0, 0, dxgiResource(source), 0, {},
                             ddi::DXGI_DDI_MODE_ROTATION_IDENTITY};
  ASSERT_EQ(blt(args), S_OK);
  const std::vector<Rgba> copied = readBack(copy, 4, 4, DXGI_FORMAT_R8G8B8A8_UNORM);
  EXPECT_EQ(copied[0], kRed);
  EXPECT_EQ(copied[3], kGreen);
  EXPECT_EQ(copied[12], kBlue);
  EXPECT_EQ(copied[15], kWhite);

  args.hDstResource = dxgiResource(stretched);
  args.DstRight = 8;
  args.DstBottom = 8;
  args.Flags.Stretch = 1;
  args.Flags.Convert = 1;
  ASSERT_EQ(blt(args), S_OK);
  const std::vector<Rgba> pixels = readBack(stretched, 8, 8, DXGI_FORMAT_B8G8R8A8_UNORM);
  // Pixels 0..2 and 5..7 of each axis sample texels of one quadrant only (linear filter).
  for (UINT y : {0u, 2u, 5u, 7u})
    for (UINT x : {0u, 2u, 5u, 7u}) {
      const Rgba expected = y < 4 ? (x < 4 ? kRed : kGreen) : (x < 4 ? kBlue : kWhite);
      EXPECT_EQ(pixels[y * 8 + x], expected) << x << "," << y;
    }
  EXPECT_EQ(device.errorCount(), 0u);
  EXPECT_EQ(harness::unexpectedCallbackCount(), 0);
}

// Blt1 takes a source rectangle; a rotation turns the image clockwise.
TEST_P(DriverDxgi, Blt1TakesASourceRectangleAndRotates) {
  if (!device.is11_1())
    GTEST_SKIP() << "Blt1 is a DXGI 1.2 member";
  const ddi::PFNDXGIDDI_BLT1 blt1 = TRITON_DXGI1_2(device, pfnBlt1);
  harness::Resource source = quadrants(4, D3D11_BIND_SHADER_RESOURCE);
  harness::Resource rotated = target(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM);
  harness::Resource corner = target(2, 2, DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_EQ(device.takeError(), S_OK);

  ddi::DXGI_DDI_ARG_BLT1 args{dxgiDevice(), dxgiResource(rotated), 0, 0, 0, 4, 4, dxgiResource(source), 0, 0, 0, 4,
                              4, {}, ddi::DXGI_DDI_MODE_ROTATION_ROTATE90};
  ASSERT_EQ(blt1(&args), S_OK);
  const std::vector<Rgba> pixels = readBack(rotated, 4, 4, DXGI_FORMAT_R8G8B8A8_UNORM);
  EXPECT_EQ(pixels[0], kBlue) << "the bottom-left quadrant turns to the top left";
  EXPECT_EQ(pixels[3], kRed) << "the top-left quadrant turns to the top right";
  EXPECT_EQ(pixels[12], kWhite);
  EXPECT_EQ(pixels[15], kGreen);

  // The bottom-right 2x2 of the source, copied (no flags) into a 2x2 texture.
  ddi::DXGI_DDI_ARG_BLT1 part{dxgiDevice(), dxgiResource(corner), 0, 0, 0, 0, 0, dxgiResource(source), 0, 2, 2, 4, 4,
                              {}, ddi::DXGI_DDI_MODE_ROTATION_IDENTITY};
  ASSERT_EQ(blt1(&part), S_OK);
  for (const Rgba& c : readBack(corner, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM))
    EXPECT_EQ(c, kWhite);
  part.SrcRight = 1;   // right of left
  part.SrcLeft = 3;
  EXPECT_EQ(blt1(&part), E_INVALIDARG);
  EXPECT_EQ(device.errorCount(), 0u);
}

// A drawn blit reaches sources and destinations the draw cannot bind as they are through
// scratch textures: a source without SHADER_RESOURCE is copied first, a destination without
// RENDER_TARGET is drawn through a copy (its pixels outside the rectangle stay). A
// destination format the target cannot render to (depth) is refused (E_NOTIMPL, the
// partial case), nothing drawn.
TEST_P(DriverDxgi, DrawnBltGoesThroughScratchTextures) {
  harness::Resource renderOnly = quadrants(4, D3D11_BIND_RENDER_TARGET);
  harness::Resource stretched = target(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM);
  ddi::DXGI_DDI_ARG_BLT args{dxgiDevice(), dxgiResource(stretched), 0, 0, 0, 8, 8, dxgiResource(renderOnly), 0, {},
                             ddi::DXGI_DDI_MODE_ROTATION_IDENTITY};
  args.Flags.Stretch = 1;
  ASSERT_EQ(blt(args), S_OK);
  const std::vector<Rgba> pixels = readBack(stretched, 8, 8, DXGI_FORMAT_R8G8B8A8_UNORM);
  for (UINT y : {0u, 2u, 5u, 7u})
    for (UINT x : {0u, 2u, 5u, 7u}) {
      const Rgba expected = y < 4 ? (x < 4 ? kRed : kGreen) : (x < 4 ? kBlue : kWhite);
      EXPECT_EQ(pixels[y * 8 + x], expected) << x << "," << y;
    }

  // Into the bottom-right quarter of a sampled-only texture (a converting draw of the
  // same size): the quarter holds the quadrants, the rest its initial black.
  const Rgba kBlack{0, 0, 0, 255};
  std::vector<Rgba> black(64, kBlack);
  const D3D11_TEXTURE2D_DESC sampledDesc{8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT,
                                         D3D11_BIND_SHADER_RESOURCE, 0, 0};
  const D3D11_SUBRESOURCE_DATA blackData{black.data(), 8 * 4, 0};
  harness::Resource sampledOnly = device.createTexture2D(sampledDesc, &blackData);
  harness::Resource source = quadrants(4, D3D11_BIND_SHADER_RESOURCE);
  ASSERT_EQ(device.takeError(), S_OK);
  ddi::DXGI_DDI_ARG_BLT corner{dxgiDevice(), dxgiResource(sampledOnly), 0, 4, 4, 8, 8, dxgiResource(source), 0, {},
                               ddi::DXGI_DDI_MODE_ROTATION_IDENTITY};
  corner.Flags.Convert = 1;
  ASSERT_EQ(blt(corner), S_OK);
  const std::vector<Rgba> quarter = readBack(sampledOnly, 8, 8, DXGI_FORMAT_R8G8B8A8_UNORM);
  EXPECT_EQ(quarter[4 * 8 + 4], kRed);
  EXPECT_EQ(quarter[4 * 8 + 7], kGreen);
  EXPECT_EQ(quarter[7 * 8 + 4], kBlue);
  EXPECT_EQ(quarter[7 * 8 + 7], kWhite);
  for (UINT at : {0u, 3u * 8 + 3, 7u, 7u * 8, 3u * 8 + 7, 7u * 8 + 3})
    EXPECT_EQ(quarter[at], kBlack) << at;

  const D3D11_TEXTURE2D_DESC depthDesc{8, 8, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT, {1, 0}, D3D11_USAGE_DEFAULT,
                                       D3D11_BIND_DEPTH_STENCIL, 0, 0};
  harness::Resource depth = device.createTexture2D(depthDesc);
  ASSERT_EQ(device.takeError(), S_OK);
  args.hDstResource = dxgiResource(depth);
  args.hSrcResource = dxgiResource(source);
  EXPECT_EQ(blt(args), E_NOTIMPL);
  EXPECT_EQ(device.errorCount(), 0u);
}

// Blt model: the back buffer is presented (Flags.Blt), or blitted to a primary first;
// flip model: the surface itself (Flags.Flip). Each Present ends in one pfnPresentCb
// with the runtime's DXGI context, and the frames in flight stay bounded.
TEST_P(DriverDxgi, PresentBltAndFlipModels) {
  harness::Resource backBuffer = target(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM);
  harness::Resource primary = target(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_EQ(device.takeError(), S_OK);
  int dxgiContext = 0;
  const size_t before = device.presentCallbacks();

  ddi::DXGI_DDI_ARG_PRESENT args{};
  args.hDevice = dxgiDevice();
  args.hSurfaceToPresent = dxgiResource(backBuffer);
  args.pDXGIContext = &dxgiContext;
  args.Flags.Blt = 1;
  args.FlipInterval = ddi::DXGI_DDI_FLIP_INTERVAL_IMMEDIATE;
  for (int frame = 0; frame < 10; ++frame) {
    clear(backBuffer, DXGI_FORMAT_R8G8B8A8_UNORM, Rgba{uint8_t(frame * 20), 0, 0, 255});
    ASSERT_EQ(present(args), S_OK) << frame;
  }
  EXPECT_EQ(device.presentCallbacks(), before + 10);
  EXPECT_EQ(device.lastPresent().pDXGIContext, &dxgiContext);

  // Fullscreen blt model: the back buffer reaches the primary.
  clear(backBuffer, DXGI_FORMAT_R8G8B8A8_UNORM, kGreen);
  args.hDstResource = dxgiResource(primary);
  ASSERT_EQ(present(args), S_OK);
  for (const Rgba& c : readBack(primary, 16, 16, DXGI_FORMAT_R8G8B8A8_UNORM))
    ASSERT_EQ(c, kGreen);

  // Flip model, vsync interval 1.
  args.hDstResource = 0;
  args.Flags.Value = 0;
  args.Flags.Flip = 1;
  args.FlipInterval = ddi::DXGI_DDI_FLIP_INTERVAL_ONE;
  for (int frame = 0; frame < 5; ++frame)
    ASSERT_EQ(present(args), S_OK) << frame;
  EXPECT_EQ(device.presentCallbacks(), before + 16);

  args.hSurfaceToPresent = 0;
  EXPECT_EQ(present(args), E_INVALIDARG);
  EXPECT_EQ(device.presentCallbacks(), before + 16);
  EXPECT_EQ(device.errorCount(), 0u);
  EXPECT_EQ(harness::unexpectedCallbackCount(), 0);
}

// DXGI 1.3's Present1: a list of surfaces, of which the last is shown (the reference:
// with several, the destination is null and only the last handle goes to pfnPresentCb);
// with a primary, the last surface is copied there. Dirty rectangles are a hint the
// driver must never fail on, whatever they hold. One pfnPresentCb per present with the
// runtime's DXGI context; an empty list or a null surface is refused without one.
TEST_P(DriverDxgi, Present1ShowsTheLastSurface) {
  const ddi::PFNDXGIDDI_PRESENT1 present1 = present1Of(device);
  if (!present1)
    GTEST_SKIP() << "Present1 is a DXGI 1.3 member";
  harness::Resource first = target(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM);
  harness::Resource last = target(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM);
  harness::Resource primary = target(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM);
  clear(first, DXGI_FORMAT_R8G8B8A8_UNORM, kRed);
  clear(last, DXGI_FORMAT_R8G8B8A8_UNORM, kGreen);
  clear(primary, DXGI_FORMAT_R8G8B8A8_UNORM, kWhite);
  ASSERT_EQ(device.takeError(), S_OK);
  int dxgiContext = 0;
  const size_t before = device.presentCallbacks();

  const ddi::DXGI_DDI_ARG_PRESENTSURFACE surfaces[2] = {{dxgiResource(first), 0}, {dxgiResource(last), 0}};
  const RECT dirty[2] = {{0, 0, 4, 4}, {-100, -100, 100000, 100000}};   // one inside, one far outside
  ddi::DXGI_DDI_ARG_PRESENT1 args{};
  args.hDevice = dxgiDevice();
  args.phSurfacesToPresent = surfaces;
  args.SurfacesToPresent = 2;
  args.pDXGIContext = &dxgiContext;
  args.Flags.Flip = 1;
  args.FlipInterval = ddi::DXGI_DDI_FLIP_INTERVAL_ONE;
  args.pDirtyRects = dirty;
  args.DirtyRects = 2;
  args.BackBufferMultiplicity = 1;
  for (int frame = 0; frame < 3; ++frame)
    ASSERT_EQ(present1(&args), S_OK) << frame;
  EXPECT_EQ(device.presentCallbacks(), before + 3);
  EXPECT_EQ(device.lastPresent().pDXGIContext, &dxgiContext);

  // With a primary (blt model, fullscreen): the last surface's pixels, all of them,
  // although the dirty rectangles name only a corner.
  args.Flags.Value = 0;
  args.Flags.Blt = 1;
  args.hDstResource = dxgiResource(primary);
  args.DirtyRects = 1;
  ASSERT_EQ(present1(&args), S_OK);
  for (const Rgba& c : readBack(primary, 16, 16, DXGI_FORMAT_R8G8B8A8_UNORM))
    ASSERT_EQ(c, kGreen);
  EXPECT_EQ(device.presentCallbacks(), before + 4);

  // A single surface is Present.
  clear(first, DXGI_FORMAT_R8G8B8A8_UNORM, kBlue);
  args.SurfacesToPresent = 1;
  args.pDirtyRects = nullptr;
  args.DirtyRects = 0;
  ASSERT_EQ(present1(&args), S_OK);
  for (const Rgba& c : readBack(primary, 16, 16, DXGI_FORMAT_R8G8B8A8_UNORM))
    ASSERT_EQ(c, kBlue);

  args.SurfacesToPresent = 0;
  EXPECT_EQ(present1(&args), E_INVALIDARG);
  const ddi::DXGI_DDI_ARG_PRESENTSURFACE withNull[2] = {{dxgiResource(first), 0}, {0, 0}};
  args.phSurfacesToPresent = withNull;
  args.SurfacesToPresent = 2;
  EXPECT_EQ(present1(&args), E_INVALIDARG);
  EXPECT_EQ(present1(nullptr), E_INVALIDARG);
  EXPECT_EQ(device.presentCallbacks(), before + 5);
  EXPECT_EQ(device.errorCount(), 0u);
  EXPECT_EQ(harness::unexpectedCallbackCount(), 0);
}

// Sequential swapchains rotate buffer identities after a present: each handle shows
// what the next one showed, the last the first's.
TEST_P(DriverDxgi, RotateResourceIdentitiesRotatesWhatEachHandleShows) {
  harness::Resource buffers[3] = {target(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM), target(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM),
                                  target(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM)};
  const Rgba colours[3] = {kRed, kGreen, kBlue};
  for (int i = 0; i < 3; ++i)
    clear(buffers[i], DXGI_FORMAT_R8G8B8A8_UNORM, colours[i]);
  const ddi::DXGI_DDI_HRESOURCE handles[3] = {dxgiResource(buffers[0]), dxgiResource(buffers[1]),
                                              dxgiResource(buffers[2])};
  ddi::DXGI_DDI_ARG_ROTATE_RESOURCE_IDENTITIES args{dxgiDevice(), handles, 3};
  auto rotate = TRITON_DXGI(device, pfnRotateResourceIdentities);
  ASSERT_EQ(rotate(&args), S_OK);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(readBack(buffers[i], 8, 8, DXGI_FORMAT_R8G8B8A8_UNORM)[27], colours[(i + 1) % 3]) << i;

  harness::Resource other = target(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM);
  const ddi::DXGI_DDI_HRESOURCE mismatched[2] = {dxgiResource(buffers[0]), dxgiResource(other)};
  ddi::DXGI_DDI_ARG_ROTATE_RESOURCE_IDENTITIES bad{dxgiDevice(), mismatched, 2};
  EXPECT_EQ(rotate(&bad), E_INVALIDARG) << "resources of different sizes cannot swap identities";
}

// A resolve: the multisampled source's samples averaged into the single-sampled
// destination (one colour everywhere: the colour); a resolve that also stretches and
// converts is drawn from a resolved scratch copy.
TEST_P(DriverDxgi, BltResolvesMultisampledSources) {
  const D3D11_TEXTURE2D_DESC msDesc{8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {4, 0}, D3D11_USAGE_DEFAULT,
                                    D3D11_BIND_RENDER_TARGET, 0, 0};
  harness::Resource multisampled = device.createTexture2D(msDesc);
  harness::Resource resolved = target(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM);
  ASSERT_EQ(device.takeError(), S_OK);
  clear(multisampled, DXGI_FORMAT_R8G8B8A8_UNORM, kGreen);
  clear(resolved, DXGI_FORMAT_R8G8B8A8_UNORM, kRed);
  ASSERT_EQ(device.takeError(), S_OK);

  ddi::DXGI_DDI_ARG_BLT args{dxgiDevice(), dxgiResource(resolved), 0, 0, 0, 8, 8, dxgiResource(multisampled), 0, {},
                             ddi::DXGI_DDI_MODE_ROTATION_IDENTITY};
  args.Flags.Resolve = 1;
  ASSERT_EQ(blt(args), S_OK);
  for (const Rgba& c : readBack(resolved, 8, 8, DXGI_FORMAT_R8G8B8A8_UNORM))
    ASSERT_EQ(c, kGreen);

  harness::Resource larger = target(16, 16, DXGI_FORMAT_B8G8R8A8_UNORM);
  clear(larger, DXGI_FORMAT_B8G8R8A8_UNORM, kRed);
  args.hDstResource = dxgiResource(larger);
  args.DstRight = args.DstBottom = 16;
  args.Flags.Stretch = 1;
  args.Flags.Convert = 1;
  ASSERT_EQ(blt(args), S_OK);
  for (const Rgba& c : readBack(larger, 16, 16, DXGI_FORMAT_B8G8R8A8_UNORM))
    ASSERT_EQ(c, kGreen);
  EXPECT_EQ(device.errorCount(), 0u);
}

// Residency: every resource of a live target is fully resident; priorities are set on
// the target resource (not observable through the DDI: accepted for a resource, refused
// without one); offered resources keep their contents, so a reclaim reports none
// discarded and the pixels are still there.
TEST_P(DriverDxgi, ResidencyPriorityOfferAndReclaim) {
  harness::Resource a = target(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM), b = target(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM);
  clear(a, DXGI_FORMAT_R8G8B8A8_UNORM, kBlue);
  clear(b, DXGI_FORMAT_R8G8B8A8_UNORM, kWhite);
  ASSERT_EQ(device.takeError(), S_OK);
  ddi::DXGI_DDI_HRESOURCE handles[2] = {dxgiResource(a), dxgiResource(b)};

  ddi::DXGI_DDI_RESIDENCY status[2] = {ddi::DXGI_DDI_RESIDENCY_EVICTED_TO_DISK, ddi::DXGI_DDI_RESIDENCY_EVICTED_TO_DISK};
  ddi::DXGI_DDI_ARG_QUERYRESOURCERESIDENCY residency{dxgiDevice(), handles, status, 2};
  auto query = TRITON_DXGI(device, pfnQueryResourceResidency);
  ASSERT_EQ(query(&residency), S_OK);
  EXPECT_EQ(status[0], ddi::DXGI_DDI_RESIDENCY_FULLY_RESIDENT);
  EXPECT_EQ(status[1], ddi::DXGI_DDI_RESIDENCY_FULLY_RESIDENT);
  residency.pStatus = nullptr;
  EXPECT_EQ(query(&residency), E_INVALIDARG);

  auto priority = TRITON_DXGI(device, pfnSetResourcePriority);
  ddi::DXGI_DDI_ARG_SETRESOURCEPRIORITY high{dxgiDevice(), dxgiResource(a), DXGI_RESOURCE_PRIORITY_HIGH};
  EXPECT_EQ(priority(&high), S_OK);
  high.hResource = 0;
  EXPECT_EQ(priority(&high), E_INVALIDARG);

  if (!device.is11_1())
    return;   // offer/reclaim are DXGI 1.2 members
  HRESULT offered = E_FAIL;
  if (device.isWddm2_1()) {
    ddi::DXGI_DDI_ARG_OFFERRESOURCES1 offer{dxgiDevice(), handles, 2, ddi::D3DDDI_OFFER_PRIORITY_LOW, {}};
    offer.Flags.AllowDecommit = 1;
    offered = device.dxgi1_5.pfnOfferResources1(&offer);
  } else {
    ddi::DXGI_DDI_ARG_OFFERRESOURCES offer{dxgiDevice(), handles, 2, ddi::D3DDDI_OFFER_PRIORITY_LOW};
    offered = (device.isWddm2_0()   ? device.dxgi1_4.pfnOfferResources
               : device.isWddm1_3() ? device.dxgi1_3.pfnOfferResources
                                    : device.dxgi1_2.pfnOfferResources)(&offer);
  }
  ASSERT_EQ(offered, S_OK);
  BOOL discarded[2] = {TRUE, TRUE};
  ddi::DXGI_DDI_ARG_RECLAIMRESOURCES reclaim{dxgiDevice(), handles, discarded, 2};
  ASSERT_EQ(TRITON_DXGI1_2(device, pfnReclaimResources)(&reclaim), S_OK);
  EXPECT_EQ(discarded[0], FALSE);
  EXPECT_EQ(discarded[1], FALSE);
  if (device.isWddm2_1()) {
    // WDDM 2.1's form: a result per resource.
    ddi::D3DDDI_RECLAIM_RESULT results[2] = {ddi::D3DDDI_RECLAIM_RESULT_DISCARDED,
                                             ddi::D3DDDI_RECLAIM_RESULT_NOT_COMMITTED};
    ddi::DXGI_DDI_ARG_RECLAIMRESOURCES1 reclaim1{dxgiDevice(), handles, results, 2};
    ASSERT_EQ(device.dxgi1_5.pfnReclaimResources1(&reclaim1), S_OK);
    EXPECT_EQ(results[0], ddi::D3DDDI_RECLAIM_RESULT_OK);
    EXPECT_EQ(results[1], ddi::D3DDDI_RECLAIM_RESULT_OK);
    reclaim1.pResults = nullptr;
    EXPECT_EQ(device.dxgi1_5.pfnReclaimResources1(&reclaim1), E_INVALIDARG);
  }
  EXPECT_EQ(readBack(a, 4, 4, DXGI_FORMAT_R8G8B8A8_UNORM)[5], kBlue);
  EXPECT_EQ(readBack(b, 4, 4, DXGI_FORMAT_R8G8B8A8_UNORM)[5], kWhite);
  EXPECT_EQ(device.errorCount(), 0u);
}

// WDDM 2.0's residency trim: Triton makes nothing resident, so every request (periodic,
// restart, to budget) is answered with nothing to do and no kernel callback (no Evict);
// the two overlay members refuse as the other overlay members.
TEST_P(DriverDxgi, Wddm2TrimAndOverlayMembers) {
  if (!device.isWddm2_0() && !device.isWddm2_1())
    GTEST_SKIP() << "TrimResidencySet is a DXGI 1.4 member";
  auto trim = TRITON_DXGI2(device, pfnTrimResidencySet);
  ASSERT_NE(trim, nullptr);
  for (UINT flags : {0x1u, 0x2u, 0x4u}) {
    ddi::DXGI_DDI_ARG_TRIMRESIDENCYSET args{dxgiDevice(), {}, flags == 0x4u ? 64ull << 20 : 0};
    args.TrimFlags.Value = flags;
    EXPECT_EQ(trim(&args), S_OK) << flags;
  }
  EXPECT_EQ(trim(nullptr), E_INVALIDARG);
  EXPECT_EQ(TRITON_DXGI2(device, pfnCheckMultiplaneOverlayColorSpaceSupport)(nullptr), E_NOTIMPL);
  EXPECT_EQ(TRITON_DXGI2(device, pfnPresentMultiplaneOverlay1)(nullptr), E_NOTIMPL);
  EXPECT_EQ(TRITON_DXGI2(device, pfnReserved1), nullptr);
  EXPECT_EQ(TRITON_DXGI2(device, pfnReserved2), nullptr);
  EXPECT_EQ(device.errorCount(), 0u);
  EXPECT_EQ(harness::unexpectedCallbackCount(), 0);
}

// Gamma caps come from the target's output, or describe a plain ramp.
TEST_P(DriverDxgi, GammaCaps) {
  DXGI_GAMMA_CONTROL_CAPABILITIES caps{};
  ddi::DXGI_DDI_ARG_GET_GAMMA_CONTROL_CAPS args{dxgiDevice(), &caps};
  auto getGammaCaps = TRITON_DXGI(device, pfnGetGammaCaps);
  ASSERT_EQ(getGammaCaps(&args), S_OK);
  EXPECT_GT(caps.NumGammaControlPoints, 1u);
  EXPECT_LE(caps.NumGammaControlPoints, 1025u);
  EXPECT_LT(caps.MinConvertedValue, caps.MaxConvertedValue);
  for (UINT i = 1; i < caps.NumGammaControlPoints; ++i)
    ASSERT_LT(caps.ControlPointPositions[i - 1], caps.ControlPointPositions[i]) << i;
  args.pGammaCapabilities = nullptr;
  EXPECT_EQ(getGammaCaps(&args), E_INVALIDARG);
}

INSTANTIATE_TEST_SUITE_P(Triton, DriverDxgi, ::testing::Values(&kD3D11_0_7, &kD3D11_1, &kWddm1_3, &kWddm2_0, &kWddm2_1),
                         [](const ::testing::TestParamInfo<const InterfaceVersion*>& info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace triton::test
