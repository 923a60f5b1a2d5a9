// SPDX-License-Identifier: MIT
#include "npt/validation/resource.h"

#include <algorithm>

#include "npt/validation/format_table.h"
#include "npt/validation/size_math.h"

namespace npt::validation {

namespace {

constexpr uint32_t kKnownBindFlags = D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER |
    D3D11_BIND_CONSTANT_BUFFER | D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_STREAM_OUTPUT |
    D3D11_BIND_RENDER_TARGET | D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_UNORDERED_ACCESS |
    D3D11_BIND_DECODER | D3D11_BIND_VIDEO_ENCODER;

constexpr uint32_t kGpuReadOnlyBindFlags = D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER |
    D3D11_BIND_CONSTANT_BUFFER | D3D11_BIND_SHADER_RESOURCE;

constexpr uint32_t kKnownCpuAccess = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;

constexpr uint32_t kBufferOnlyMisc = D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS |
    D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS | D3D11_RESOURCE_MISC_BUFFER_STRUCTURED;

constexpr uint32_t kTextureOnlyMisc = D3D11_RESOURCE_MISC_GENERATE_MIPS |
    D3D11_RESOURCE_MISC_TEXTURECUBE | D3D11_RESOURCE_MISC_RESOURCE_CLAMP |
    D3D11_RESOURCE_MISC_GDI_COMPATIBLE | D3D11_RESOURCE_MISC_TILE_POOL;

constexpr uint32_t kSharedMisc = D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX |
    D3D11_RESOURCE_MISC_SHARED_NTHANDLE;

constexpr uint32_t kKnownMisc = kBufferOnlyMisc | kTextureOnlyMisc | kSharedMisc |
    D3D11_RESOURCE_MISC_RESTRICTED_CONTENT | D3D11_RESOURCE_MISC_RESTRICT_SHARED_RESOURCE |
    D3D11_RESOURCE_MISC_RESTRICT_SHARED_RESOURCE_DRIVER | D3D11_RESOURCE_MISC_GUARDED |
    D3D11_RESOURCE_MISC_TILED | D3D11_RESOURCE_MISC_HW_PROTECTED;

// Usage/bind/CPU-access combinations, as the D3D11 runtime checks them (the table in
// the D3D11_USAGE documentation; Wine's validate_d3d11_resource_access_flags matches
// Windows' results in its conformance tests, including the DEFAULT + CPU access cases
// that are accepted).
Check validateAccess(const ResourceShape& shape, bool hasInitialData, const DeviceLimits& limits) {
  if (shape.bindFlags & ~kKnownBindFlags)
    return Check::reject(Rule::ResourceUnknownFlags, "unknown bind flags %#x", shape.bindFlags & ~kKnownBindFlags);
  if (shape.cpuAccessFlags & ~kKnownCpuAccess)
    return Check::reject(Rule::ResourceUnknownFlags, "unknown CPU access flags %#x",
                         shape.cpuAccessFlags & ~kKnownCpuAccess);
  if (shape.miscFlags & ~kKnownMisc)
    return Check::reject(Rule::ResourceUnknownFlags, "unknown misc flags %#x", shape.miscFlags & ~kKnownMisc);

  const bool isTexture = !shape.isBuffer();
  const uint32_t bind = shape.bindFlags;
  switch (shape.usage) {
    case D3D11_USAGE_DEFAULT: {
      const bool cpuAccessAllowed =
          (bind == D3D11_BIND_SHADER_RESOURCE && limits.featureLevel >= D3D_FEATURE_LEVEL_11_0) ||
          (isTexture && bind == D3D11_BIND_RENDER_TARGET) || bind == D3D11_BIND_UNORDERED_ACCESS;
      if (shape.cpuAccessFlags && !cpuAccessAllowed)
        return Check::reject(Rule::ResourceCpuAccess, "DEFAULT resources with bind flags %#x are not CPU accessible", bind);
      break;
    }
    case D3D11_USAGE_IMMUTABLE:
      if (!bind)
        return Check::reject(Rule::ResourceUsage, "IMMUTABLE resources need bind flags");
      if (bind & ~kGpuReadOnlyBindFlags)
        return Check::reject(Rule::ResourceUsage, "IMMUTABLE resources cannot be GPU-writable (bind %#x)", bind);
      if (shape.cpuAccessFlags)
        return Check::reject(Rule::ResourceCpuAccess, "IMMUTABLE resources are not CPU accessible");
      if (!hasInitialData)
        return Check::reject(Rule::ResourceImmutableNoData, "IMMUTABLE resources need initial data");
      break;
    case D3D11_USAGE_DYNAMIC:
      if (!bind)
        return Check::reject(Rule::ResourceUsage, "DYNAMIC resources need bind flags");
      if (bind & ~kGpuReadOnlyBindFlags)
        return Check::reject(Rule::ResourceUsage, "DYNAMIC resources cannot be GPU-writable (bind %#x)", bind);
      if (shape.cpuAccessFlags != D3D11_CPU_ACCESS_WRITE)
        return Check::reject(Rule::ResourceCpuAccess, "DYNAMIC resources need exactly CPU_ACCESS_WRITE (got %#x)",
                             shape.cpuAccessFlags);
      break;
    case D3D11_USAGE_STAGING:
      if (bind)
        return Check::reject(Rule::ResourceUsage, "STAGING resources cannot be bound (bind %#x)", bind);
      if (!shape.cpuAccessFlags)
        return Check::reject(Rule::ResourceCpuAccess, "STAGING resources need CPU access flags");
      break;
    default:
      return Check::reject(Rule::ResourceUsage, "invalid usage %u", unsigned(shape.usage));
  }

  if (shape.miscFlags & kSharedMisc) {
    // Windows allows one of SHARED / SHARED_KEYEDMUTEX (NTHANDLE only with one of them),
    // on DEFAULT, non-CPU-accessible resources.
    const uint32_t shared = shape.miscFlags & kSharedMisc;
    const bool both = (shared & D3D11_RESOURCE_MISC_SHARED) && (shared & D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX);
    const bool ntOnly = shared == D3D11_RESOURCE_MISC_SHARED_NTHANDLE;
    if (both || ntOnly || shape.usage != D3D11_USAGE_DEFAULT || shape.cpuAccessFlags)
      return Check::reject(Rule::ResourceSharedFlags, "invalid shared resource flags %#x for usage %u",
                           shared, unsigned(shape.usage));
  }
  return Check::pass();
}

}  // namespace

ResourceShape shapeOf(const D3D11_BUFFER_DESC& desc) {
  ResourceShape shape;
  shape.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
  shape.width = desc.ByteWidth;
  shape.usage = desc.Usage;
  shape.bindFlags = desc.BindFlags;
  shape.cpuAccessFlags = desc.CPUAccessFlags;
  shape.miscFlags = desc.MiscFlags;
  shape.structureByteStride = desc.StructureByteStride;
  return shape;
}

uint32_t fullMipCount(uint32_t width, uint32_t height, uint32_t depth) {
  uint32_t extent = std::max({width, height, depth, 1u});
  uint32_t count = 1;
  while (extent > 1) {
    extent >>= 1;
    count++;
  }
  return count;
}

static void fillTextureCommon(ResourceShape& shape, uint32_t mips, DXGI_FORMAT format, D3D11_USAGE usage,
                              uint32_t bind, uint32_t cpu, uint32_t misc) {
  shape.format = format;
  shape.usage = usage;
  shape.bindFlags = bind;
  shape.cpuAccessFlags = cpu;
  shape.miscFlags = misc;
  shape.mipLevels = mips ? mips : fullMipCount(shape.width, shape.height, shape.depth);
}

ResourceShape shapeOf(const D3D11_TEXTURE1D_DESC& desc) {
  ResourceShape shape;
  shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D;
  shape.width = desc.Width;
  shape.arraySize = desc.ArraySize;
  fillTextureCommon(shape, desc.MipLevels, desc.Format, desc.Usage, desc.BindFlags, desc.CPUAccessFlags, desc.MiscFlags);
  return shape;
}

ResourceShape shapeOf(const D3D11_TEXTURE2D_DESC& desc) {
  ResourceShape shape;
  shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
  shape.width = desc.Width;
  shape.height = desc.Height;
  shape.arraySize = desc.ArraySize;
  shape.sampleCount = desc.SampleDesc.Count;
  shape.sampleQuality = desc.SampleDesc.Quality;
  fillTextureCommon(shape, desc.MipLevels, desc.Format, desc.Usage, desc.BindFlags, desc.CPUAccessFlags, desc.MiscFlags);
  return shape;
}

ResourceShape shapeOf(const D3D11_TEXTURE3D_DESC& desc) {
  ResourceShape shape;
  shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
  shape.width = desc.Width;
  shape.height = desc.Height;
  shape.depth = desc.Depth;
  fillTextureCommon(shape, desc.MipLevels, desc.Format, desc.Usage, desc.BindFlags, desc.CPUAccessFlags, desc.MiscFlags);
  return shape;
}

Check validateBufferDesc(const D3D11_BUFFER_DESC& desc, bool hasInitialData, const DeviceLimits& limits) {
  const ResourceShape shape = shapeOf(desc);
  if (desc.ByteWidth == 0)
    return Check::reject(Rule::BufferByteWidthZero, "ByteWidth is 0");
  if (desc.ByteWidth > limits.maxResourceBytes)
    return Check::reject(Rule::BufferTooLarge, "ByteWidth %u exceeds the resource size limit", desc.ByteWidth);
  NPT_CHECK(validateAccess(shape, hasInitialData, limits));

  // A buffer may be a render target (buffer RTVs); only depth-stencil is for textures alone.
  if (desc.BindFlags & D3D11_BIND_DEPTH_STENCIL)
    return Check::reject(Rule::BufferBindFlags, "buffers cannot be bound as depth-stencil");
  if (desc.MiscFlags & kTextureOnlyMisc)
    return Check::reject(Rule::BufferMiscFlags, "texture-only misc flags %#x on a buffer", desc.MiscFlags & kTextureOnlyMisc);

  if (desc.BindFlags & D3D11_BIND_CONSTANT_BUFFER) {
    // D3D11_BIND_FLAG: a constant buffer cannot be combined with other bind flags.
    if (desc.BindFlags != D3D11_BIND_CONSTANT_BUFFER)
      return Check::reject(Rule::BufferConstantBindExclusive, "CONSTANT_BUFFER combined with bind flags %#x",
                           desc.BindFlags & ~uint32_t(D3D11_BIND_CONSTANT_BUFFER));
    if (desc.ByteWidth % 16)
      return Check::reject(Rule::BufferConstantSize, "constant buffer ByteWidth %u is not a multiple of 16", desc.ByteWidth);
    // 11.1 runtimes allow larger constant buffers (bound in 4096-constant windows);
    // 11.0 caps them at 4096 constants.
    if (limits.featureLevel < D3D_FEATURE_LEVEL_11_1 &&
        desc.ByteWidth > D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT * 16)
      return Check::reject(Rule::BufferConstantSize, "constant buffer ByteWidth %u exceeds %u", desc.ByteWidth,
                           D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT * 16);
  }

  const bool structured = desc.MiscFlags & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED;
  if (structured) {
    if (desc.MiscFlags & (D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS | D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS))
      return Check::reject(Rule::BufferMiscFlags, "STRUCTURED cannot combine with ALLOW_RAW_VIEWS or DRAWINDIRECT_ARGS");
    const uint32_t stride = desc.StructureByteStride;
    if (stride == 0 || stride % 4 || stride > 2048)
      return Check::reject(Rule::BufferStructureStride, "StructureByteStride %u must be a multiple of 4 in 4..2048", stride);
    if (desc.ByteWidth % stride)
      return Check::reject(Rule::BufferStructureStride, "ByteWidth %u is not a multiple of StructureByteStride %u",
                           desc.ByteWidth, stride);
    if (desc.BindFlags & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER | D3D11_BIND_CONSTANT_BUFFER |
                          D3D11_BIND_STREAM_OUTPUT))
      return Check::reject(Rule::BufferBindFlags, "structured buffers cannot be bound to IA, SO or as constant buffers");
  }
  if ((desc.MiscFlags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS) &&
      !(desc.BindFlags & (D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS)) &&
      desc.Usage != D3D11_USAGE_STAGING)
    return Check::reject(Rule::BufferMiscFlags, "ALLOW_RAW_VIEWS without SHADER_RESOURCE or UNORDERED_ACCESS binding");
  if ((desc.MiscFlags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS) && (desc.ByteWidth % 4))
    return Check::reject(Rule::BufferMiscFlags, "raw buffers need a ByteWidth multiple of 4 (got %u)", desc.ByteWidth);
  return Check::pass();
}

