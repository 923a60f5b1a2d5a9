// SPDX-License-Identifier: MIT
#include "npt/validation/context_calls.h"

namespace npt::validation {

uint32_t slotCount(SlotKind kind, const DeviceLimits& limits) {
  switch (kind) {
    case SlotKind::ShaderResource: return D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT;
    case SlotKind::Sampler: return D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT;
    case SlotKind::ConstantBuffer: return D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT;
    case SlotKind::VertexBuffer: return D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT;
    case SlotKind::StreamOutput: return D3D11_SO_BUFFER_SLOT_COUNT;
    case SlotKind::RenderTarget: return D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT;
    case SlotKind::UnorderedAccess: return limits.uavSlotCount;
    case SlotKind::Viewport:
    case SlotKind::ScissorRect: return D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE;
    case SlotKind::ClassInstance: return D3D11_SHADER_MAX_INTERFACES;
  }
  return 0;
}

static Rule ruleFor(SlotKind kind) {
  switch (kind) {
    case SlotKind::Viewport:
    case SlotKind::ScissorRect: return Rule::ViewportCount;
    case SlotKind::RenderTarget: return Rule::RenderTargetCount;
    case SlotKind::UnorderedAccess: return Rule::UavSlotRange;
    case SlotKind::StreamOutput: return Rule::StreamOutputCount;
    default: return Rule::SlotRange;
  }
}

Check validateSlotRange(SlotKind kind, uint32_t start, uint32_t count, const DeviceLimits& limits) {
  const uint64_t slots = slotCount(kind, limits);
  if (uint64_t(start) + count > slots || (start >= slots && count))
    return Check::reject(ruleFor(kind), "slots %u..%u outside the %llu slots", start, start + count,
                         (unsigned long long)slots);
  return Check::pass();
}

Check validateRenderTargetsAndUavs(uint32_t numRtvs, uint32_t uavStart, uint32_t numUavs, const DeviceLimits& limits) {
  NPT_CHECK(validateSlotRange(SlotKind::RenderTarget, 0, numRtvs, limits));
  if (numUavs == 0) return Check::pass();
  NPT_CHECK(validateSlotRange(SlotKind::UnorderedAccess, uavStart, numUavs, limits));
  if (uavStart < numRtvs)
    return Check::reject(Rule::UavSlotRange, "UAVStartSlot %u overlaps the %u render targets", uavStart, numRtvs);
  return Check::pass();
}

Check validateIndexBufferFormat(DXGI_FORMAT format) {
  if (format != DXGI_FORMAT_R16_UINT && format != DXGI_FORMAT_R32_UINT && format != DXGI_FORMAT_UNKNOWN)
    return Check::reject(Rule::IndexBufferFormat, "index buffer format %u is not R16_UINT or R32_UINT", unsigned(format));
  return Check::pass();
}

}  // namespace npt::validation
