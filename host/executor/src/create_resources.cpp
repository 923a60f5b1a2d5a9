// SPDX-License-Identifier: MIT
// Buffers and textures: desc validation, initial data copied out of bulk memory and
// checked against each subresource's footprint, then the backend's Create*.
#include <cstring>

#include "npt/executor/executor.h"
#include "npt/validation/subresource.h"
#include "records.h"
#include "sharing_state.h"

namespace npt::executor {

namespace {

// The mirrors of small DYNAMIC subresources start as the guest's map memory does: with
// the initial data, tightly packed (records.h).
void mirrorInitialData(ResourceState& record, const std::vector<D3D11_SUBRESOURCE_DATA>& data) {
  record.mirror.resize(record.shape.subresourceCount());
  for (size_t sub = 0; sub < data.size() && sub < record.mirror.size(); sub++) {
    validation::SubresourceFootprint footprint;
    if (!data[sub].pSysMem || !validation::footprintOf(record.shape, UINT(sub), footprint)) continue;
    const uint64_t depth = record.shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? footprint.depth : 1;
    const uint64_t bytes = footprint.rowBytes * footprint.rows * depth;
    if (bytes == 0 || bytes >= kMirroredDynamicBytes) continue;
    std::vector<uint8_t>& mirror = record.mirror[sub];
    mirror.resize(bytes);
    const auto* source = static_cast<const uint8_t*>(data[sub].pSysMem);
    for (uint64_t slice = 0; slice < depth; slice++)
      for (uint64_t row = 0; row < footprint.rows; row++)
        std::memcpy(mirror.data() + (slice * footprint.rows + row) * footprint.rowBytes,
                    source + slice * data[sub].SysMemSlicePitch + row * data[sub].SysMemPitch, footprint.rowBytes);
  }
}

}  // namespace

using objects::InterfaceId;
using objects::ObjectType;

void Executor::createResource(const char* method, ObjectId self, ObjectType type, const validation::ResourceShape& shape,
                              const DescCheck& descCheck, UINT numInitialData,
                              const NPT_SUBRESOURCE_DATA* initialData, ObjectId id,
                              const std::function<HRESULT(ID3D11Device*, const D3D11_SUBRESOURCE_DATA*, IUnknown**)>& create) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) {
    if (!isFatal()) insertFailed(id, type, nullptr);
    return;
  }
  DeviceState* device = owner.get();
  if (!admit(descCheck(device->limits), method)) {
    if (!isFatal()) insertFailed(id, type, owner);
    return;
  }
  // Initial data: every subresource's bytes are copied out of shared memory once and
  // the footprint check runs on the sizes the host received.
  std::vector<D3D11_SUBRESOURCE_DATA> data;
  std::vector<std::vector<uint8_t>> copies;
  if (initialData) {
    std::vector<validation::SubresourceData> entries(numInitialData);
    for (UINT i = 0; i < numInitialData; i++) {
      entries[i].present = initialData[i].Data.Size != 0;
      entries[i].rowPitch = initialData[i].RowPitch;
      entries[i].slicePitch = initialData[i].SlicePitch;
      entries[i].size = initialData[i].Data.Size;
    }
    if (!admit(validation::validateInitialData(shape, entries.data(), entries.size()), method)) {
      if (!isFatal()) insertFailed(id, type, owner);
      return;
    }
    copies.resize(numInitialData);
    data.resize(numInitialData);
    for (UINT i = 0; i < numInitialData; i++) {
      protocol::BulkRef ref{initialData[i].Data.Region, initialData[i].Data.Offset, initialData[i].Data.Size};
      const uint8_t* bytes = nullptr;
      size_t size = 0;
      if (!payloadBytes(Payload::bulkRef(ref), copies[i], &bytes, &size, method)) return;
      data[i].pSysMem = bytes;
      data[i].SysMemPitch = initialData[i].RowPitch;
      data[i].SysMemSlicePitch = initialData[i].SlicePitch;
    }
  } else if (shape.usage == D3D11_USAGE_IMMUTABLE) {
    // validate*Desc saw hasInitialData; nothing more to check here.
  }

  uint64_t bytes = shape.width;
  if (!shape.isBuffer() && !validation::textureByteSize(shape, bytes)) bytes = 0;
  IUnknown* object = nullptr;
  HRESULT hr = create(device->device, data.empty() ? nullptr : data.data(), &object);
  if (FAILED(hr) || !object) {
    // The guest already returned S_OK (fire-and-forget); later uses of the id are dropped.
    log("%s: the backend refused (0x%08x); object %u has no backend counterpart", method, unsigned(hr), id);
    insertFailed(id, type, owner);
    return;
  }
  auto record = std::make_unique<ResourceState>();
  record->shape = shape;
  record->mapped.assign(shape.subresourceCount(), 0);
  if (shape.usage == D3D11_USAGE_DYNAMIC) mirrorInitialData(*record, data);
  insert(id, type, object, owner, bytes, std::move(record));
}