bool textureByteSize(const ResourceShape& shape, uint64_t& bytes) {
  const FormatInfo* info = lookupFormat(shape.format);
  if (!info || !info->blockBytes) return false;
  uint64_t total = 0;
  for (uint32_t mip = 0; mip < shape.mipLevels && mip < 32; mip++) {
    uint64_t rows = 0, rowBytes = 0;
    if (!mipFootprint(*info, shape.mipWidth(mip), shape.mipHeight(mip), rowBytes, rows)) return false;
    uint64_t mipBytes = 0;
    if (!checkedMul(rowBytes, rows, mipBytes) || !checkedMul(mipBytes, shape.mipDepth(mip), mipBytes) ||
        !checkedMul(mipBytes, shape.sampleCount ? shape.sampleCount : 1, mipBytes) ||
        !checkedAdd(total, mipBytes, total))
      return false;
  }
  return checkedMul(total, shape.arraySize, bytes);
}

static Check validateTexture(const ResourceShape& shape, bool hasInitialData, const DeviceLimits& limits) {
  const bool is1D = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D;
  const bool is2D = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D;
  const bool is3D = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
  const bool cube = shape.miscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE;

  // Extents (D3D11_REQ_TEXTURE*_DIMENSION).
  const uint32_t maxExtent = is3D ? D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION
                           : is1D ? D3D11_REQ_TEXTURE1D_U_DIMENSION
                           : cube ? D3D11_REQ_TEXTURECUBE_DIMENSION
                                  : D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION;
  if (shape.width < 1 || shape.height < 1 || shape.depth < 1 || shape.width > maxExtent ||
      shape.height > maxExtent || shape.depth > maxExtent)
    return Check::reject(Rule::TextureDimension, "extent %ux%ux%u outside 1..%u", shape.width, shape.height,
                         shape.depth, maxExtent);
  const uint32_t maxArray = is1D ? D3D11_REQ_TEXTURE1D_ARRAY_AXIS_DIMENSION : D3D11_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION;
  if (shape.arraySize < 1 || shape.arraySize > maxArray)
    return Check::reject(Rule::TextureArraySize, "ArraySize %u outside 1..%u", shape.arraySize, maxArray);
  const uint32_t maxMips = fullMipCount(shape.width, shape.height, shape.depth);
  if (shape.mipLevels > maxMips)
    return Check::reject(Rule::TextureMipLevels, "MipLevels %u exceeds %u for %ux%ux%u", shape.mipLevels, maxMips,
                         shape.width, shape.height, shape.depth);

  // Format.
  const FormatInfo* info = lookupFormat(shape.format);
  if (!info || info->is(FormatD3D12Only) || !info->blockBytes)
    return Check::reject(Rule::TextureFormat, "format %u cannot be used for a texture", unsigned(shape.format));
  if ((info->is(FormatPlanar) || info->is(FormatPacked) || info->is(FormatVideo)) && !is2D &&
      shape.format != DXGI_FORMAT_R8G8_B8G8_UNORM && shape.format != DXGI_FORMAT_G8R8_G8B8_UNORM)
    return Check::reject(Rule::TextureFormat, "video format %s is only valid for 2D textures", info->name);
  if (info->is(FormatCompressed) && is1D)
    return Check::reject(Rule::TextureFormat, "block-compressed format %s is not valid for 1D textures", info->name);
  if (shape.width % info->blockWidth || shape.height % info->blockHeight)
    return Check::reject(Rule::TextureBlockAlignment, "%ux%u is not a multiple of the %ux%u blocks of %s",
                         shape.width, shape.height, info->blockWidth, info->blockHeight, info->name);

  NPT_CHECK(validateAccess(shape, hasInitialData, limits));

  // Bind flags valid for textures, and for the format.
  const uint32_t bind = shape.bindFlags;
  if (bind & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER | D3D11_BIND_CONSTANT_BUFFER | D3D11_BIND_STREAM_OUTPUT))
    return Check::reject(Rule::TextureBindFlags, "buffer-only bind flags %#x on a texture", bind);
  if (shape.miscFlags & kBufferOnlyMisc)
    return Check::reject(Rule::TextureMiscFlags, "buffer-only misc flags %#x on a texture", shape.miscFlags & kBufferOnlyMisc);
  if (bind & D3D11_BIND_DEPTH_STENCIL) {
    const FormatInfo* family = lookupFormat(info->family);
    const bool depthCapable = info->is(FormatDepth) ||
        (info->is(FormatTypeless) && family && (info->family == DXGI_FORMAT_R32_TYPELESS ||
         info->family == DXGI_FORMAT_R24G8_TYPELESS || info->family == DXGI_FORMAT_R16_TYPELESS ||
         info->family == DXGI_FORMAT_R32G8X24_TYPELESS) && !info->is(FormatDepthView));
    if (!depthCapable)
      return Check::reject(Rule::TextureFormatBind, "format %s cannot be bound as depth-stencil", info->name);
    if (is3D)
      return Check::reject(Rule::TextureFormatBind, "3D textures cannot be bound as depth-stencil");
    if (bind & (D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS))
      return Check::reject(Rule::TextureFormatBind, "depth-stencil textures cannot also be render targets or UAVs");
  }
  if (info->is(FormatDepth) && (bind & D3D11_BIND_SHADER_RESOURCE))
    return Check::reject(Rule::TextureFormatBind, "typed depth format %s cannot be a shader resource (use the typeless format)",
                         info->name);
  if ((bind & (D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS)) &&
      (info->is(FormatCompressed) || info->is(FormatDepth) || info->is(FormatDepthView)))
    return Check::reject(Rule::TextureFormatBind, "format %s cannot be a render target or UAV", info->name);

  // Multisampling.
  if (shape.sampleCount < 1 || shape.sampleCount > D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT)
    return Check::reject(Rule::TextureSampleDesc, "SampleDesc.Count %u outside 1..32", shape.sampleCount);
  // The fixed patterns (D3D11_STANDARD_MULTISAMPLE_PATTERN, D3D11_CENTER_MULTISAMPLE_PATTERN) exist from
  // feature level 10.1 for the counts the runtime defines them for (1, 2, 4, 8, 16), wherever the format
  // reports quality levels for that count; any other quality must be below the reported levels.
  const bool fixedPattern = shape.sampleQuality == UINT(D3D11_STANDARD_MULTISAMPLE_PATTERN) ||
                            shape.sampleQuality == UINT(D3D11_CENTER_MULTISAMPLE_PATTERN);
  if (fixedPattern) {
    if (limits.featureLevel < D3D_FEATURE_LEVEL_10_1)
      return Check::reject(Rule::TextureSampleDesc, "fixed sample patterns need feature level 10.1");
    if (shape.sampleCount > 16 || (shape.sampleCount & (shape.sampleCount - 1)))
      return Check::reject(Rule::TextureSampleDesc, "no fixed sample pattern for %u samples", shape.sampleCount);
  } else if (shape.sampleCount == 1 && shape.sampleQuality != 0) {
    return Check::reject(Rule::TextureSampleDesc, "SampleDesc.Quality %u with one sample", shape.sampleQuality);
  }
  if (shape.sampleCount > 1) {
    if (shape.mipLevels != 1)
      return Check::reject(Rule::TextureSampleDesc, "multisampled textures need MipLevels 1 (got %u)", shape.mipLevels);
    if (shape.usage != D3D11_USAGE_DEFAULT || (bind & D3D11_BIND_UNORDERED_ACCESS) || cube)
      return Check::reject(Rule::TextureSampleDesc, "multisampled textures must be DEFAULT, non-UAV, non-cube");
  }
  if (shape.sampleCount > 1 || fixedPattern) {
    if (limits.caps) {
      const UINT levels = limits.caps->multisampleQualityLevels(shape.format, shape.sampleCount);
      if (fixedPattern ? levels == 0 : shape.sampleQuality >= levels)
        return Check::reject(Rule::TextureSampleDesc, "%u samples quality %u unsupported for %s (%u levels)",
                             shape.sampleCount, shape.sampleQuality, info->name, levels);
    } else if (shape.sampleCount & (shape.sampleCount - 1)) {
      return Check::reject(Rule::TextureSampleDesc, "sample count %u is not a power of two", shape.sampleCount);
    }
  }

  // Misc flags.
  if (cube) {
    // Six faces at least; further slices need not make whole cubes (Windows creates a cube
    // texture of 7 or 10 slices: Wine's d3d11 suite, test_create_texture2d).
    if (!is2D || shape.arraySize < 6 || shape.width != shape.height)
      return Check::reject(Rule::TextureCube, "cube textures need a square 2D array of 6 slices or more (%ux%u, %u slices)",
                           shape.width, shape.height, shape.arraySize);
  }
  if (shape.miscFlags & D3D11_RESOURCE_MISC_GENERATE_MIPS) {
    if ((bind & (D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE)) !=
        (D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE))
      return Check::reject(Rule::TextureGenerateMips, "GENERATE_MIPS needs RENDER_TARGET and SHADER_RESOURCE binding");
    if (shape.mipLevels == 1)
      return Check::reject(Rule::TextureGenerateMips, "GENERATE_MIPS with a single mip level");
  }
  if (shape.miscFlags & D3D11_RESOURCE_MISC_GDI_COMPATIBLE) {
    if (shape.format != DXGI_FORMAT_B8G8R8A8_UNORM && shape.format != DXGI_FORMAT_B8G8R8A8_TYPELESS &&
        shape.format != DXGI_FORMAT_B8G8R8A8_UNORM_SRGB)
      return Check::reject(Rule::TextureMiscFlags, "GDI_COMPATIBLE needs a B8G8R8A8 format (got %s)", info->name);
    if (shape.usage != D3D11_USAGE_DEFAULT)
      return Check::reject(Rule::TextureMiscFlags, "GDI_COMPATIBLE needs DEFAULT usage");
  }
  if (shape.miscFlags & D3D11_RESOURCE_MISC_TILE_POOL)
    return Check::reject(Rule::TextureMiscFlags, "TILE_POOL is a buffer-only flag");

  // Device support, when known.
  if (limits.caps) {
    const UINT support = limits.caps->formatSupport(shape.format);
    const UINT dimensionBit = is1D ? D3D11_FORMAT_SUPPORT_TEXTURE1D
                            : is3D ? D3D11_FORMAT_SUPPORT_TEXTURE3D
                            : cube ? D3D11_FORMAT_SUPPORT_TEXTURECUBE
                                   : D3D11_FORMAT_SUPPORT_TEXTURE2D;
    if (!(support & dimensionBit))
      return Check::reject(Rule::TextureFormatUnsupported, "the device does not support %s for this dimension", info->name);
    if ((bind & D3D11_BIND_RENDER_TARGET) && !(support & D3D11_FORMAT_SUPPORT_RENDER_TARGET))
      return Check::reject(Rule::TextureFormatUnsupported, "the device cannot render to %s", info->name);
    if ((bind & D3D11_BIND_DEPTH_STENCIL) && !info->is(FormatTypeless) && !(support & D3D11_FORMAT_SUPPORT_DEPTH_STENCIL))
      return Check::reject(Rule::TextureFormatUnsupported, "the device has no depth-stencil support for %s", info->name);
  }

  uint64_t bytes = 0;
  if (!textureByteSize(shape, bytes) || bytes > limits.maxResourceBytes)
    return Check::reject(Rule::TextureTooLarge, "texture size exceeds the resource size limit");
  return Check::pass();
}

