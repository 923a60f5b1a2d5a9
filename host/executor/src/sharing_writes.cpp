// SPDX-License-Identifier: MIT
// Which commands write which shared resources: a context publishes a shared
// resource only when it wrote it since it last published or refreshed it — its creator
// and its openers alike — and does not refresh a resource it wrote and has not published
// yet (the refresh would overwrite its own writes).
//
// The rule: the commands that write resources say what they write, in the executor
// function that runs them:
//   * draws: the render targets, depth-stencil view, output-merger UAVs and stream-output
//     buffers bound at the draw; dispatches: the compute UAVs bound at the dispatch. The
//     bindings are asked of the backend at the draw (it knows them exactly, whatever
//     ClearState, ExecuteCommandList or a KEEP_* argument did), and only for the binding
//     kinds a shared resource of this context could be bound as;
//   * clears, copies, UpdateSubresource(1), resolves, mip generation, discards and
//     CopyStructureCount: their destination. (Map cannot write a shared resource: sharing
//     requires DEFAULT usage without CPU access.)
// A draw's bound output does not count where the draw's state masks every write to it:
// render targets with a zero RenderTargetWriteMask, a depth-stencil view with neither
// depth writes (DepthEnable and DepthWriteMask ALL, a view that is not read-only depth)
// nor stencil writes (StencilEnable and a non-zero StencilWriteMask, a view that is not
// read-only stencil). Anything else bound counts as written even when no pixel reaches it
// (culled, clipped, discarded, failing the depth test), also without a pixel shader or
// with a zero sample mask, where D3D11 writes no colour but wined3d does (its GL
// fixed-function fallback; GL ignores the sample mask on single-sampled targets): an
// over-approximation that costs a copy, never a lost write.
//
// Deferred contexts write nothing until their command list runs: what their commands
// would write is recorded per deferred context (every resource, shared or not yet, since
// the creator may share one before it executes the list), handed to the command list at
// FinishCommandList and marked written when ExecuteCommandList runs it. A command list
// whose recording began before this context tracked anything (no fence or shared
// resource yet) marks every shared resource this context created as written.
//
// Nothing here runs until the context uses fences or sharing (m_sharing exists).
#include "npt/executor/executor.h"
#include "records.h"
#include "sharing_state.h"

