// SPDX-License-Identifier: MIT
#include "shared_resource.h"

#include "buffer.h"
#include "device.h"
#include "log.h"
#include "resource.h"
#include "shared_handle.h"
#include "texture.h"

namespace npt::guest {

namespace {

constexpr UINT64 kKindBuffer = 1;
constexpr UINT64 kKindTexture2D = 3;
constexpr HRESULT kWaitTimeout = HRESULT(0x00000102);   // WAIT_TIMEOUT
constexpr DWORD kAcquireSliceMs = 100;                   // one host wait, at most (the host caps it too)

// The Neptune device of one of our resources, referenced.
Device* deviceOf(ID3D11Resource* resource) {
  ID3D11Device* device = nullptr;
  resource->GetDevice(&device);
  return device ? static_cast<Device*>(static_cast<ID3D11Device5*>(device)) : nullptr;
}

HRESULT finish(HRESULT transport, protocol::ErrorCode decoded, HRESULT result, const char* method) {
  if (FAILED(transport))
    return transport;
  if (decoded != protocol::ErrorCode::Ok) {
    NPT_ERROR("malformed %s reply from the host (%s)", method, protocol::errorName(decoded));
    return E_FAIL;
  }
  return result;
}

}  // namespace

HRESULT callSyncGetSharedHandle(ID3D11Resource* resource, UINT64* handle) {
  Device* device = deviceOf(resource);
  if (!device)
    return E_INVALIDARG;
  protocol::ObjectId id = resourceId(resource);
  HRESULT result = E_FAIL;
  protocol::ErrorCode decoded = protocol::ErrorCode::Truncated;
  HRESULT hr = device->runtime()->stream().callSync(device->statistics(),
    [&](Recorder& r) { return protocol::encode_IDXGIResource_GetSharedHandle(r.writer(), id); },
    [&](const uint8_t* reply, size_t size) {
      decoded = protocol::decodeReply_IDXGIResource_GetSharedHandle(reply, size, &result, handle);
    });
  device->asDevice()->Release();
  return finish(hr, decoded, result, "GetSharedHandle");
}

HRESULT callSyncCreateSharedHandle(ID3D11Resource* resource, DWORD access, UINT64* handle) {
  Device* device = deviceOf(resource);
  if (!device)
    return E_INVALIDARG;
  protocol::ObjectId id = resourceId(resource);
  HRESULT result = E_FAIL;
  protocol::ErrorCode decoded = protocol::ErrorCode::Truncated;
  HRESULT hr = device->runtime()->stream().callSync(device->statistics(),
    [&](Recorder& r) { return protocol::encode_IDXGIResource1_CreateSharedHandle(r.writer(), id, access, nullptr); },
    [&](const uint8_t* reply, size_t size) {
      decoded = protocol::decodeReply_IDXGIResource1_CreateSharedHandle(reply, size, &result, handle);
    });
  device->asDevice()->Release();
  return finish(hr, decoded, result, "IDXGIResource1::CreateSharedHandle");
}

namespace {

// Private references on `resource` (and its device, taken by the caller), dropped by `release`.
std::function<void()> addRefPrivate(ID3D11Resource* resource) {
  D3D11_RESOURCE_DIMENSION dimension;
  resource->GetType(&dimension);
  if (dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
    auto* buffer = static_cast<Buffer*>(resource);
    buffer->addRefPrivate();
    return [buffer] { buffer->releasePrivate(); };
  }
  auto* texture = static_cast<Texture2D*>(static_cast<ID3D11Texture2D*>(resource));
  texture->addRefPrivate();
  return [texture] { texture->releasePrivate(); };
}

}  // namespace

HRESULT createResourceNtHandle(ID3D11Resource* resource, UINT64 registryValue, const SECURITY_ATTRIBUTES* attributes,
                               DWORD access, LPCWSTR name, HANDLE* handle) {
  Device* device = deviceOf(resource);
  if (!device)
    return E_INVALIDARG;
  // Private references: the application's counts stay as Windows reports them.
  std::function<void()> release = addRefPrivate(resource);
  device->addRefPrivate();
  KeepCallbacks keep = keeperCallbacks(device, resourceId(resource), std::move(release));
  HRESULT hr = createSharedHandle(registryValue, attributes, access, name, keep, handle);
  if (FAILED(hr)) {
    keep.closed();   // the host counted the object this call did not make
    keep.release();
  }
  device->asDevice()->Release();
  return hr;
}

HRESULT callSyncAcquireKeyedMutex(ID3D11Resource* resource, UINT64 key, DWORD milliseconds) {
  Device* device = deviceOf(resource);
  if (!device)
    return E_INVALIDARG;
  protocol::ObjectId id = resourceId(resource);
  const ULONGLONG start = GetTickCount64();
  HRESULT result = E_FAIL;
  for (;;) {
    const ULONGLONG elapsed = GetTickCount64() - start;
    DWORD slice = kAcquireSliceMs;
    if (milliseconds != INFINITE)
      slice = elapsed >= milliseconds ? 0 : DWORD(milliseconds - elapsed) < slice ? DWORD(milliseconds - elapsed) : slice;
    protocol::ErrorCode decoded = protocol::ErrorCode::Truncated;
    HRESULT hr = device->runtime()->stream().callSync(device->statistics(),
      [&](Recorder& r) { return protocol::encode_IDXGIKeyedMutex_AcquireSync(r.writer(), id, key, slice); },
      [&](const uint8_t* reply, size_t size) { decoded = protocol::decodeReply_IDXGIKeyedMutex_AcquireSync(reply, size, &result); });
    result = finish(hr, decoded, result, "AcquireSync");
    if (result != kWaitTimeout || (milliseconds != INFINITE && GetTickCount64() - start >= milliseconds))
      break;
  }
  device->asDevice()->Release();
  return result;
}

HRESULT recordReleaseKeyedMutex(ID3D11Resource* resource, UINT64 key) {
  Device* device = deviceOf(resource);
  if (!device)
    return E_INVALIDARG;
  protocol::ObjectId id = resourceId(resource);
  HRESULT hr = device->record([&](Recorder& r) { return protocol::encode_IDXGIKeyedMutex_ReleaseSync(r.writer(), id, key); });
  // The next owner may be another process: it must see this release without waiting
  // for the batch to fill.
  if (SUCCEEDED(hr))
    hr = device->runtime()->stream().flush();
  device->asDevice()->Release();
  return hr;
}

namespace {

HRESULT openRegistryValue(Device* device, UINT64 value, bool ntOpen, REFIID iid, void** out) {
  const UINT64 kind = value & 0xf;
  if (!value || (kind != kKindBuffer && kind != kKindTexture2D))
    return E_INVALIDARG;
  Runtime* runtime = device->runtime();
  protocol::ObjectId id = runtime->allocateId();
  if (!id)
    return E_OUTOFMEMORY;
  const GUID& created = kind == kKindBuffer ? __uuidof(ID3D11Buffer) : __uuidof(ID3D11Texture2D);
  HRESULT result = E_FAIL;
  D3D11_TEXTURE2D_DESC textureDesc{};
  D3D11_BUFFER_DESC bufferDesc{};
  protocol::ErrorCode decoded = protocol::ErrorCode::Truncated;
  HRESULT hr = runtime->stream().callSync(device->statistics(),
    [&](Recorder& r) {
      return protocol::encode_ID3D11Device_OpenSharedResource(r.writer(), device->objectId(), value, ntOpen ? 1 : 0, created, id);
    },
    [&](const uint8_t* reply, size_t size) {
      decoded = protocol::decodeReply_ID3D11Device_OpenSharedResource(reply, size, &result, &textureDesc, &bufferDesc);
    });
  hr = finish(hr, decoded, result, "OpenSharedResource");
  if (FAILED(hr)) {
    // The host registered the id (without an object) once it saw the command.
    runtime->destroyObject(device->statistics(), id);
    return hr;
  }
  ID3D11Resource* resource = nullptr;
  if (kind == kKindBuffer) {
    resource = new Buffer(device, id, bufferDesc);
  } else {
    D3D11_TEXTURE2D_DESC1 desc1{};
    std::memcpy(&desc1, &textureDesc, sizeof(textureDesc));
    desc1.TextureLayout = D3D11_TEXTURE_LAYOUT_UNDEFINED;
    resource = static_cast<ID3D11Texture2D1*>(new Texture2D(device, id, desc1, false));
  }
  // The first public reference is the application's, in the interface it asked for.
  hr = resource->QueryInterface(iid, out);
  if (FAILED(hr)) {
    resource->AddRef();
    resource->Release();   // destroys the object (and its host id)
  }
  return hr;
}

}  // namespace

HRESULT openSharedResource(Device* device, HANDLE handle, bool ntOpen, REFIID iid, void** out) {
  if (!out)
    return E_INVALIDARG;
  *out = nullptr;
  // OpenSharedResource1 takes NT handles only: a registry value passed as one is no
  // handle of this process and resolves to nothing (E_INVALIDARG, as on Windows).
  const UINT64 value = ntOpen ? registryValueOfSharedHandle(handle) : UINT64(uintptr_t(handle));
  HRESULT hr = openRegistryValue(device, value, ntOpen, iid, out);
  if (SUCCEEDED(hr) && ntOpen) {
    // This process keeps the resource too while applications hold handles to the object,
    // so that the entry outlives the creator's process (shared_handle.h).
    ID3D11Resource* opened = nullptr;
    if (SUCCEEDED(static_cast<IUnknown*>(*out)->QueryInterface(__uuidof(ID3D11Resource), reinterpret_cast<void**>(&opened)))) {
      std::function<void()> release = addRefPrivate(opened);
      device->addRefPrivate();
      KeepCallbacks keep = keeperCallbacks(device, resourceId(opened), std::move(release));
      if (!keepOpenedSharedHandle(handle, keep))
        keep.release();
      opened->Release();
    }
  }
  return hr;
}

HRESULT openSharedResourceByName(Device* device, LPCWSTR name, DWORD access, REFIID iid, void** out) {
  if (!out)
    return E_INVALIDARG;
  *out = nullptr;
  if (!name)
    return E_INVALIDARG;
  uint64_t value = 0;
  HANDLE object = nullptr;
  HRESULT hr = openSharedName(name, access, &value, &object);
  if (FAILED(hr))
    return hr;
  const UINT64 kind = value & 0xf;
  if (kind != kKindBuffer && kind != kKindTexture2D) {
    CloseHandle(object);
    return E_INVALIDARG;   // the name of a fence's handle
  }
  hr = openRegistryValue(device, value, true, iid, out);
  CloseHandle(object);
  // The host no longer holds the entry: a keeper saw the applications' last handle closed
  // just before this lookup opened the object (and marked it closed just after this
  // lookup read it), as good as not found.
  return hr == E_INVALIDARG ? HRESULT(0x80070002) : hr;
}

KeepCallbacks keeperCallbacks(Device* device, protocol::ObjectId id, std::function<void()> release) {
  Runtime* runtime = device->runtime();
  KeepCallbacks keep;
  keep.closed = [device, id] {
    device->record([&](Recorder& r) { return protocol::encode_SharedHandleClosed(r.writer(), id); });
  };
  // The object's destructor still reads its device's statistics: the device goes last.
  // Its DestroyObject must reach the host now (no further call of the application's may
  // come to flush it): the registry entry goes with the host's object.
  keep.release = [release, device, runtime] {
    release();
    device->releasePrivate();
    runtime->stream().flush();
  };
  return keep;
}

}  // namespace npt::guest
