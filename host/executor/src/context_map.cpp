// Map, Unmap and UpdateSubresource. The wire form (protocol/README.md, overlay):
//  * Map (sync) is sent for maps that read or must observe the GPU. The host maps the
//    backend subresource, copies it out tightly packed (row pitch = the footprint's row
//    bytes, depth pitch = row pitch x rows) and unmaps the backend at once; the guest
//    keeps the bytes until its Unmap. The reply carries the bytes inline up to
//    maxInlineReplyBytes, beyond that in the context's reply area (bulk region 0) as a
//    bulk reference.
//  * Unmap carries the guest's bytes of a write map (tightly packed, the whole
//    subresource) or nothing (read maps). Write maps of DYNAMIC resources are staged in
//    the guest and reach the host only here: they are written with WRITE_DISCARD. So
//    are write maps of STAGING subresources whose contents the guest already knew (no
//    GPU write since its last map): written with WRITE, the host never mapped them.
#include <cstring>

#include "npt/executor/executor.h"
#include "npt/validation/context_calls.h"
#include "npt/validation/subresource.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;

namespace {

struct TightLayout {
  uint64_t rowBytes = 0;
  uint64_t rows = 0;
  uint64_t depth = 1;
  uint64_t bytes() const { return rowBytes * rows * depth; }
};

bool tightLayout(const validation::ResourceShape& shape, UINT subresource, TightLayout& out) {
  validation::SubresourceFootprint footprint;
  if (!validation::footprintOf(shape, subresource, footprint)) return false;
  out.rowBytes = footprint.rowBytes;
  out.rows = footprint.rows;
  out.depth = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? footprint.depth : 1;
  return true;
}

}  // namespace

HRESULT Executor::ID3D11DeviceContext_Map(ObjectId self, ObjectId pResource, UINT Subresource, D3D11_MAP MapType,
                                          UINT MapFlags, UINT* pRowPitch, UINT* pDepthPitch, Payload* pData) {
  const char* method = "Map";
  *pRowPitch = 0;
  *pDepthPitch = 0;
  *pData = Payload::none();
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  ID3D11Resource* resource = nullptr;
  Record* record = nullptr;
  if (!context) return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  if (!resolveAs(pResource, InterfaceId::ID3D11Resource, false, method, &resource, &record))
    return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : E_INVALIDARG;
  if (!sameDevice(record, device, pResource, method)) return DXGI_ERROR_DEVICE_REMOVED;
  auto* state = static_cast<ResourceState*>(record);
  const bool mapped = Subresource < state->mapped.size() && state->mapped[Subresource];
  validation::Check check = validation::validateMap(state->shape, Subresource, MapType, MapFlags, mapped, device->limits);
  if (!admit(check, method)) return isFatal() ? DXGI_ERROR_DEVICE_REMOVED : check.hr();
  TightLayout layout;
  if (!tightLayout(state->shape, Subresource, layout)) return E_INVALIDARG;

  D3D11_MAPPED_SUBRESOURCE backend = {};
  HRESULT hr = context->Map(resource, Subresource, MapType, MapFlags, &backend);
  if (FAILED(hr)) return hr;   // DXGI_ERROR_WAS_STILL_DRAWING with DO_NOT_WAIT, E_OUTOFMEMORY...
  // Copy out row by row: the backend's pitches are its own, the guest sees tight ones.
  const uint64_t total = layout.bytes();
  uint8_t* out = nullptr;
  if (total <= m_options.maxInlineReplyBytes) {
    m_mapReply.resize(total);
    out = m_mapReply.data();
    *pData = Payload::inlineBytes(m_mapReply.data(), uint32_t(total));
  } else {
    uint64_t areaSize = 0;
    uint32_t areaRegion = 0;
    uint8_t* area = nullptr;
    if (m_options.hooks.replyRegion) {
      area = m_options.hooks.replyRegion(total, &areaRegion);
      areaSize = area ? total : 0;
    } else if (m_options.hooks.replyArea) {
      area = m_options.hooks.replyArea(&areaSize);
    }
    if (!area || areaSize < total) {
      context->Unmap(resource, Subresource);
      log("%s: %llu bytes exceed the reply area (%llu bytes); returns E_OUTOFMEMORY", method,
          (unsigned long long)total, (unsigned long long)areaSize);
      return E_OUTOFMEMORY;
    }
    out = area;
    *pData = Payload::bulkRef(protocol::BulkRef{areaRegion, 0, uint32_t(total)});
  }
  const auto* source = static_cast<const uint8_t*>(backend.pData);
  for (uint64_t z = 0; z < layout.depth; z++)
    for (uint64_t row = 0; row < layout.rows; row++)
      std::memcpy(out + (z * layout.rows + row) * layout.rowBytes,
                  source + z * backend.DepthPitch + row * backend.RowPitch, layout.rowBytes);
  context->Unmap(resource, Subresource);
  state->mapped[Subresource] = uint8_t(MapType);
  *pRowPitch = UINT(layout.rowBytes);
  *pDepthPitch = UINT(layout.rowBytes * layout.rows);
  return S_OK;
}