void Executor::ID3D11Device_CreateBuffer(ObjectId self, const D3D11_BUFFER_DESC* pDesc, UINT NumInitialData,
                                         const NPT_SUBRESOURCE_DATA* pInitialData, ObjectId ppBuffer) {
  createResource("CreateBuffer", self, ObjectType::Buffer, validation::shapeOf(*pDesc),
                 [&](const validation::DeviceLimits& limits) { return validation::validateBufferDesc(*pDesc, pInitialData != nullptr, limits); }, NumInitialData, pInitialData,
                 ppBuffer, [&](ID3D11Device* d, const D3D11_SUBRESOURCE_DATA* data, IUnknown** out) {
                   ID3D11Buffer* buffer = nullptr;
                   D3D11_BUFFER_DESC desc = *pDesc;
                   desc.MiscFlags &= ~kSharedMiscFlags;   // sharing is emulated (sharing.cpp)
                   HRESULT hr = d->CreateBuffer(&desc, data, &buffer);
                   *out = buffer;
                   return hr;
                 });
}

void Executor::ID3D11Device_CreateTexture1D(ObjectId self, const D3D11_TEXTURE1D_DESC* pDesc, UINT NumInitialData,
                                            const NPT_SUBRESOURCE_DATA* pInitialData, ObjectId ppTexture1D) {
  createResource("CreateTexture1D", self, ObjectType::Texture1D, validation::shapeOf(*pDesc),
                 [&](const validation::DeviceLimits& limits) { return validation::validateTexture1DDesc(*pDesc, pInitialData != nullptr, limits); }, NumInitialData,
                 pInitialData, ppTexture1D, [&](ID3D11Device* d, const D3D11_SUBRESOURCE_DATA* data, IUnknown** out) {
                   ID3D11Texture1D* texture = nullptr;
                   HRESULT hr = d->CreateTexture1D(pDesc, data, &texture);
                   *out = texture;
                   return hr;
                 });
}

namespace {

// The fixed sample patterns (D3D11_STANDARD_MULTISAMPLE_PATTERN, D3D11_CENTER_MULTISAMPLE_PATTERN)
// are valid wherever the format has quality levels for the count, but a backend may refuse
// them (Wine 8's wined3d does). It then gets quality 0 of the same count, what hardware with
// only the standard pattern documents as equivalent; the guest still sees its quality.
HRESULT createTexture2DOnBackend(ID3D11Device* device, D3D11_TEXTURE2D_DESC desc, const D3D11_SUBRESOURCE_DATA* data,
                                 ID3D11Texture2D** texture, bool* patternReplaced) {
  *patternReplaced = false;
  HRESULT hr = device->CreateTexture2D(&desc, data, texture);
  const bool fixedPattern = desc.SampleDesc.Quality == UINT(D3D11_STANDARD_MULTISAMPLE_PATTERN) ||
                            desc.SampleDesc.Quality == UINT(D3D11_CENTER_MULTISAMPLE_PATTERN);
  if (SUCCEEDED(hr) || !fixedPattern) return hr;
  desc.SampleDesc.Quality = 0;
  *patternReplaced = true;
  return device->CreateTexture2D(&desc, data, texture);
}

}  // namespace

void Executor::ID3D11Device_CreateTexture2D(ObjectId self, const D3D11_TEXTURE2D_DESC* pDesc, UINT NumInitialData,
                                            const NPT_SUBRESOURCE_DATA* pInitialData, ObjectId ppTexture2D) {
  createResource("CreateTexture2D", self, ObjectType::Texture2D, validation::shapeOf(*pDesc),
                 [&](const validation::DeviceLimits& limits) { return validation::validateTexture2DDesc(*pDesc, pInitialData != nullptr, limits); }, NumInitialData,
                 pInitialData, ppTexture2D, [&](ID3D11Device* d, const D3D11_SUBRESOURCE_DATA* data, IUnknown** out) {
                   ID3D11Texture2D* texture = nullptr;
                   D3D11_TEXTURE2D_DESC desc = *pDesc;
                   desc.MiscFlags &= ~kSharedMiscFlags;   // sharing is emulated (sharing.cpp)
                   bool replaced = false;
                   HRESULT hr = createTexture2DOnBackend(d, desc, data, &texture, &replaced);
                   if (replaced && SUCCEEDED(hr))
                     log("CreateTexture2D: the backend refuses fixed sample pattern 0x%08x; object %u has quality 0",
                         desc.SampleDesc.Quality, ppTexture2D);
                   *out = texture;
                   return hr;
                 });
}

