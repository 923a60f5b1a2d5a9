// SPDX-License-Identifier: MIT
// Map, Unmap and UpdateSubresource. The wire form (protocol/README.md, overlay):
//  * Map (sync) is sent for maps that read or must observe the GPU. The host maps the
//    backend subresource, copies it out tightly packed (row pitch = the footprint's row
//    bytes, depth pitch = row pitch x rows) and unmaps the backend at once; the guest
//    keeps the bytes until its Unmap. The reply carries the bytes inline up to
//    maxInlineReplyBytes, beyond that in the context's reply area (bulk region 0) as a
//    bulk reference.
//  * Unmap carries the map type and the guest's bytes of a write map, tightly packed:
//    the whole subresource, or only the byte ranges the application wrote (the guest
//    watches its map memory's pages), or nothing (read maps). Write maps of DYNAMIC
//    resources are staged in the guest and reach the host only here: they are written
//    with the application's map type (WRITE_DISCARD or WRITE_NO_OVERWRITE, so appending
//    behind data the GPU still reads neither renames the buffer nor resends it). So are
//    write maps of STAGING subresources whose contents the guest already knew (no GPU
//    write since its last map): written with WRITE, the host never mapped them.
//  * DYNAMIC subresources under kMirroredDynamicBytes are mirrored (records.h): their
//    Unmaps may carry only the bytes that changed since the guest's previous Unmap, also
//    for WRITE_DISCARD (the whole mirror is then written to the renamed memory).
#include <algorithm>
#include <cstring>
#include <string>

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

// The ranges of a ranged Unmap: non-empty, in increasing order without overlap, inside
// the tightly packed subresource, and their sizes add up to the bytes received.
bool rangesFit(const NPT_BYTE_RANGE* ranges, UINT count, uint64_t subresourceBytes, size_t received,
               std::string& problem) {
  uint64_t end = 0, total = 0;
  for (UINT i = 0; i < count; i++) {
    const uint64_t offset = ranges[i].Offset, size = ranges[i].Size;
    if (size == 0 || offset < end || offset + size > subresourceBytes) {
      problem = "range " + std::to_string(i) + " (" + std::to_string(offset) + "+" + std::to_string(size) +
                ") is empty, overlaps the one before or leaves the subresource of " +
                std::to_string(subresourceBytes) + " bytes";
      return false;
    }
    end = offset + size;
    total += size;
  }
  if (total != received) {
    problem = std::to_string(received) + " bytes for ranges of " + std::to_string(total);
    return false;
  }
  return true;
}

