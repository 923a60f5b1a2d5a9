// SPDX-License-Identifier: MIT
#pragma once

// Every validation rule, with its stable code and what the call does when it is broken.
// Codes are stable (host logs, error reports, tests): append, never renumber or reuse.
// Families: 1xxx buffers, 2xxx textures, 3xxx subresource data and boxes, 4xxx views,
// 5xxx state objects, 6xxx input layouts, 7xxx shaders, 8xxx Map/Unmap, 9xxx copies,
// 10xxx slots and counts, 11xxx protocol-level violations (fatal).
//
// Outcomes: Fail = method returns E_INVALIDARG; Ignore = void method dropped;
// Fatal = the context is stopped (the guest runtime could never send this).

#include <cstdint>

#define NPT_VALIDATION_RULES(X)                                                       \
  X(Ok,                            0, Pass)                                       \
  /* buffers */                                                                       \
  X(BufferByteWidthZero,           1001, Fail)                                       \
  X(BufferTooLarge,                1002, Fail)                                       \
  X(BufferConstantSize,            1003, Fail)                                       \
  X(BufferConstantBindExclusive,   1004, Fail)                                       \
  X(BufferStructureStride,         1005, Fail)                                       \
  X(BufferMiscFlags,               1006, Fail)                                       \
  X(BufferBindFlags,               1007, Fail)                                       \
  /* usage / CPU access, shared by buffers and textures */                            \
  X(ResourceUsage,                 1101, Fail)                                       \
  X(ResourceCpuAccess,             1102, Fail)                                       \
  X(ResourceImmutableNoData,       1103, Fail)                                       \
  X(ResourceUnknownFlags,          1104, Fail)                                       \
  X(ResourceSharedFlags,           1105, Fail)                                       \
  /* textures */                                                                      \
  X(TextureDimension,              2001, Fail)                                       \
  X(TextureArraySize,              2002, Fail)                                       \
  X(TextureMipLevels,              2003, Fail)                                       \
  X(TextureFormat,                 2004, Fail)                                       \
  X(TextureFormatBind,             2005, Fail)                                       \
  X(TextureBindFlags,              2006, Fail)                                       \
  X(TextureSampleDesc,             2007, Fail)                                       \
  X(TextureCube,                   2008, Fail)                                       \
  X(TextureGenerateMips,           2009, Fail)                                       \
  X(TextureMiscFlags,              2010, Fail)                                       \
  X(TextureBlockAlignment,         2011, Fail)                                       \
  X(TextureTooLarge,               2012, Fail)                                       \
  X(TextureFormatUnsupported,      2013, Fail)                                       \
  /* initial data, UpdateSubresource */                                               \
  X(InitialDataMissing,            3001, Fail)                                       \
  X(InitialDataTruncated,          3002, Fatal)                                      \
  X(SubresourceIndex,              3003, Ignore)                                     \
  X(UpdateBoxOutOfBounds,          3004, Ignore)                                     \
  X(UpdateBoxEmpty,                3005, Ignore)                                     \
  X(UpdateBoxAlignment,            3006, Ignore)                                     \
  X(UpdateDestination,             3007, Ignore)                                     \
  X(UpdateDataTruncated,           3008, Fatal)                                      \
  X(UpdateConstantBufferBox,       3009, Ignore)                                     \
  X(InitialDataNotAllowed,         3010, Fail)                                       \
  X(InitialDataCount,              3011, Fatal)                                      \
  /* views */                                                                         \
  X(ViewBindFlag,                  4001, Fail)                                       \
  X(ViewDimension,                 4002, Fail)                                       \
  X(ViewFormat,                    4003, Fail)                                       \
  X(ViewMipRange,                  4004, Fail)                                       \
  X(ViewArrayRange,                4005, Fail)                                       \
  X(ViewBufferRange,               4006, Fail)                                       \
  X(ViewFlags,                     4007, Fail)                                       \
  X(ViewRawBuffer,                 4008, Fail)                                       \
  X(ViewStructuredBuffer,          4009, Fail)                                       \
  X(ViewDepthRange,                4010, Fail)                                       \
  X(ViewCubeRange,                 4011, Fail)                                       \
  X(ViewPlaneSlice,                4012, Fail)                                       \
  /* state objects */                                                                 \
  X(BlendFactor,                   5001, Fail)                                       \
  X(BlendOp,                       5002, Fail)                                       \
  X(BlendWriteMask,                5003, Fail)                                       \
  X(BlendAlphaFactor,              5004, Fail)                                       \
  X(BlendLogicOp,                  5005, Fail)                                       \
  X(DepthWriteMask,                5011, Fail)                                       \
  X(DepthComparison,               5012, Fail)                                       \
  X(StencilOp,                     5013, Fail)                                       \
  X(RasterizerFillMode,            5021, Fail)                                       \
  X(RasterizerCullMode,            5022, Fail)                                       \
  X(RasterizerDepthBias,           5023, Fail)                                       \
  X(RasterizerSampleCount,         5024, Fail)                                       \
  X(SamplerFilter,                 5031, Fail)                                       \
  X(SamplerAddressMode,            5032, Fail)                                       \
  X(SamplerMipLodBias,             5033, Fail)                                       \
  X(SamplerMaxAnisotropy,          5034, Fail)                                       \
  X(SamplerComparison,             5035, Fail)                                       \
  X(SamplerLodRange,               5036, Fail)                                       \
  X(StateBool,                     5041, Fail)                                       \
  /* input layouts */                                                                 \
  X(InputLayoutCount,              6001, Fail)                                       \
  X(InputLayoutFormat,             6002, Fail)                                       \
  X(InputLayoutSlot,               6003, Fail)                                       \
  X(InputLayoutOffset,             6004, Fail)                                       \
  X(InputLayoutClass,              6005, Fail)                                       \
  X(InputLayoutStepRate,           6006, Fail)                                       \
  X(InputLayoutSemantic,           6007, Fail)                                       \
  X(InputLayoutDuplicate,          6008, Fail)                                       \
  X(InputLayoutSlotClassMix,       6009, Fail)                                       \
  /* shaders */                                                                       \
  X(ShaderTooSmall,                7001, Fail)                                       \
  X(ShaderMagic,                   7002, Fail)                                       \
  X(ShaderContainerSize,           7003, Fail)                                       \
  X(ShaderChunkTable,              7004, Fail)                                       \
  X(ShaderChunkBounds,             7005, Fail)                                       \
  X(ShaderNoCode,                  7006, Fail)                                       \
  X(ShaderStageMismatch,           7007, Fail)                                       \
  X(ShaderCodeBounds,              7008, Fail)                                       \
  X(ShaderStreamOutput,            7009, Fail)                                       \
  X(ShaderChecksum,                7010, Fail)                                       \
  X(ShaderModel,                   7011, Fail)                                       \
  X(ShaderSignature,               7012, Fail)                                       \
  /* queries */                                                                       \
  X(QueryType,                     7101, Fail)                                       \
  X(QueryMiscFlags,                7102, Fail)                                       \
  /* Map / Unmap */                                                                   \
  X(MapSubresource,                8001, Fail)                                       \
  X(MapType,                       8002, Fail)                                       \
  X(MapAccess,                     8003, Fail)                                       \
  X(MapFlags,                      8004, Fail)                                       \
  X(MapAlreadyMapped,              8005, Fail)                                       \
  X(UnmapNotMapped,                8006, Ignore)                                     \
  /* copies */                                                                        \
  X(CopyResourceMismatch,          9001, Ignore)                                     \
  X(CopyDestination,               9002, Ignore)                                     \
  X(CopySubresource,               9003, Ignore)                                     \
  X(CopyBox,                       9004, Ignore)                                     \
  X(CopyFormat,                    9005, Ignore)                                     \
  X(CopySameSubresource,           9006, Ignore)                                     \
  X(CopyWholeSubresourceOnly,      9007, Ignore)                                     \
  X(CopySampleCount,               9008, Ignore)                                     \
  /* slots and counts */                                                              \
  X(SlotRange,                     10001, Ignore)                                     \
  X(ViewportCount,                 10002, Ignore)                                     \
  X(RenderTargetCount,             10003, Ignore)                                     \
  X(UavSlotRange,                  10004, Ignore)                                     \
  X(IndexBufferFormat,             10005, Ignore)                                     \
  X(StreamOutputCount,             10006, Ignore)                                     \
  X(PrimitiveTopology,             10007, Ignore)                                     \
  X(ClearDepthStencilFlags,        10008, Ignore)                                     \
  X(ResolveMismatch,               10009, Ignore)                                     \
  X(GenerateMipsResource,          10010, Ignore)                                     \
  /* protocol-level */                                                                \
  X(CountExceedsPayload,           11001, Fatal)                                      \
  X(NullRequired,                  11002, Fatal)

namespace npt::validation {

enum class Rule : uint32_t {
#define NPT_RULE_ENUM(name, code, outcome) name = code,
  NPT_VALIDATION_RULES(NPT_RULE_ENUM)
#undef NPT_RULE_ENUM
};

// "ViewMipRange"
const char* ruleName(Rule rule);

}  // namespace npt::validation