void Executor::ID3D11Device_CreateTexture3D(ObjectId self, const D3D11_TEXTURE3D_DESC* pDesc, UINT NumInitialData,
                                            const NPT_SUBRESOURCE_DATA* pInitialData, ObjectId ppTexture3D) {
  createResource("CreateTexture3D", self, ObjectType::Texture3D, validation::shapeOf(*pDesc),
                 [&](const validation::DeviceLimits& limits) { return validation::validateTexture3DDesc(*pDesc, pInitialData != nullptr, limits); }, NumInitialData,
                 pInitialData, ppTexture3D, [&](ID3D11Device* d, const D3D11_SUBRESOURCE_DATA* data, IUnknown** out) {
                   ID3D11Texture3D* texture = nullptr;
                   HRESULT hr = d->CreateTexture3D(pDesc, data, &texture);
                   *out = texture;
                   return hr;
                 });
}

namespace {

// The 11.3 descs add a texture layout; only the driver-chosen (UNDEFINED) layout is
// supported here, with the 11.0 rules for everything else.
validation::Check layoutCheck(D3D11_TEXTURE_LAYOUT layout) {
  if (layout == D3D11_TEXTURE_LAYOUT_UNDEFINED) return validation::Check::pass();
  return validation::Check::reject(validation::Rule::TextureMiscFlags,
                                   "texture layout %u (only D3D11_TEXTURE_LAYOUT_UNDEFINED is supported)",
                                   unsigned(layout));
}

}  // namespace

void Executor::ID3D11Device3_CreateTexture2D1(ObjectId self, const D3D11_TEXTURE2D_DESC1* desc, UINT NumInitialData,
                                              const NPT_SUBRESOURCE_DATA* initial_data, ObjectId texture) {
  D3D11_TEXTURE2D_DESC base = {desc->Width, desc->Height, desc->MipLevels, desc->ArraySize, desc->Format,
                               desc->SampleDesc, desc->Usage, desc->BindFlags, desc->CPUAccessFlags, desc->MiscFlags};
  createResource(
      "CreateTexture2D1", self, ObjectType::Texture2D, validation::shapeOf(base),
      [&](const validation::DeviceLimits& limits) {
        validation::Check layout = layoutCheck(desc->TextureLayout);
        return layout.passed() ? validation::validateTexture2DDesc(base, initial_data != nullptr, limits) : layout;
      },
      NumInitialData, initial_data, texture,
      [&](ID3D11Device* d, const D3D11_SUBRESOURCE_DATA* data, IUnknown** out) {
        ID3D11Texture2D* created = nullptr;
        bool replaced = false;
        HRESULT hr = createTexture2DOnBackend(d, base, data, &created, &replaced);
        if (replaced && SUCCEEDED(hr))
          log("CreateTexture2D1: the backend refuses fixed sample pattern 0x%08x; object %u has quality 0",
              base.SampleDesc.Quality, texture);
        *out = created;
        return hr;
      });
}

void Executor::ID3D11Device3_CreateTexture3D1(ObjectId self, const D3D11_TEXTURE3D_DESC1* desc, UINT NumInitialData,
                                              const NPT_SUBRESOURCE_DATA* initial_data, ObjectId texture) {
  D3D11_TEXTURE3D_DESC base = {desc->Width, desc->Height, desc->Depth, desc->MipLevels, desc->Format, desc->Usage,
                               desc->BindFlags, desc->CPUAccessFlags, desc->MiscFlags};
  createResource(
      "CreateTexture3D1", self, ObjectType::Texture3D, validation::shapeOf(base),
      [&](const validation::DeviceLimits& limits) {
        validation::Check layout = layoutCheck(desc->TextureLayout);
        return layout.passed() ? validation::validateTexture3DDesc(base, initial_data != nullptr, limits) : layout;
      },
      NumInitialData, initial_data, texture,
      [&](ID3D11Device* d, const D3D11_SUBRESOURCE_DATA* data, IUnknown** out) {
        ID3D11Texture3D* created = nullptr;
        HRESULT hr = d->CreateTexture3D(&base, data, &created);
        *out = created;
        return hr;
      });
}

void Executor::ID3D11Resource_SetEvictionPriority(ObjectId self, UINT EvictionPriority) {
  ID3D11Resource* resource = nullptr;
  if (!resolveAs(self, InterfaceId::ID3D11Resource, false, "SetEvictionPriority", &resource)) return;
  resource->SetEvictionPriority(EvictionPriority);
}

}  // namespace npt::executor
