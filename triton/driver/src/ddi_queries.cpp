// SPDX-License-Identifier: MIT
// Queries, predicates, counters, and the device's capability checks.

#include <cstring>

#include "device.h"
#include "entries.h"
#include "log.h"
#include "translate.h"

namespace triton::driver {
namespace {

ID3D11Asynchronous* target(ddi::D3D10DDI_HQUERY h) {
  Query* q = objectOf<Query>(h);
  return q ? q->query.Get() : nullptr;
}

}  // namespace

namespace entry {

SIZE_T TRITON_APIENTRY calcPrivateQuerySize(ddi::D3D10DDI_HDEVICE, const ddi::D3D10DDIARG_CREATEQUERY*) {
  return sizeof(Query);
}

void TRITON_APIENTRY createQuery(ddi::D3D10DDI_HDEVICE hDevice, const ddi::D3D10DDIARG_CREATEQUERY* a,
                                 ddi::D3D10DDI_HQUERY hQuery, ddi::D3D10DDI_HRTQUERY) {
  Device* d = deviceOf(hDevice);
  if (!a || !hQuery.pDrvPrivate) {
    d->setError(E_INVALIDARG);
    return;
  }
  const UINT misc = a->MiscFlags & D3D11_QUERY_MISC_PREDICATEHINT;   // value-equal
  ComPtr<ID3D11Asynchronous> async;
  HRESULT hr;
  if (a->Query >= ddi::D3D10DDI_COUNTER_DEVICE_DEPENDENT_0) {
    // Device-dependent counters keep their number through the API.
    const D3D11_COUNTER_DESC desc{D3D11_COUNTER(a->Query), misc};
    ComPtr<ID3D11Counter> counter;
    hr = d->device()->CreateCounter(&desc, &counter);
    async = counter;
  } else {
    D3D11_QUERY type;
    if (!apiQuery(a->Query, &type)) {
      // The D3D10 named counters have no D3D11 API form.
      d->notImplemented("CreateQuery(D3D10 named counter)");
      return;
    }
    // CreateQuery makes every type, predicates included (CreatePredicate takes only the two
    // Direct3D 10 predicates, not the per-stream overflow ones).
    const D3D11_QUERY_DESC desc{type, misc};
    ComPtr<ID3D11Query> query;
    hr = d->device()->CreateQuery(&desc, &query);
    async = query;
  }
  if (FAILED(hr)) {
    d->targetFailed("CreateQuery", hr);
    return;
  }
  Query* q = new (hQuery.pDrvPrivate) Query;
  q->query = std::move(async);
  q->type = a->Query;
  q->targetDataSize = q->query->GetDataSize();
}

void TRITON_APIENTRY destroyQuery(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HQUERY h) {
  destroyObject<Query>(h.pDrvPrivate);
}

void TRITON_APIENTRY queryBegin(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HQUERY h) {
  if (ID3D11Asynchronous* q = target(h))
    deviceOf(hDevice)->context()->Begin(q);
}

void TRITON_APIENTRY queryEnd(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HQUERY h) {
  if (ID3D11Asynchronous* q = target(h))
    deviceOf(hDevice)->context()->End(q);
}

void TRITON_APIENTRY queryGetData(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HQUERY h, void* data, UINT dataSize,
                                  UINT flags) {
  Device* d = deviceOf(hDevice);
  Query* q = objectOf<Query>(h);
  if (!q) {
    d->setError(E_INVALIDARG);
    return;
  }
  // Read the target's full result, hand back the prefix the DDI type asks for (the
  // D3D10 pipeline statistics are the first eight counters of the D3D11 ones).
  UINT8 result[sizeof(D3D11_QUERY_DATA_PIPELINE_STATISTICS)] = {};
  const UINT size = q->targetDataSize <= sizeof(result) ? q->targetDataSize : 0;
  const HRESULT hr = d->context()->GetData(q->query.Get(), data && dataSize ? result : nullptr,
                                           data && dataSize ? size : 0, flags & D3D11_ASYNC_GETDATA_DONOTFLUSH);
  if (hr == S_FALSE) {
    d->setError(DXGI_DDI_ERR_WASSTILLDRAWING);
    return;
  }
  if (FAILED(hr)) {
    d->targetFailed("QueryGetData", hr);
    return;
  }
  if (data && dataSize)
    std::memcpy(data, result, dataSize < size ? dataSize : size);
}

void TRITON_APIENTRY setPredication(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_HQUERY h, BOOL value) {
  Query* q = objectOf<Query>(h);
  ComPtr<ID3D11Predicate> predicate;
  if (q && FAILED(q->query.As(&predicate))) {
    deviceOf(hDevice)->setError(E_INVALIDARG);
    return;
  }
  deviceOf(hDevice)->context()->SetPredication(predicate.Get(), value);
}

void TRITON_APIENTRY checkFormatSupport(ddi::D3D10DDI_HDEVICE hDevice, DXGI_FORMAT format, UINT* caps) {
  if (!caps)
    return;
  Device* d = deviceOf(hDevice);
  UINT support = 0;
  if (FAILED(d->device()->CheckFormatSupport(format, &support))) {
    *caps = ddi::D3D10_DDI_FORMAT_SUPPORT_NOT_SUPPORTED;
    return;
  }
  D3D11_FEATURE_DATA_FORMAT_SUPPORT2 support2{format, 0};
  if (FAILED(d->device()->CheckFeatureSupport(D3D11_FEATURE_FORMAT_SUPPORT2, &support2, sizeof(support2))))
    support2.OutFormatSupport2 = 0;
  *caps = ddiFormatSupport(support, support2.OutFormatSupport2);
}

void TRITON_APIENTRY checkMultisampleQualityLevels(ddi::D3D10DDI_HDEVICE hDevice, DXGI_FORMAT format, UINT sampleCount,
                                                   UINT* levels) {
  if (!levels)
    return;
  if (FAILED(deviceOf(hDevice)->device()->CheckMultisampleQualityLevels(format, sampleCount, levels)))
    *levels = 0;
}

void TRITON_APIENTRY checkCounterInfo(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_COUNTER_INFO* info) {
  if (!info)
    return;
  D3D11_COUNTER_INFO api{};
  deviceOf(hDevice)->device()->CheckCounterInfo(&api);
  info->LastDeviceDependentCounter = ddi::D3D10DDI_QUERY(api.LastDeviceDependentCounter);
  info->NumSimultaneousCounters = api.NumSimultaneousCounters;
  info->NumDetectableParallelUnits = api.NumDetectableParallelUnits;
}

void TRITON_APIENTRY checkCounter(ddi::D3D10DDI_HDEVICE hDevice, ddi::D3D10DDI_QUERY query,
                                  ddi::D3D10DDI_COUNTER_TYPE* type, UINT* activeCounters, LPSTR name, UINT* nameLength,
                                  LPSTR units, UINT* unitsLength, LPSTR description, UINT* descriptionLength) {
  Device* d = deviceOf(hDevice);
  if (query < ddi::D3D10DDI_COUNTER_DEVICE_DEPENDENT_0) {
    d->setError(DXGI_DDI_ERR_UNSUPPORTED);
    return;
  }
  const D3D11_COUNTER_DESC desc{D3D11_COUNTER(query), 0};
  D3D11_COUNTER_TYPE apiType{};
  const HRESULT hr = d->device()->CheckCounter(&desc, &apiType, activeCounters, name, nameLength, units, unitsLength,
                                               description, descriptionLength);
  if (FAILED(hr)) {
    d->setError(hr == E_INVALIDARG ? DXGI_DDI_ERR_UNSUPPORTED : hr);
    return;
  }
  if (type)
    *type = ddi::D3D10DDI_COUNTER_TYPE(apiType);   // value-equal
}

void TRITON_APIENTRY checkDirectFlipSupport(ddi::D3D10DDI_HDEVICE, ddi::D3D10DDI_HRESOURCE, ddi::D3D10DDI_HRESOURCE,
                                            UINT, BOOL* supported) {
  // No scan-out of Triton's resources: presentation is not done yet.
  if (supported)
    *supported = FALSE;
}

}  // namespace entry
}  // namespace triton::driver
