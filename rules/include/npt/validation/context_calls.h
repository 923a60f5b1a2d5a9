// SPDX-License-Identifier: MIT
#pragma once

// Immediate/deferred context calls: Map/Unmap, copies, and slot/count limits.

#include <cstdint>

#include "npt/validation/check.h"
#include "npt/validation/limits.h"
#include "npt/validation/resource.h"

namespace npt::validation {

Check validateMap(const ResourceShape& resource, uint32_t subresource, D3D11_MAP mapType, uint32_t mapFlags,
                  bool alreadyMapped, const DeviceLimits& limits = {});
Check validateUnmap(const ResourceShape& resource, uint32_t subresource, bool mapped);

// sameResource: both arguments name the same object.
Check validateCopyResource(const ResourceShape& dst, const ResourceShape& src, bool sameResource);

struct CopyRegionArgs {
  uint32_t dstSubresource = 0;
  uint32_t dstX = 0, dstY = 0, dstZ = 0;
  uint32_t srcSubresource = 0;
  const D3D11_BOX* srcBox = nullptr;
};
Check validateCopySubresourceRegion(const ResourceShape& dst, const ResourceShape& src, bool sameResource,
                                    const CopyRegionArgs& args);

// Which binding family a Set* call addresses; each has its API slot count.
enum class SlotKind {
  ShaderResource,   // D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT (128)
  Sampler,          // D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT (16)
  ConstantBuffer,   // D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT (14)
  VertexBuffer,     // D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT (32)
  StreamOutput,     // D3D11_SO_BUFFER_SLOT_COUNT (4)
  RenderTarget,     // D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT (8)
  UnorderedAccess,  // 8 on 11.0, D3D11_1_UAV_SLOT_COUNT (64) on 11.1
  Viewport,         // D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE (16)
  ScissorRect,
  ClassInstance,    // D3D11_SHADER_MAX_INTERFACES (253)
};

uint32_t slotCount(SlotKind kind, const DeviceLimits& limits = {});

// start + count must fit in the family's slots (Windows drops the call otherwise).
Check validateSlotRange(SlotKind kind, uint32_t start, uint32_t count, const DeviceLimits& limits = {});

// OMSetRenderTargetsAndUnorderedAccessViews: RTVs occupy the low UAV slots.
Check validateRenderTargetsAndUavs(uint32_t numRtvs, uint32_t uavStart, uint32_t numUavs,
                                   const DeviceLimits& limits = {});

Check validateIndexBufferFormat(DXGI_FORMAT format);

// IASetPrimitiveTopology: the D3D11_PRIMITIVE_TOPOLOGY values (0 = UNDEFINED, 1-5, 10-13, 33-64).
Check validatePrimitiveTopology(uint32_t topology);

// ClearDepthStencilView: flags a non-empty subset of CLEAR_DEPTH | CLEAR_STENCIL, depth
// in [0, 1] when cleared.
Check validateClearDepthStencil(uint32_t clearFlags, float depth);

// ResolveSubresource: multisampled source, single-sampled destination of the same
// extent, formats of one family that the resolve format belongs to.
Check validateResolveSubresource(const ResourceShape& dst, uint32_t dstSubresource, const ResourceShape& src,
                                 uint32_t srcSubresource, DXGI_FORMAT format);

// GenerateMips on a view of `resource`: the resource needs GENERATE_MIPS.
Check validateGenerateMips(const ResourceShape& resource);

}  // namespace npt::validation
