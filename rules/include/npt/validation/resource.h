// SPDX-License-Identifier: MIT
#pragma once

// Resource descriptions: validation of Create{Buffer,Texture1D,2D,3D} arguments, and the
// normalized shape of a resource that later checks (views, boxes, Map, copies) use.

#include <cstdint>

#include "npt/d3d11_api.h"
#include "npt/validation/check.h"
#include "npt/validation/limits.h"

namespace npt::validation {

// Everything later checks need from a resource, whatever its dimension. Textures have
// mipLevels resolved (0 in the desc means the full chain).
struct ResourceShape {
  D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
  DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
  uint32_t width = 0;          // ByteWidth for buffers
  uint32_t height = 1;
  uint32_t depth = 1;
  uint32_t mipLevels = 1;
  uint32_t arraySize = 1;
  uint32_t sampleCount = 1;
  uint32_t sampleQuality = 0;
  D3D11_USAGE usage = D3D11_USAGE_DEFAULT;
  uint32_t bindFlags = 0;
  uint32_t cpuAccessFlags = 0;
  uint32_t miscFlags = 0;
  uint32_t structureByteStride = 0;

  bool isBuffer() const { return dimension == D3D11_RESOURCE_DIMENSION_BUFFER; }
  uint32_t subresourceCount() const { return isBuffer() ? 1 : mipLevels * arraySize; }
  uint32_t mipWidth(uint32_t mip) const { return mip < 32 ? (width >> mip ? width >> mip : 1) : 1; }
  uint32_t mipHeight(uint32_t mip) const { return mip < 32 ? (height >> mip ? height >> mip : 1) : 1; }
  uint32_t mipDepth(uint32_t mip) const { return mip < 32 ? (depth >> mip ? depth >> mip : 1) : 1; }
};

ResourceShape shapeOf(const D3D11_BUFFER_DESC& desc);
ResourceShape shapeOf(const D3D11_TEXTURE1D_DESC& desc);
ResourceShape shapeOf(const D3D11_TEXTURE2D_DESC& desc);
ResourceShape shapeOf(const D3D11_TEXTURE3D_DESC& desc);

// DXGI_USAGE of a resource created with these flags, as IDXGIResource::GetUsage reports
// it: the bind flags' usages, DYNAMIC for dynamic resources, READ_WRITE for staging ones
// whatever their CPU access flags (DXGI_CPU_ACCESS_* share DXGI_USAGE's low bits).
uint32_t dxgiUsageOf(uint32_t bindFlags, D3D11_USAGE usage);

// Number of mips in a full chain for the given extent: floor(log2(max)) + 1.
uint32_t fullMipCount(uint32_t width, uint32_t height, uint32_t depth);

// hasInitialData: pInitialData was non-null (immutable resources require it).
Check validateBufferDesc(const D3D11_BUFFER_DESC& desc, bool hasInitialData,
                         const DeviceLimits& limits = {});
Check validateTexture1DDesc(const D3D11_TEXTURE1D_DESC& desc, bool hasInitialData,
                            const DeviceLimits& limits = {});
Check validateTexture2DDesc(const D3D11_TEXTURE2D_DESC& desc, bool hasInitialData,
                            const DeviceLimits& limits = {});
Check validateTexture3DDesc(const D3D11_TEXTURE3D_DESC& desc, bool hasInitialData,
                            const DeviceLimits& limits = {});

// Bytes of all subresources of a texture laid out tightly; false on overflow. Used for
// the size limit and for memory quotas.
bool textureByteSize(const ResourceShape& shape, uint64_t& bytes);

}  // namespace npt::validation