void Executor::ID3D11DeviceContext_Unmap(ObjectId self, ObjectId pResource, UINT Subresource, const Payload& Data) {
  const char* method = "Unmap";
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device);
  ID3D11Resource* resource = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pResource, InterfaceId::ID3D11Resource, false, method, &resource, &record)) return;
  if (!sameDevice(record, device, pResource, method)) return;
  auto* state = static_cast<ResourceState*>(record);
  const bool mappedOnHost = Subresource < state->mapped.size() && state->mapped[Subresource];
  const bool dynamic = state->shape.usage == D3D11_USAGE_DYNAMIC;
  const bool stagedInGuest = !mappedOnHost && !Data.isNull && (dynamic || state->shape.usage == D3D11_USAGE_STAGING);
  const D3D11_MAP guestMapType = dynamic ? D3D11_MAP_WRITE_DISCARD : D3D11_MAP_WRITE;
  if (stagedInGuest) {
    // The guest mapped for writing without a round trip; check that map now.
    if (!admit(validation::validateMap(state->shape, Subresource, guestMapType, 0, false, device->limits), method))
      return;
  } else if (!admit(validation::validateUnmap(state->shape, Subresource, mappedOnHost), method)) {
    return;
  }
  const D3D11_MAP mapType = stagedInGuest ? guestMapType : D3D11_MAP(state->mapped[Subresource]);
  state->mapped[Subresource] = 0;
  if (Data.isNull) return;   // a read map: nothing to write back
  if (mapType == D3D11_MAP_READ) {
    makeFatal(FatalCode::Validation, "Unmap: bytes sent for a subresource mapped for reading");
    return;
  }
  TightLayout layout;
  const uint8_t* bytes = nullptr;
  size_t size = 0;
  if (!tightLayout(state->shape, Subresource, layout) || !payloadBytes(Data, m_payloadCopy, &bytes, &size, method))
    return;
  if (size != layout.bytes()) {
    makeFatal(FatalCode::Validation, "Unmap: " + std::to_string(size) + " bytes for a subresource of " +
                                         std::to_string(layout.bytes()));
    return;
  }
  // Write maps of staging resources keep the contents; the guest sends all of them.
  D3D11_MAP backendType = state->shape.usage == D3D11_USAGE_DYNAMIC ? D3D11_MAP_WRITE_DISCARD : D3D11_MAP_WRITE;
  D3D11_MAPPED_SUBRESOURCE backend = {};
  HRESULT hr = context->Map(resource, Subresource, backendType, 0, &backend);
  if (FAILED(hr)) {
    log("%s: the backend could not map subresource %u for writing (0x%08x)", method, Subresource, unsigned(hr));
    return;
  }
  auto* target = static_cast<uint8_t*>(backend.pData);
  for (uint64_t z = 0; z < layout.depth; z++)
    for (uint64_t row = 0; row < layout.rows; row++)
      std::memcpy(target + z * backend.DepthPitch + row * backend.RowPitch,
                  bytes + (z * layout.rows + row) * layout.rowBytes, layout.rowBytes);
  context->Unmap(resource, Subresource);
}

void Executor::updateSubresource(const char* method, ObjectId self, ObjectId pDst, UINT subresource,
                                 const D3D11_BOX* box, const Payload& data, UINT rowPitch, UINT depthPitch,
                                 UINT copyFlags, bool version1) {
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device, &state);
  ID3D11Resource* resource = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pDst, InterfaceId::ID3D11Resource, false, method, &resource, &record)) return;
  if (!sameDevice(record, device, pDst, method)) return;
  const uint8_t* bytes = nullptr;
  size_t size = 0;
  if (!payloadBytes(data, m_payloadCopy, &bytes, &size, method)) return;
  validation::UpdateSubresourceArgs args;
  args.subresource = subresource;
  args.box = box;
  args.rowPitch = rowPitch;
  args.depthPitch = depthPitch;
  args.size = size;
  args.partialConstantUpdate = version1 && state->context1 && device->featureLevel >= D3D_FEATURE_LEVEL_11_1;
  if (!admit(validation::validateUpdateSubresource(static_cast<ResourceState*>(record)->shape, args), method)) return;
  if (!bytes) return drop(method, "no source data");
  if (version1) {
    if (copyFlags & ~UINT(D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD))
      return drop(method, "unknown copy flags 0x%x", copyFlags);
    if (!state->context1) return notImplemented(method);
    state->context1->UpdateSubresource1(resource, subresource, box, bytes, rowPitch, depthPitch, copyFlags);
  } else {
    context->UpdateSubresource(resource, subresource, box, bytes, rowPitch, depthPitch);
  }
  noteWrite(self, context, resource);
}

void Executor::ID3D11DeviceContext_UpdateSubresource(ObjectId self, ObjectId pDstResource, UINT DstSubresource,
                                                     const D3D11_BOX* pDstBox, const Payload& pSrcData,
                                                     UINT SrcRowPitch, UINT SrcDepthPitch) {
  updateSubresource("UpdateSubresource", self, pDstResource, DstSubresource, pDstBox, pSrcData, SrcRowPitch,
                    SrcDepthPitch, 0, false);
}

void Executor::ID3D11DeviceContext1_UpdateSubresource1(ObjectId self, ObjectId pDstResource, UINT DstSubresource,
                                                       const D3D11_BOX* pDstBox, const Payload& pSrcData,
                                                       UINT SrcRowPitch, UINT SrcDepthPitch, UINT CopyFlags) {
  updateSubresource("UpdateSubresource1", self, pDstResource, DstSubresource, pDstBox, pSrcData, SrcRowPitch,
                    SrcDepthPitch, CopyFlags, true);
}

}  // namespace npt::executor