// Writes `size` bytes at `offset` of the tight layout into the backend's mapping, whose
// pitches are its own: a range may start and end inside rows and cross slices.
void copyTightRange(uint8_t* target, const D3D11_MAPPED_SUBRESOURCE& backend, const TightLayout& layout,
                    uint64_t offset, uint64_t size, const uint8_t* source) {
  while (size) {
    const uint64_t row = offset / layout.rowBytes, column = offset % layout.rowBytes;
    const uint64_t chunk = std::min(size, layout.rowBytes - column);
    std::memcpy(target + (row / layout.rows) * backend.DepthPitch + (row % layout.rows) * backend.RowPitch + column,
                source, chunk);
    source += chunk;
    offset += chunk;
    size -= chunk;
  }
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

void Executor::ID3D11DeviceContext_Unmap(ObjectId self, ObjectId pResource, UINT Subresource, D3D11_MAP MapType,
                                         UINT NumRanges, const NPT_BYTE_RANGE* pRanges, const Payload& Data) {
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
  if (stagedInGuest) {
    // The guest mapped for writing without a round trip; check that map now, with the
    // type the application asked for.
    if (!admit(validation::validateMap(state->shape, Subresource, MapType, 0, false, device->limits), method))
      return;
  } else if (!admit(validation::validateUnmap(state->shape, Subresource, mappedOnHost), method)) {
    return;
  } else if (MapType != D3D11_MAP(state->mapped[Subresource])) {
    makeFatal(FatalCode::Validation, "Unmap: map type " + std::to_string(unsigned(MapType)) +
                                         " for a subresource mapped with type " +
                                         std::to_string(unsigned(state->mapped[Subresource])));
    return;
  }
  state->mapped[Subresource] = 0;
  if (!pRanges && NumRanges) {
    makeFatal(FatalCode::Validation, "Unmap: " + std::to_string(NumRanges) + " ranges announced, none sent");
    return;
  }
  if (Data.isNull) {   // a read map: nothing to write back
    if (NumRanges) makeFatal(FatalCode::Validation, "Unmap: ranges without bytes");
    return;
  }
  if (MapType == D3D11_MAP_READ) {
    makeFatal(FatalCode::Validation, "Unmap: bytes sent for a subresource mapped for reading");
    return;
  }
  TightLayout layout;
  const uint8_t* bytes = nullptr;
  size_t size = 0;
  if (!tightLayout(state->shape, Subresource, layout) || !payloadBytes(Data, m_payloadCopy, &bytes, &size, method))
    return;
  std::string rangeProblem;
  if (NumRanges == 0 ? size != layout.bytes() : !rangesFit(pRanges, NumRanges, layout.bytes(), size, rangeProblem)) {
    makeFatal(FatalCode::Validation,
              NumRanges == 0 ? "Unmap: " + std::to_string(size) + " bytes for a subresource of " +
                                   std::to_string(layout.bytes())
                             : "Unmap: " + rangeProblem);
    return;
  }
  // A mirrored DYNAMIC subresource (records.h) takes the bytes first: after WRITE_DISCARD
  // the whole mirror is written, so ranges that carry only changed bytes lose nothing.
  std::vector<uint8_t>* mirror = nullptr;
  if (dynamic && layout.bytes() < kMirroredDynamicBytes && Subresource < state->mirror.size()) {
    mirror = &state->mirror[Subresource];
    if (mirror->empty()) mirror->assign(size_t(layout.bytes()), 0);
    if (NumRanges == 0) {
      std::memcpy(mirror->data(), bytes, size);
    } else {
      const uint8_t* source = bytes;
      for (UINT i = 0; i < NumRanges; i++) {
        std::memcpy(mirror->data() + pRanges[i].Offset, source, pRanges[i].Size);
        source += pRanges[i].Size;
      }
    }
  }
  // DYNAMIC: the application's own map type (NO_OVERWRITE must not rename the buffer
  // that earlier draws still read). STAGING: plain WRITE keeps the contents the ranges
  // leave alone; a whole subresource replaces all of them.
  const D3D11_MAP backendType = dynamic ? MapType : D3D11_MAP_WRITE;
  D3D11_MAPPED_SUBRESOURCE backend = {};
  HRESULT hr = context->Map(resource, Subresource, backendType, 0, &backend);
  if (FAILED(hr)) {
    log("%s: the backend could not map subresource %u for writing (0x%08x)", method, Subresource, unsigned(hr));
    return;
  }
  auto* target = static_cast<uint8_t*>(backend.pData);
  if (mirror && MapType == D3D11_MAP_WRITE_DISCARD) {
    copyTightRange(target, backend, layout, 0, layout.bytes(), mirror->data());
  } else if (NumRanges == 0) {
    copyTightRange(target, backend, layout, 0, layout.bytes(), bytes);
  } else {
    for (UINT i = 0; i < NumRanges; i++) {
      copyTightRange(target, backend, layout, pRanges[i].Offset, pRanges[i].Size, bytes);
      bytes += pRanges[i].Size;
    }
  }
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
    // The flags are hints (see copyRegion): without ID3D11DeviceContext1 the plain update
    // (validation already refused what only 11.1 allows: partial constant updates).
    if (state->context1)
      state->context1->UpdateSubresource1(resource, subresource, box, bytes, rowPitch, depthPitch, copyFlags);
    else
      context->UpdateSubresource(resource, subresource, box, bytes, rowPitch, depthPitch);
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
