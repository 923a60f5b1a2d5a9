#include "formats.h"

#include <cstring>

namespace npt::guest {

FormatLayout formatLayout(DXGI_FORMAT format) {
  unsigned f = unsigned(format);
  auto plain = [](uint32_t bytes) { FormatLayout l; l.bytesPerBlock = bytes; return l; };
  auto block = [](uint32_t w, uint32_t h, uint32_t bytes) { FormatLayout l; l.blockWidth = w; l.blockHeight = h; l.bytesPerBlock = bytes; return l; };
  if (f >= 1 && f <= 4) return plain(16);
  if (f >= 5 && f <= 8) return plain(12);
  if (f >= 9 && f <= 22) return plain(8);
  if (f >= 23 && f <= 47) return plain(4);
  if (f >= 48 && f <= 59) return plain(2);
  if (f >= 60 && f <= 65) return plain(1);
  switch (format) {
    case DXGI_FORMAT_R1_UNORM:              return block(8, 1, 1);
    case DXGI_FORMAT_R9G9B9E5_SHAREDEXP:    return plain(4);
    case DXGI_FORMAT_R8G8_B8G8_UNORM:
    case DXGI_FORMAT_G8R8_G8B8_UNORM:       return block(2, 1, 4);
    case DXGI_FORMAT_BC1_TYPELESS: case DXGI_FORMAT_BC1_UNORM: case DXGI_FORMAT_BC1_UNORM_SRGB:
    case DXGI_FORMAT_BC4_TYPELESS: case DXGI_FORMAT_BC4_UNORM: case DXGI_FORMAT_BC4_SNORM:
      return block(4, 4, 8);
    case DXGI_FORMAT_BC2_TYPELESS: case DXGI_FORMAT_BC2_UNORM: case DXGI_FORMAT_BC2_UNORM_SRGB:
    case DXGI_FORMAT_BC3_TYPELESS: case DXGI_FORMAT_BC3_UNORM: case DXGI_FORMAT_BC3_UNORM_SRGB:
    case DXGI_FORMAT_BC5_TYPELESS: case DXGI_FORMAT_BC5_UNORM: case DXGI_FORMAT_BC5_SNORM:
    case DXGI_FORMAT_BC6H_TYPELESS: case DXGI_FORMAT_BC6H_UF16: case DXGI_FORMAT_BC6H_SF16:
    case DXGI_FORMAT_BC7_TYPELESS: case DXGI_FORMAT_BC7_UNORM: case DXGI_FORMAT_BC7_UNORM_SRGB:
      return block(4, 4, 16);
    case DXGI_FORMAT_B5G6R5_UNORM: case DXGI_FORMAT_B5G5R5A1_UNORM: case DXGI_FORMAT_B4G4R4A4_UNORM:
    case DXGI_FORMAT_A8P8:
      return plain(2);
    case DXGI_FORMAT_B8G8R8A8_UNORM: case DXGI_FORMAT_B8G8R8X8_UNORM:
    case DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM: case DXGI_FORMAT_B8G8R8A8_TYPELESS:
    case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB: case DXGI_FORMAT_B8G8R8X8_TYPELESS:
    case DXGI_FORMAT_B8G8R8X8_UNORM_SRGB: case DXGI_FORMAT_AYUV: case DXGI_FORMAT_Y410:
      return plain(4);
    case DXGI_FORMAT_Y416:                  return plain(8);
    case DXGI_FORMAT_YUY2:                  return block(2, 1, 4);
    case DXGI_FORMAT_Y210: case DXGI_FORMAT_Y216: return block(2, 1, 8);
    case DXGI_FORMAT_AI44: case DXGI_FORMAT_IA44: case DXGI_FORMAT_P8: return plain(1);
    default:                                return FormatLayout();
  }
}

SubresourceFootprint footprint(DXGI_FORMAT format, uint32_t width, uint32_t height, uint32_t depth) {
  FormatLayout l = formatLayout(format);
  SubresourceFootprint f;
  if (!l.bytesPerBlock)
    return f;
  uint32_t blocksWide = (width + l.blockWidth - 1) / l.blockWidth;
  f.rows = (height + l.blockHeight - 1) / l.blockHeight;
  f.rowPitch = blocksWide * l.bytesPerBlock;
  f.depthPitch = f.rowPitch * f.rows;
  f.depth = depth;
  return f;
}

uint64_t sourceSpan(DXGI_FORMAT format, uint32_t width, uint32_t height, uint32_t depth,
                    uint32_t rowPitch, uint32_t depthPitch) {
  SubresourceFootprint f = footprint(format, width, height, depth);
  if (!f.rowPitch || !f.rows || !depth)
    return 0;
  return uint64_t(depth - 1) * depthPitch + uint64_t(f.rows - 1) * rowPitch + f.rowPitch;
}

void copyRows(uint8_t* dst, uint32_t dstRowPitch, uint32_t dstDepthPitch,
              const uint8_t* src, uint32_t srcRowPitch, uint32_t srcDepthPitch,
              uint32_t rowBytes, uint32_t rows, uint32_t depth) {
  for (uint32_t z = 0; z < depth; z++)
    for (uint32_t y = 0; y < rows; y++)
      std::memcpy(dst + size_t(z) * dstDepthPitch + size_t(y) * dstRowPitch,
                  src + size_t(z) * srcDepthPitch + size_t(y) * srcRowPitch, rowBytes);
}

}
