// SPDX-License-Identifier: MIT
#pragma once

// d3d10umddi.h argument structures passed to the device functions, from the
// D3D10 through the D3D11.1 DDI. No #pragma pack: the WDK declares these with
// default alignment, so pointer-sized members make the x86 and x86_64 layouts
// differ (checked in triton/tests/ddi_layout_checks.h).

#include "triton/ddi/dxgiddi.h"
#include "triton/ddi/enums.h"
#include "triton/ddi/handles.h"

namespace triton::ddi {

using D3D10_DDI_RECT = RECT;

struct D3D10_DDI_BOX {
  LONG left;
  LONG top;
  LONG front;
  LONG right;
  LONG bottom;
  LONG back;
};

struct D3D10_DDI_VIEWPORT {
  FLOAT TopLeftX;
  FLOAT TopLeftY;
  FLOAT Width;
  FLOAT Height;
  FLOAT MinDepth;
  FLOAT MaxDepth;
};

struct D3D10DDI_MAPPED_SUBRESOURCE {
  void* pData;
  UINT RowPitch;
  UINT DepthPitch;
};

// Resources -------------------------------------------------------------------

struct D3D10DDI_MIPINFO {
  UINT TexelWidth;
  UINT TexelHeight;
  UINT TexelDepth;
  UINT PhysicalWidth;
  UINT PhysicalHeight;
  UINT PhysicalDepth;
};

struct D3D10_DDIARG_SUBRESOURCE_UP {
  void* pSysMem;
  UINT SysMemPitch;
  UINT SysMemSlicePitch;
};

struct D3D10DDIARG_CREATERESOURCE {
  const D3D10DDI_MIPINFO* pMipInfoList;
  const D3D10_DDIARG_SUBRESOURCE_UP* pInitialDataUP;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  UINT Usage;      // D3D10_DDI_RESOURCE_USAGE
  UINT BindFlags;  // D3D10_DDI_RESOURCE_BIND_FLAG
  UINT MapFlags;   // D3D10_DDI_CPU_ACCESS
  UINT MiscFlags;  // D3D10_DDI_RESOURCE_MISC_FLAG
  DXGI_FORMAT Format;
  DXGI_SAMPLE_DESC SampleDesc;
  UINT MipLevels;
  UINT ArraySize;
  DXGI_DDI_PRIMARY_DESC* pPrimaryDesc;
};

// Declared through the D3D11.1 member DecoderBufferType; WDDM 1.3 runtimes
// append TextureLayout, which a D3D11.1 driver does not read.
struct D3D11DDIARG_CREATERESOURCE {
  const D3D10DDI_MIPINFO* pMipInfoList;
  const D3D10_DDIARG_SUBRESOURCE_UP* pInitialDataUP;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  UINT Usage;
  UINT BindFlags;
  UINT MapFlags;
  UINT MiscFlags;
  DXGI_FORMAT Format;
  DXGI_SAMPLE_DESC SampleDesc;
  UINT MipLevels;
  UINT ArraySize;
  DXGI_DDI_PRIMARY_DESC* pPrimaryDesc;
  UINT ByteStride;
  D3D11_1DDI_VIDEO_DECODER_BUFFER_TYPE DecoderBufferType;
  // WDDM 2.0 runtimes only (the header adds it from its minor 5): an older runtime's
  // structure ends before it, so a driver reads it only on a WDDM 2.0+ device.
  D3DWDDM2_0DDI_TEXTURE_LAYOUT TextureLayout;
};

struct D3D10DDIARG_OPENRESOURCE {
  UINT NumAllocations;
  union {
    D3DDDI_OPENALLOCATIONINFO* pOpenAllocationInfo;
    D3DDDI_OPENALLOCATIONINFO2* pOpenAllocationInfo2;
  };
  D3D10DDI_HKMRESOURCE hKMResource;
  void* pPrivateDriverData;
  UINT PrivateDriverDataSize;
};

// Views -----------------------------------------------------------------------

struct D3D10DDIARG_BUFFER_SHADERRESOURCEVIEW {
  union {
    UINT FirstElement;
    UINT ElementOffset;
  };
  union {
    UINT NumElements;
    UINT ElementWidth;
  };
};

struct D3D11DDIARG_BUFFEREX_SHADERRESOURCEVIEW {
  union {
    UINT FirstElement;
    UINT ElementOffset;
  };
  union {
    UINT NumElements;
    UINT ElementWidth;
  };
  UINT Flags;
};

struct D3D10DDIARG_TEX1D_SHADERRESOURCEVIEW {
  UINT MostDetailedMip;
  UINT FirstArraySlice;
  UINT MipLevels;
  UINT ArraySize;
};

struct D3D10DDIARG_TEX2D_SHADERRESOURCEVIEW {
  UINT MostDetailedMip;
  UINT FirstArraySlice;
  UINT MipLevels;
  UINT ArraySize;
};

struct D3D10DDIARG_TEX3D_SHADERRESOURCEVIEW {
  UINT MostDetailedMip;
  UINT MipLevels;
};

struct D3D10DDIARG_TEXCUBE_SHADERRESOURCEVIEW {
  UINT MostDetailedMip;
  UINT MipLevels;
};

struct D3D10_1DDIARG_TEXCUBE_SHADERRESOURCEVIEW {
  UINT MostDetailedMip;
  UINT MipLevels;
  UINT First2DArrayFace;
  UINT NumCubes;
};

struct D3D10DDIARG_CREATESHADERRESOURCEVIEW {
  D3D10DDI_HRESOURCE hDrvResource;
  DXGI_FORMAT Format;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  union {
    D3D10DDIARG_BUFFER_SHADERRESOURCEVIEW Buffer;
    D3D10DDIARG_TEX1D_SHADERRESOURCEVIEW Tex1D;
    D3D10DDIARG_TEX2D_SHADERRESOURCEVIEW Tex2D;
    D3D10DDIARG_TEX3D_SHADERRESOURCEVIEW Tex3D;
    D3D10DDIARG_TEXCUBE_SHADERRESOURCEVIEW TexCube;
  };
};

struct D3D10_1DDIARG_CREATESHADERRESOURCEVIEW {
  D3D10DDI_HRESOURCE hDrvResource;
  DXGI_FORMAT Format;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  union {
    D3D10DDIARG_BUFFER_SHADERRESOURCEVIEW Buffer;
    D3D10DDIARG_TEX1D_SHADERRESOURCEVIEW Tex1D;
    D3D10DDIARG_TEX2D_SHADERRESOURCEVIEW Tex2D;
    D3D10DDIARG_TEX3D_SHADERRESOURCEVIEW Tex3D;
    D3D10_1DDIARG_TEXCUBE_SHADERRESOURCEVIEW TexCube;
  };
};

struct D3D11DDIARG_CREATESHADERRESOURCEVIEW {
  D3D10DDI_HRESOURCE hDrvResource;
  DXGI_FORMAT Format;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  union {
    D3D10DDIARG_BUFFER_SHADERRESOURCEVIEW Buffer;
    D3D10DDIARG_TEX1D_SHADERRESOURCEVIEW Tex1D;
    D3D10DDIARG_TEX2D_SHADERRESOURCEVIEW Tex2D;
    D3D10DDIARG_TEX3D_SHADERRESOURCEVIEW Tex3D;
    D3D10_1DDIARG_TEXCUBE_SHADERRESOURCEVIEW TexCube;
    D3D11DDIARG_BUFFEREX_SHADERRESOURCEVIEW BufferEx;
  };
};

struct D3D10DDIARG_BUFFER_RENDERTARGETVIEW {
  union {
    UINT FirstElement;
    UINT ElementOffset;
  };
  union {
    UINT NumElements;
    UINT ElementWidth;
  };
};

struct D3D10DDIARG_TEX1D_RENDERTARGETVIEW {
  UINT MipSlice;
  UINT FirstArraySlice;
  UINT ArraySize;
};

struct D3D10DDIARG_TEX2D_RENDERTARGETVIEW {
  UINT MipSlice;
  UINT FirstArraySlice;
  UINT ArraySize;
};

struct D3D10DDIARG_TEX3D_RENDERTARGETVIEW {
  UINT MipSlice;
  UINT FirstW;
  UINT WSize;
};

struct D3D10DDIARG_TEXCUBE_RENDERTARGETVIEW {
  UINT MipSlice;
  UINT FirstArraySlice;
  UINT ArraySize;
};

struct D3D10DDIARG_CREATERENDERTARGETVIEW {
  D3D10DDI_HRESOURCE hDrvResource;
  DXGI_FORMAT Format;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  union {
    D3D10DDIARG_BUFFER_RENDERTARGETVIEW Buffer;
    D3D10DDIARG_TEX1D_RENDERTARGETVIEW Tex1D;
    D3D10DDIARG_TEX2D_RENDERTARGETVIEW Tex2D;
    D3D10DDIARG_TEX3D_RENDERTARGETVIEW Tex3D;
    D3D10DDIARG_TEXCUBE_RENDERTARGETVIEW TexCube;
  };
};

struct D3D10DDIARG_TEX1D_DEPTHSTENCILVIEW {
  UINT MipSlice;
  UINT FirstArraySlice;
  UINT ArraySize;
};

struct D3D10DDIARG_TEX2D_DEPTHSTENCILVIEW {
  UINT MipSlice;
  UINT FirstArraySlice;
  UINT ArraySize;
};

struct D3D10DDIARG_TEXCUBE_DEPTHSTENCILVIEW {
  UINT MipSlice;
  UINT FirstArraySlice;
  UINT ArraySize;
};

struct D3D10DDIARG_CREATEDEPTHSTENCILVIEW {
  D3D10DDI_HRESOURCE hDrvResource;
  DXGI_FORMAT Format;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  union {
    D3D10DDIARG_TEX1D_DEPTHSTENCILVIEW Tex1D;
    D3D10DDIARG_TEX2D_DEPTHSTENCILVIEW Tex2D;
    D3D10DDIARG_TEXCUBE_DEPTHSTENCILVIEW TexCube;
  };
};

struct D3D11DDIARG_CREATEDEPTHSTENCILVIEW {
  D3D10DDI_HRESOURCE hDrvResource;
  DXGI_FORMAT Format;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  UINT Flags;  // D3D11_DDI_CREATEDEPTHSTENCILVIEW_FLAG
  union {
    D3D10DDIARG_TEX1D_DEPTHSTENCILVIEW Tex1D;
    D3D10DDIARG_TEX2D_DEPTHSTENCILVIEW Tex2D;
    D3D10DDIARG_TEXCUBE_DEPTHSTENCILVIEW TexCube;
  };
};

inline constexpr UINT D3D11_DDI_BUFFEREX_SRV_FLAG_RAW = 0x1;
inline constexpr UINT D3D11_DDI_BUFFER_UAV_FLAG_RAW = 0x1;
inline constexpr UINT D3D11_DDI_BUFFER_UAV_FLAG_APPEND = 0x2;
inline constexpr UINT D3D11_DDI_BUFFER_UAV_FLAG_COUNTER = 0x4;

struct D3D11DDIARG_BUFFER_UNORDEREDACCESSVIEW {
  UINT FirstElement;
  UINT NumElements;
  UINT Flags;
};

struct D3D11DDIARG_TEX1D_UNORDEREDACCESSVIEW {
  UINT MipSlice;
  UINT FirstArraySlice;
  UINT ArraySize;
};

struct D3D11DDIARG_TEX2D_UNORDEREDACCESSVIEW {
  UINT MipSlice;
  UINT FirstArraySlice;
  UINT ArraySize;
};

struct D3D11DDIARG_TEX3D_UNORDEREDACCESSVIEW {
  UINT MipSlice;
  UINT FirstW;
  UINT WSize;
};

struct D3D11DDIARG_CREATEUNORDEREDACCESSVIEW {
  D3D10DDI_HRESOURCE hDrvResource;
  DXGI_FORMAT Format;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  union {
    D3D11DDIARG_BUFFER_UNORDEREDACCESSVIEW Buffer;
    D3D11DDIARG_TEX1D_UNORDEREDACCESSVIEW Tex1D;
    D3D11DDIARG_TEX2D_UNORDEREDACCESSVIEW Tex2D;
    D3D11DDIARG_TEX3D_UNORDEREDACCESSVIEW Tex3D;
  };
};

// Input layout ----------------------------------------------------------------

// InputRegister is the vertex shader input register the element feeds; the
// semantic names of the API are gone by the time the DDI sees the layout.
struct D3D10DDIARG_INPUT_ELEMENT_DESC {
  UINT InputSlot;
  UINT AlignedByteOffset;
  DXGI_FORMAT Format;
  D3D10_DDI_INPUT_CLASSIFICATION InputSlotClass;
  UINT InstanceDataStepRate;
  UINT InputRegister;
};

struct D3D10DDIARG_CREATEELEMENTLAYOUT {
  const D3D10DDIARG_INPUT_ELEMENT_DESC* pVertexElements;
  UINT NumElements;
};

// State objects ---------------------------------------------------------------

struct D3D10_DDI_BLEND_DESC {
  BOOL AlphaToCoverageEnable;
  BOOL BlendEnable[D3D10_DDI_SIMULTANEOUS_RENDER_TARGET_COUNT];
  D3D10_DDI_BLEND SrcBlend;
  D3D10_DDI_BLEND DestBlend;
  D3D10_DDI_BLEND_OP BlendOp;
  D3D10_DDI_BLEND SrcBlendAlpha;
  D3D10_DDI_BLEND DestBlendAlpha;
  D3D10_DDI_BLEND_OP BlendOpAlpha;
  UINT8 RenderTargetWriteMask[D3D10_DDI_SIMULTANEOUS_RENDER_TARGET_COUNT];
};

struct D3D10_DDI_RENDER_TARGET_BLEND_DESC1 {
  BOOL BlendEnable;
  D3D10_DDI_BLEND SrcBlend;
  D3D10_DDI_BLEND DestBlend;
  D3D10_DDI_BLEND_OP BlendOp;
  D3D10_DDI_BLEND SrcBlendAlpha;
  D3D10_DDI_BLEND DestBlendAlpha;
  D3D10_DDI_BLEND_OP BlendOpAlpha;
  UINT8 RenderTargetWriteMask;
};

struct D3D10_1_DDI_BLEND_DESC {
  BOOL AlphaToCoverageEnable;
  BOOL IndependentBlendEnable;
  D3D10_DDI_RENDER_TARGET_BLEND_DESC1 RenderTarget[D3D10_DDI_SIMULTANEOUS_RENDER_TARGET_COUNT];
};

struct D3D11_1_DDI_RENDER_TARGET_BLEND_DESC {
  BOOL BlendEnable;
  BOOL LogicOpEnable;
  D3D10_DDI_BLEND SrcBlend;
  D3D10_DDI_BLEND DestBlend;
  D3D10_DDI_BLEND_OP BlendOp;
  D3D10_DDI_BLEND SrcBlendAlpha;
  D3D10_DDI_BLEND DestBlendAlpha;
  D3D10_DDI_BLEND_OP BlendOpAlpha;
  D3D11_1_DDI_LOGIC_OP LogicOp;
  UINT8 RenderTargetWriteMask;
};

struct D3D11_1_DDI_BLEND_DESC {
  BOOL AlphaToCoverageEnable;
  BOOL IndependentBlendEnable;
  D3D11_1_DDI_RENDER_TARGET_BLEND_DESC RenderTarget[D3D10_DDI_SIMULTANEOUS_RENDER_TARGET_COUNT];
};

struct D3D10_DDI_DEPTH_STENCILOP_DESC {
  D3D10_DDI_STENCIL_OP StencilFailOp;
  D3D10_DDI_STENCIL_OP StencilDepthFailOp;
  D3D10_DDI_STENCIL_OP StencilPassOp;
  D3D10_DDI_COMPARISON_FUNC StencilFunc;
};

// FrontEnable/BackEnable let the runtime disable one face's stencil op.
struct D3D10_DDI_DEPTH_STENCIL_DESC {
  BOOL DepthEnable;
  D3D10_DDI_DEPTH_WRITE_MASK DepthWriteMask;
  D3D10_DDI_COMPARISON_FUNC DepthFunc;
  BOOL StencilEnable;
  BOOL FrontEnable;
  BOOL BackEnable;
  UINT8 StencilReadMask;
  UINT8 StencilWriteMask;
  D3D10_DDI_DEPTH_STENCILOP_DESC FrontFace;
  D3D10_DDI_DEPTH_STENCILOP_DESC BackFace;
};

struct D3D10_DDI_RASTERIZER_DESC {
  D3D10_DDI_FILL_MODE FillMode;
  D3D10_DDI_CULL_MODE CullMode;
  BOOL FrontCounterClockwise;
  INT DepthBias;
  FLOAT DepthBiasClamp;
  FLOAT SlopeScaledDepthBias;
  BOOL DepthClipEnable;
  BOOL ScissorEnable;
  BOOL MultisampleEnable;
  BOOL AntialiasedLineEnable;
};

struct D3D11_1_DDI_RASTERIZER_DESC {
  D3D10_DDI_FILL_MODE FillMode;
  D3D10_DDI_CULL_MODE CullMode;
  BOOL FrontCounterClockwise;
  INT DepthBias;
  FLOAT DepthBiasClamp;
  FLOAT SlopeScaledDepthBias;
  BOOL DepthClipEnable;
  BOOL ScissorEnable;
  BOOL MultisampleEnable;
  BOOL AntialiasedLineEnable;
  UINT ForcedSampleCount;
};

struct D3D10_DDI_SAMPLER_DESC {
  D3D10_DDI_FILTER Filter;
  D3D10_DDI_TEXTURE_ADDRESS_MODE AddressU;
  D3D10_DDI_TEXTURE_ADDRESS_MODE AddressV;
  D3D10_DDI_TEXTURE_ADDRESS_MODE AddressW;
  FLOAT MipLODBias;
  UINT MaxAnisotropy;
  D3D10_DDI_COMPARISON_FUNC ComparisonFunc;
  FLOAT BorderColor[4];
  FLOAT MinLOD;
  FLOAT MaxLOD;
};

// Shaders ---------------------------------------------------------------------

// Name-less signature entries: a system value, a register and a component
// mask. The 11.1 entries add the component type and minimum precision: a
// 20-byte stride against the 10.0 entry's 12, which a driver must honour.
// ENTRY2 (the type the current 11.1 signature structures point to) adds the
// GS output stream in what is padding in ENTRY, so both have one layout.
struct D3D10DDIARG_SIGNATURE_ENTRY {
  D3D10_SB_NAME SystemValue;
  UINT Register;
  BYTE Mask;
};

struct D3D11_1DDIARG_SIGNATURE_ENTRY {
  D3D10_SB_NAME SystemValue;
  UINT Register;
  BYTE Mask;
  D3D10_SB_REGISTER_COMPONENT_TYPE RegisterComponentType;
  D3D11_SB_OPERAND_MIN_PRECISION MinPrecision;
};

struct D3D11_1DDIARG_SIGNATURE_ENTRY2 {
  D3D10_SB_NAME SystemValue;
  UINT Register;
  BYTE Mask;
  BYTE Stream;
  D3D10_SB_REGISTER_COMPONENT_TYPE RegisterComponentType;
  D3D11_SB_OPERAND_MIN_PRECISION MinPrecision;
};

struct D3D10DDIARG_STAGE_IO_SIGNATURES {
  D3D10DDIARG_SIGNATURE_ENTRY* pInputSignature;
  UINT NumInputSignatureEntries;
  D3D10DDIARG_SIGNATURE_ENTRY* pOutputSignature;
  UINT NumOutputSignatureEntries;
};

// The *Deprecated members (ENTRY) alias the ENTRY2 pointers: same storage,
// same stride; older headers declared only the ENTRY pointer.
struct D3D11_1DDIARG_STAGE_IO_SIGNATURES {
  union {
    D3D11_1DDIARG_SIGNATURE_ENTRY* pInputSignatureDeprecated;
    D3D11_1DDIARG_SIGNATURE_ENTRY2* pInputSignature;
  };
  UINT NumInputSignatureEntries;
  union {
    D3D11_1DDIARG_SIGNATURE_ENTRY* pOutputSignatureDeprecated;
    D3D11_1DDIARG_SIGNATURE_ENTRY2* pOutputSignature;
  };
  UINT NumOutputSignatureEntries;
};

struct D3D11DDIARG_TESSELLATION_IO_SIGNATURES {
  D3D10DDIARG_SIGNATURE_ENTRY* pInputSignature;
  UINT NumInputSignatureEntries;
  D3D10DDIARG_SIGNATURE_ENTRY* pOutputSignature;
  UINT NumOutputSignatureEntries;
  D3D10DDIARG_SIGNATURE_ENTRY* pPatchConstantSignature;
  UINT NumPatchConstantSignatureEntries;
};

struct D3D11_1DDIARG_TESSELLATION_IO_SIGNATURES {
  union {
    D3D11_1DDIARG_SIGNATURE_ENTRY* pInputSignatureDeprecated;
    D3D11_1DDIARG_SIGNATURE_ENTRY2* pInputSignature;
  };
  UINT NumInputSignatureEntries;
  union {
    D3D11_1DDIARG_SIGNATURE_ENTRY* pOutputSignatureDeprecated;
    D3D11_1DDIARG_SIGNATURE_ENTRY2* pOutputSignature;
  };
  UINT NumOutputSignatureEntries;
  union {
    D3D11_1DDIARG_SIGNATURE_ENTRY* pPatchConstantSignatureDeprecated;
    D3D11_1DDIARG_SIGNATURE_ENTRY2* pPatchConstantSignature;
  };
  UINT NumPatchConstantSignatureEntries;
};

struct D3D10DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY {
  UINT OutputSlot;
  UINT RegisterIndex;
  BYTE RegisterMask;
};

struct D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY {
  UINT Stream;
  UINT OutputSlot;
  UINT RegisterIndex;
  BYTE RegisterMask;
};

struct D3D10DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT {
  const UINT* pShaderCode;
  const D3D10DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY* pOutputStreamDecl;
  UINT NumEntries;
  UINT StreamOutputStrideInBytes;
};

struct D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT {
  const UINT* pShaderCode;
  const D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY* pOutputStreamDecl;
  UINT NumEntries;
  const UINT* BufferStridesInBytes;
  UINT NumStrides;
  UINT RasterizedStream;
};

// Class linkage: one packed 32-bit word per class instance bound with
// SetShaderWithIfaces.
struct D3D11DDIARG_POINTERDATA {
  UINT uCBOffset : 12;
  UINT uCBID : 4;
  UINT uBaseSamp : 4;
  UINT uBaseTex : 7;
  UINT uReserved : 5;
};

// Queries and counters --------------------------------------------------------

struct D3D10DDIARG_CREATEQUERY {
  D3D10DDI_QUERY Query;
  UINT MiscFlags;
};

struct D3D10DDI_COUNTER_INFO {
  D3D10DDI_QUERY LastDeviceDependentCounter;
  UINT NumSimultaneousCounters;
  UINT8 NumDetectableParallelUnits;
};

struct D3D10_DDI_QUERY_DATA_TIMESTAMP_DISJOINT {
  UINT64 Frequency;
  BOOL Disjoint;
};

struct D3D10_DDI_QUERY_DATA_PIPELINE_STATISTICS {
  UINT64 IAVertices;
  UINT64 IAPrimitives;
  UINT64 VSInvocations;
  UINT64 GSInvocations;
  UINT64 GSPrimitives;
  UINT64 CInvocations;
  UINT64 CPrimitives;
  UINT64 PSInvocations;
};

struct D3D11_DDI_QUERY_DATA_PIPELINE_STATISTICS {
  UINT64 IAVertices;
  UINT64 IAPrimitives;
  UINT64 VSInvocations;
  UINT64 GSInvocations;
  UINT64 GSPrimitives;
  UINT64 CInvocations;
  UINT64 CPrimitives;
  UINT64 PSInvocations;
  UINT64 HSInvocations;
  UINT64 DSInvocations;
  UINT64 CSInvocations;
};

struct D3D10_DDI_QUERY_DATA_SO_STATISTICS {
  UINT64 NumPrimitivesWritten;
  UINT64 PrimitivesStorageNeeded;
};

// Deferred contexts and command lists -----------------------------------------

struct D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE {
  UINT Flags;
};

struct D3D11DDIARG_CREATECOMMANDLIST {
  D3D10DDI_HDEVICE hDeferredContext;
};

struct D3D11DDI_HANDLESIZE {
  D3D11DDI_HANDLETYPE HandleType;
  SIZE_T DriverPrivateSize;
};

// Adapter ---------------------------------------------------------------------

struct D3D10DDIARG_CALCPRIVATEDEVICESIZE {
  UINT Interface;
  UINT Version;
  UINT Flags;
};

struct D3D10_2DDIARG_GETCAPS {
  D3D10_2DDICAPS_TYPE Type;
  void* pInfo;
  void* pData;
  UINT DataSize;
};

// WDDM 1.3 tiled resources: a tile position and a tile region, as the API's
// D3D11_TILED_RESOURCE_COORDINATE / D3D11_TILE_REGION_SIZE.
struct D3DWDDM1_3DDI_TILED_RESOURCE_COORDINATE {
  UINT X;
  UINT Y;
  UINT Z;
  UINT Subresource;
};

struct D3DWDDM1_3DDI_TILE_REGION_SIZE {
  UINT NumTiles;
  BOOL bUseBox;
  UINT Width;
  UINT16 Height;
  UINT16 Depth;
};

// WDDM 2.0 ---------------------------------------------------------------------
// The 11.1 rasterizer description with the conservative-rasterization mode.
struct D3DWDDM2_0DDI_RASTERIZER_DESC {
  D3D10_DDI_FILL_MODE FillMode;
  D3D10_DDI_CULL_MODE CullMode;
  BOOL FrontCounterClockwise;
  INT DepthBias;
  FLOAT DepthBiasClamp;
  FLOAT SlopeScaledDepthBias;
  BOOL DepthClipEnable;
  BOOL ScissorEnable;
  BOOL MultisampleEnable;
  BOOL AntialiasedLineEnable;
  UINT ForcedSampleCount;
  D3DWDDM2_0DDI_CONSERVATIVE_RASTERIZATION_MODE ConservativeRasterizationMode;
};

// The WDDM 2.0 ("DESC1") view arguments: the 2D members gain the plane of a planar
// format (header minor 5 named it PlaneIndex, minor 6 on PlaneSlice; same place). The
// unions grow by that word; everything else is the 11.0 arguments'.
struct D3DWDDM2_0DDIARG_TEX2D_SHADERRESOURCEVIEW {
  UINT MostDetailedMip;
  UINT FirstArraySlice;
  UINT MipLevels;
  UINT ArraySize;
  UINT PlaneSlice;
};

struct D3DWDDM2_0DDIARG_CREATESHADERRESOURCEVIEW {
  D3D10DDI_HRESOURCE hDrvResource;
  DXGI_FORMAT Format;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  union {
    D3D10DDIARG_BUFFER_SHADERRESOURCEVIEW Buffer;
    D3D10DDIARG_TEX1D_SHADERRESOURCEVIEW Tex1D;
    D3DWDDM2_0DDIARG_TEX2D_SHADERRESOURCEVIEW Tex2D;
    D3D10DDIARG_TEX3D_SHADERRESOURCEVIEW Tex3D;
    D3D10_1DDIARG_TEXCUBE_SHADERRESOURCEVIEW TexCube;
    D3D11DDIARG_BUFFEREX_SHADERRESOURCEVIEW BufferEx;
  };
};

struct D3DWDDM2_0DDIARG_TEX2D_RENDERTARGETVIEW {
  UINT MipSlice;
  UINT FirstArraySlice;
  UINT ArraySize;
  UINT PlaneSlice;
};

struct D3DWDDM2_0DDIARG_CREATERENDERTARGETVIEW {
  D3D10DDI_HRESOURCE hDrvResource;
  DXGI_FORMAT Format;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  union {
    D3D10DDIARG_BUFFER_RENDERTARGETVIEW Buffer;
    D3D10DDIARG_TEX1D_RENDERTARGETVIEW Tex1D;
    D3DWDDM2_0DDIARG_TEX2D_RENDERTARGETVIEW Tex2D;
    D3D10DDIARG_TEX3D_RENDERTARGETVIEW Tex3D;
    D3D10DDIARG_TEXCUBE_RENDERTARGETVIEW TexCube;
  };
};

struct D3DWDDM2_0DDIARG_TEX2D_UNORDEREDACCESSVIEW {
  UINT MipSlice;
  UINT FirstArraySlice;
  UINT ArraySize;
  UINT PlaneSlice;
};

struct D3DWDDM2_0DDIARG_CREATEUNORDEREDACCESSVIEW {
  D3D10DDI_HRESOURCE hDrvResource;
  DXGI_FORMAT Format;
  D3D10DDIRESOURCE_TYPE ResourceDimension;
  union {
    D3D11DDIARG_BUFFER_UNORDEREDACCESSVIEW Buffer;
    D3D11DDIARG_TEX1D_UNORDEREDACCESSVIEW Tex1D;
    D3DWDDM2_0DDIARG_TEX2D_UNORDEREDACCESSVIEW Tex2D;
    D3D11DDIARG_TEX3D_UNORDEREDACCESSVIEW Tex3D;
  };
};

// A query on the engines ContextType names (D3DWDDM2_0DDI_CONTEXTTYPE_FLAG).
struct D3DWDDM2_0DDIARG_CREATEQUERY {
  D3D10DDI_QUERY Query;
  UINT MiscFlags;
  UINT ContextType;
};

// GetResourceLayout's answer per subresource (standard-swizzle and row-major layouts).
struct D3DWDDM2_0DDI_SUBRESOURCE_PRESWIZZLE_OFFSETS {
  UINT16 RowByteOffset;
  UINT16 ColumnOffset;
  UINT16 DepthOffset;
};

struct D3DWDDM2_0DDI_SUBRESOURCE_LAYOUT {
  UINT64 BaseOffset;
  D3DWDDM2_0DDI_SUBRESOURCE_PRESWIZZLE_OFFSETS PreswizzleOffsets;
  UINT64 RowPitch;
  UINT64 DepthPitch;
};

}  // namespace triton::ddi