Check validateTexture1DDesc(const D3D11_TEXTURE1D_DESC& desc, bool hasInitialData, const DeviceLimits& limits) {
  return validateTexture(shapeOf(desc), hasInitialData, limits);
}

Check validateTexture2DDesc(const D3D11_TEXTURE2D_DESC& desc, bool hasInitialData, const DeviceLimits& limits) {
  return validateTexture(shapeOf(desc), hasInitialData, limits);
}

Check validateTexture3DDesc(const D3D11_TEXTURE3D_DESC& desc, bool hasInitialData, const DeviceLimits& limits) {
  return validateTexture(shapeOf(desc), hasInitialData, limits);
}

uint32_t dxgiUsageOf(uint32_t bindFlags, D3D11_USAGE usage) {
  uint32_t result = 0;
  if (bindFlags & D3D11_BIND_SHADER_RESOURCE) result |= DXGI_USAGE_SHADER_INPUT;
  if (bindFlags & D3D11_BIND_RENDER_TARGET) result |= DXGI_USAGE_RENDER_TARGET_OUTPUT;
  if (bindFlags & D3D11_BIND_UNORDERED_ACCESS) result |= DXGI_USAGE_UNORDERED_ACCESS;
  if (usage == D3D11_USAGE_DYNAMIC)
    result |= DXGI_CPU_ACCESS_DYNAMIC;
  else if (usage == D3D11_USAGE_STAGING)
    result |= DXGI_CPU_ACCESS_READ_WRITE;
  return result;
}

}  // namespace npt::validation