namespace npt::executor {

using objects::InterfaceId;

namespace {

// D3D11 bound views hold references; the getters add one more per view.
template<typename View>
void forEachViewResource(View* const* views, UINT count, auto&& visit) {
  for (UINT i = 0; i < count; i++) {
    if (!views[i]) continue;
    ID3D11Resource* resource = nullptr;
    views[i]->GetResource(&resource);
    if (resource) {
      visit(resource);
      resource->Release();
    }
    views[i]->Release();
  }
}

// Releases and clears the bound outputs the draw's state masks (see the top).
void dropMaskedOutputs(ID3D11DeviceContext* context, ID3D11RenderTargetView** targets, ID3D11DepthStencilView** depth) {
  ID3D11BlendState* blend = nullptr;
  FLOAT factor[4];
  UINT sampleMask = ~0u;
  context->OMGetBlendState(&blend, factor, &sampleMask);
  D3D11_BLEND_DESC blendDesc{};
  if (blend) {
    blend->GetDesc(&blendDesc);
    blend->Release();
  }
  for (UINT i = 0; i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT; i++) {
    if (!targets[i]) continue;
    // No blend state: the default one, which writes every channel.
    const UINT8 writeMask = blend ? blendDesc.RenderTarget[blendDesc.IndependentBlendEnable ? i : 0].RenderTargetWriteMask
                                  : UINT8(D3D11_COLOR_WRITE_ENABLE_ALL);
    if (!writeMask) {
      targets[i]->Release();
      targets[i] = nullptr;
    }
  }
  if (!*depth) return;
  D3D11_DEPTH_STENCIL_VIEW_DESC viewDesc{};
  (*depth)->GetDesc(&viewDesc);
  ID3D11DepthStencilState* state = nullptr;
  UINT stencilRef = 0;
  context->OMGetDepthStencilState(&state, &stencilRef);
  // No state: the default one (depth test and writes on, stencil off).
  D3D11_DEPTH_STENCIL_DESC desc{};
  desc.DepthEnable = TRUE;
  desc.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL;
  if (state) {
    state->GetDesc(&desc);
    state->Release();
  }
  const bool depthWrites = desc.DepthEnable && desc.DepthWriteMask == D3D11_DEPTH_WRITE_MASK_ALL &&
                           !(viewDesc.Flags & D3D11_DSV_READ_ONLY_DEPTH);
  const bool stencilWrites = desc.StencilEnable && desc.StencilWriteMask && !(viewDesc.Flags & D3D11_DSV_READ_ONLY_STENCIL);
  if (!depthWrites && !stencilWrites) {
    (*depth)->Release();
    *depth = nullptr;
  }
}

}  // namespace

void Executor::markSharedWritten(ID3D11Resource* resource) {
  for (auto& [id, shared] : m_sharing->resources)
    if (shared->object == resource) shared->written = true;
}

DeferredRecord* Executor::deferredRecordOf(ObjectId self, ID3D11DeviceContext* context) {
  if (context->GetType() != D3D11_DEVICE_CONTEXT_DEFERRED) return nullptr;
  // First seen now: what it recorded before is unknown (complete stays false).
  return &m_sharing->deferredWrites[self];
}

void Executor::noteWrite(ObjectId self, ID3D11DeviceContext* context, ID3D11Resource* resource) {
  if (!m_sharing || !resource) return;
  if (DeferredRecord* record = deferredRecordOf(self, context)) {
    record->add(resource);
    return;
  }
  if (!m_sharing->resources.empty()) markSharedWritten(resource);
}

void Executor::noteViewWrite(ObjectId self, ID3D11DeviceContext* context, ID3D11View* view) {
  if (!m_sharing || !view) return;
  ID3D11Resource* resource = nullptr;
  view->GetResource(&resource);
  if (!resource) return;
  noteWrite(self, context, resource);
  resource->Release();
}

void Executor::noteBoundOutputWrites(ObjectId self, ID3D11DeviceContext* context, bool dispatch) {
  if (!m_sharing) return;
  SharingState& state = *m_sharing;
  DeferredRecord* record = deferredRecordOf(self, context);
  if (!record && state.resources.empty()) return;
  // A deferred context records every output; the immediate one looks only at the kinds
  // of binding its shared resources allow.
  const uint32_t bind = record ? ~0u : state.sharedBindFlags;
  auto visit = [&](ID3D11Resource* resource) {
    if (record)
      record->add(resource);
    else
      markSharedWritten(resource);
  };
  objects::ObjectInfo* info = nullptr;
  uint32_t uavSlots = D3D11_PS_CS_UAV_REGISTER_COUNT;
  if (m_table.lookup(self, InterfaceId::ID3D11DeviceContext, &info).ok() && info->extra)
    uavSlots = static_cast<Record*>(info->extra)->device->limits.uavSlotCount;
  if (uavSlots > D3D11_1_UAV_SLOT_COUNT) uavSlots = D3D11_1_UAV_SLOT_COUNT;
  ID3D11UnorderedAccessView* uavs[D3D11_1_UAV_SLOT_COUNT] = {};
  if (dispatch) {
    if (bind & D3D11_BIND_UNORDERED_ACCESS) {
      context->CSGetUnorderedAccessViews(0, uavSlots, uavs);
      forEachViewResource(uavs, uavSlots, visit);
    }
    return;
  }
  if (bind & (D3D11_BIND_RENDER_TARGET | D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_UNORDERED_ACCESS)) {
    ID3D11RenderTargetView* targets[D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT] = {};
    ID3D11DepthStencilView* depth = nullptr;
    const bool wantUavs = bind & D3D11_BIND_UNORDERED_ACCESS;
    context->OMGetRenderTargetsAndUnorderedAccessViews(D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT, targets, &depth, 0,
                                                       wantUavs ? uavSlots : 0, wantUavs ? uavs : nullptr);
    dropMaskedOutputs(context, targets, &depth);
    forEachViewResource(targets, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT, visit);
    forEachViewResource(&depth, 1, visit);
    if (wantUavs) forEachViewResource(uavs, uavSlots, visit);
  }
  if (bind & D3D11_BIND_STREAM_OUTPUT) {
    ID3D11Buffer* targets[D3D11_SO_BUFFER_SLOT_COUNT] = {};
    context->SOGetTargets(D3D11_SO_BUFFER_SLOT_COUNT, targets);
    for (ID3D11Buffer* buffer : targets)
      if (buffer) {
        visit(buffer);
        buffer->Release();
      }
  }
}

void Executor::noteDeferredContextCreated(ObjectId id) {
  // Without sharing state nothing is tracked yet: the context is first seen at its first
  // write after tracking begins, and what it recorded before is unknown.
  if (m_sharing) m_sharing->deferredWrites[id].complete = true;
}

void Executor::noteCommandListFinished(ObjectId self, ObjectId list) {
  if (!m_sharing) return;
  SharingState& state = *m_sharing;
  DeferredRecord finished;
  if (auto it = state.deferredWrites.find(self); it != state.deferredWrites.end()) {
    finished = std::move(it->second);
    it->second = DeferredRecord{};
  }
  // Seen only now: this recording may have begun before tracking did. The next one is known.
  state.deferredWrites[self].complete = true;
  state.deferredWrites[list] = std::move(finished);
}

void Executor::noteCommandListExecuted(ObjectId self, ID3D11DeviceContext* context, ObjectId list) {
  if (!m_sharing) return;
  SharingState& state = *m_sharing;
  auto it = state.deferredWrites.find(list);
  const bool known = it != state.deferredWrites.end() && it->second.complete;
  // A command list executed on a deferred context writes when that context's list runs.
  if (DeferredRecord* outer = deferredRecordOf(self, context)) {
    if (!known) outer->complete = false;
    if (it != state.deferredWrites.end())
      for (ID3D11Resource* resource : it->second.writes) outer->add(resource);
    return;
  }
  if (it != state.deferredWrites.end())
    for (ID3D11Resource* resource : it->second.writes) markSharedWritten(resource);
  if (!known)
    for (auto& [id, shared] : state.resources)
      if (shared->owner) shared->written = true;
}

void DeferredRecord::add(ID3D11Resource* resource) {
  for (ID3D11Resource* known : writes)
    if (known == resource) return;
  writes.push_back(resource);
}

}  // namespace npt::executor
