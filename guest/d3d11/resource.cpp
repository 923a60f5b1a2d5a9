// SPDX-License-Identifier: MIT
#include "resource.h"

#include <cstring>

#include "buffer.h"
#include "texture.h"

namespace npt::guest {

SubresourceFootprint ResourceInfo::footprintOf(UINT subresource) const {
  if (dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
    SubresourceFootprint f;
    f.rowPitch = width;
    f.rows = 1;
    f.depthPitch = width;
    f.depth = 1;
    return f;
  }
  return footprint(format, widthOf(subresource), heightOf(subresource), depthOf(subresource));
}

MapMemory& ResourceState::shadow(UINT subresource) {
  MapMemory& m = m_maps[subresource];
  if (m.bytes.empty()) {
    SubresourceFootprint f = m_info.footprintOf(subresource);
    const bool watch = f.size() >= MapBytes::kWatchFromBytes;
    m.bytes.allocate(size_t(f.size()), watch);
    m.rowPitch = f.rowPitch;
    m.depthPitch = f.depthPitch;
  }
  return m;
}

void ResourceState::setInitialShadow(UINT subresource, const uint8_t* data, UINT rowPitch, UINT depthPitch) {
  MapMemory& m = shadow(subresource);
  SubresourceFootprint f = m_info.footprintOf(subresource);
  copyRows(m.bytes.data(), f.rowPitch, f.depthPitch, data, rowPitch, depthPitch, f.rowPitch, f.rows, f.depth);
}

ResourceState* resourceState(ID3D11Resource* resource) {
  if (!resource)
    return nullptr;
  D3D11_RESOURCE_DIMENSION dimension;
  resource->GetType(&dimension);
  switch (dimension) {
    case D3D11_RESOURCE_DIMENSION_BUFFER:    return &static_cast<Buffer*>(resource)->state();
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: return &static_cast<Texture1D*>(resource)->state();
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: return &static_cast<Texture2D*>(static_cast<ID3D11Texture2D*>(resource))->state();
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D: return &static_cast<Texture3D*>(static_cast<ID3D11Texture3D*>(resource))->state();
    default:                                 return nullptr;
  }
}

protocol::ObjectId resourceId(ID3D11Resource* resource) {
  if (!resource)
    return 0;
  D3D11_RESOURCE_DIMENSION dimension;
  resource->GetType(&dimension);
  switch (dimension) {
    case D3D11_RESOURCE_DIMENSION_BUFFER:    return static_cast<Buffer*>(resource)->objectId();
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: return static_cast<Texture1D*>(resource)->objectId();
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: return static_cast<Texture2D*>(static_cast<ID3D11Texture2D*>(resource))->objectId();
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D: return static_cast<Texture3D*>(static_cast<ID3D11Texture3D*>(resource))->objectId();
    default:                                 return 0;
  }
}

namespace {

template<typename Action>
void withResourceObject(ID3D11Resource* resource, Action&& action) {
  D3D11_RESOURCE_DIMENSION dimension;
  resource->GetType(&dimension);
  switch (dimension) {
    case D3D11_RESOURCE_DIMENSION_BUFFER:    action(static_cast<Buffer*>(resource)); break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: action(static_cast<Texture1D*>(resource)); break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: action(static_cast<Texture2D*>(resource)); break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D: action(static_cast<Texture3D*>(resource)); break;
    default: break;
  }
}

}

ResourceRef::ResourceRef(ID3D11Resource* resource) : m_resource(resource) {
  if (m_resource)
    withResourceObject(m_resource, [](auto* object) { object->addRefPrivate(); });
}

ResourceRef::~ResourceRef() {
  if (m_resource)
    withResourceObject(m_resource, [](auto* object) { object->releasePrivate(); });
}

bool stageInitialData(Recorder& r, const ResourceInfo& info, const D3D11_SUBRESOURCE_DATA* data,
                      std::vector<NPT_SUBRESOURCE_DATA>& out) {
  out.clear();
  if (!data)
    return true;
  UINT count = info.subresourceCount();
  uint64_t total = 0;
  for (UINT i = 0; i < count; i++) {
    SubresourceFootprint f = info.footprintOf(i);
    total += (f.size() + 63) & ~uint64_t(63);
  }
  if (total > UINT32_MAX)
    return false;
  protocol::BulkRef ref;
  uint8_t* dst = nullptr;
  if (!r.bulk(size_t(total), &ref, &dst))
    return false;
  uint32_t offset = 0;
  for (UINT i = 0; i < count; i++) {
    SubresourceFootprint f = info.footprintOf(i);
    // Rows are repacked tightly: the host reads exactly the footprint it computes.
    copyRows(dst + offset, f.rowPitch, f.depthPitch, static_cast<const uint8_t*>(data[i].pSysMem),
             info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER ? f.rowPitch : data[i].SysMemPitch,
             info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? data[i].SysMemSlicePitch : f.depthPitch,
             f.rowPitch, f.rows, f.depth);
    NPT_SUBRESOURCE_DATA d = {};
    d.Data.Region = ref.region;
    d.Data.Offset = ref.offset + offset;
    d.Data.Size = uint32_t(f.size());
    d.RowPitch = f.rowPitch;
    d.SlicePitch = f.depthPitch;
    out.push_back(d);
    offset += uint32_t((f.size() + 63) & ~uint64_t(63));
  }
  return true;
}

void ResourceState::forgetContents() {
  if (m_info.usage != D3D11_USAGE_STAGING && m_info.usage != D3D11_USAGE_DYNAMIC)
    return;
  std::lock_guard<std::mutex> lock(m_mutex);
  for (MapMemory& memory : m_maps)
    memory.contentsKnown = false;
}

}
