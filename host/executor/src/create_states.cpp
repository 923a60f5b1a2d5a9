// SPDX-License-Identifier: MIT
// State objects, queries and counters (none: no backend has them), deferred contexts.
#include <cstring>

#include "npt/executor/executor.h"
#include "npt/validation/queries.h"
#include "npt/validation/shaders.h"
#include "npt/validation/states.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;
using objects::ObjectType;

void Executor::createState(const char* method, ObjectId self, const DescCheck& check, ObjectType type, ObjectId id,
                           const std::function<HRESULT(ID3D11Device*, IUnknown**)>& create) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) {
    if (!isFatal()) insertFailed(id, type, nullptr);
    return;
  }
  if (!admit(check(owner->limits), method)) {
    if (!isFatal()) insertFailed(id, type, owner);
    return;
  }
  IUnknown* object = nullptr;
  HRESULT hr = create(owner->device, &object);
  if (FAILED(hr) || !object) {
    log("%s: the backend refused (0x%08x); object %u has no backend counterpart", method, unsigned(hr), id);
    insertFailed(id, type, owner);
    return;
  }
  insert(id, type, object, owner, 0);
}

#define NPT_CREATE_STATE(Name, Check, Type, Interface, Call)                                           \
  createState(                                                                                         \
      Name, self, [&](const validation::DeviceLimits&) { return Check; }, ObjectType::Type, out,       \
      [&](ID3D11Device* d, IUnknown** o) {                                                             \
        Interface* state = nullptr;                                                                    \
        HRESULT hr = Call;                                                                             \
        *o = state;                                                                                    \
        return hr;                                                                                     \
      })

void Executor::ID3D11Device_CreateBlendState(ObjectId self, const D3D11_BLEND_DESC* desc, ObjectId out) {
  NPT_CREATE_STATE("CreateBlendState", validation::validateBlendDesc(*desc), BlendState, ID3D11BlendState,
                   d->CreateBlendState(desc, &state));
}

void Executor::ID3D11Device_CreateDepthStencilState(ObjectId self, const D3D11_DEPTH_STENCIL_DESC* desc, ObjectId out) {
  // Backends trust their callers: the fields of disabled tests, which need not be valid,
  // become the defaults.
  const D3D11_DEPTH_STENCIL_DESC normalized = validation::normalizedDepthStencilDesc(*desc);
  NPT_CREATE_STATE("CreateDepthStencilState", validation::validateDepthStencilDesc(*desc), DepthStencilState,
                   ID3D11DepthStencilState, d->CreateDepthStencilState(&normalized, &state));
}

void Executor::ID3D11Device_CreateRasterizerState(ObjectId self, const D3D11_RASTERIZER_DESC* desc, ObjectId out) {
  NPT_CREATE_STATE("CreateRasterizerState", validation::validateRasterizerDesc(*desc), RasterizerState,
                   ID3D11RasterizerState, d->CreateRasterizerState(desc, &state));
}

void Executor::ID3D11Device_CreateSamplerState(ObjectId self, const D3D11_SAMPLER_DESC* desc, ObjectId out) {
  NPT_CREATE_STATE("CreateSamplerState", validation::validateSamplerDesc(*desc), SamplerState, ID3D11SamplerState,
                   d->CreateSamplerState(desc, &state));
}

// The 11.1+ state creations on a backend without the newer device interface: a
// description that uses nothing the older one lacks is created with the older call (the
// object then answers only the older interface on the host, which is all the executor
// asks of it); one that does (logic ops, forced sample counts, conservative
// rasterization) has no backend counterpart, as the backend refuses it (logged, later
// uses dropped). Never a fatal error: the call was valid.
namespace {

D3D11_BLEND_DESC blendDesc10(const D3D11_BLEND_DESC1& desc, bool* usesLogicOps) {
  D3D11_BLEND_DESC out = {};
  out.AlphaToCoverageEnable = desc.AlphaToCoverageEnable;
  out.IndependentBlendEnable = desc.IndependentBlendEnable;
  *usesLogicOps = false;
  for (UINT i = 0; i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT; i++) {
    const D3D11_RENDER_TARGET_BLEND_DESC1& from = desc.RenderTarget[i];
    D3D11_RENDER_TARGET_BLEND_DESC& to = out.RenderTarget[i];
    to.BlendEnable = from.BlendEnable;
    to.SrcBlend = from.SrcBlend;
    to.DestBlend = from.DestBlend;
    to.BlendOp = from.BlendOp;
    to.SrcBlendAlpha = from.SrcBlendAlpha;
    to.DestBlendAlpha = from.DestBlendAlpha;
    to.BlendOpAlpha = from.BlendOpAlpha;
    to.RenderTargetWriteMask = from.RenderTargetWriteMask;
    if (from.LogicOpEnable) *usesLogicOps = true;
  }
  return out;
}

// The ten members every rasterizer desc version shares; each version only appends members.
template <typename To, typename From>
To rasterizerDescCommon(const From& desc) {
  To out = {};
  out.FillMode = desc.FillMode;
  out.CullMode = desc.CullMode;
  out.FrontCounterClockwise = desc.FrontCounterClockwise;
  out.DepthBias = desc.DepthBias;
  out.DepthBiasClamp = desc.DepthBiasClamp;
  out.SlopeScaledDepthBias = desc.SlopeScaledDepthBias;
  out.DepthClipEnable = desc.DepthClipEnable;
  out.ScissorEnable = desc.ScissorEnable;
  out.MultisampleEnable = desc.MultisampleEnable;
  out.AntialiasedLineEnable = desc.AntialiasedLineEnable;
  return out;
}

D3D11_RASTERIZER_DESC2 rasterizerDesc2(const D3D11_RASTERIZER_DESC1& desc) {
  D3D11_RASTERIZER_DESC2 out = rasterizerDescCommon<D3D11_RASTERIZER_DESC2>(desc);
  out.ForcedSampleCount = desc.ForcedSampleCount;
  out.ConservativeRaster = D3D11_CONSERVATIVE_RASTERIZATION_MODE_OFF;
  return out;
}

// A rasterizer state from the newest interface the backend has that can express `desc`;
// E_NOTIMPL when none can.
HRESULT createRasterizerState(const DeviceState& owner, ID3D11Device* device, const D3D11_RASTERIZER_DESC2& desc,
                              ID3D11RasterizerState** out) {
  if (owner.device3)
    return owner.device3->CreateRasterizerState2(&desc, reinterpret_cast<ID3D11RasterizerState2**>(out));
  if (desc.ConservativeRaster != D3D11_CONSERVATIVE_RASTERIZATION_MODE_OFF) return E_NOTIMPL;
  if (owner.device1) {
    D3D11_RASTERIZER_DESC1 desc1 = {};
    std::memcpy(&desc1, &desc, sizeof(desc1));   // DESC2 extends DESC1 with ConservativeRaster
    return owner.device1->CreateRasterizerState1(&desc1, reinterpret_cast<ID3D11RasterizerState1**>(out));
  }
  if (desc.ForcedSampleCount != 0) return E_NOTIMPL;
  D3D11_RASTERIZER_DESC desc10 = rasterizerDescCommon<D3D11_RASTERIZER_DESC>(desc);
  return device->CreateRasterizerState(&desc10, out);
}

}  // namespace

void Executor::ID3D11Device1_CreateBlendState1(ObjectId self, const D3D11_BLEND_DESC1* desc, ObjectId out) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, "CreateBlendState1");
  ID3D11Device1* device1 = owner ? owner->device1 : nullptr;
  NPT_CREATE_STATE("CreateBlendState1", validation::validateBlendDesc1(*desc), BlendState, ID3D11BlendState, [&] {
    if (device1) return device1->CreateBlendState1(desc, reinterpret_cast<ID3D11BlendState1**>(&state));
    bool usesLogicOps = false;
    const D3D11_BLEND_DESC desc10 = blendDesc10(*desc, &usesLogicOps);
    return usesLogicOps ? E_NOTIMPL : d->CreateBlendState(&desc10, &state);
  }());
}

void Executor::ID3D11Device1_CreateRasterizerState1(ObjectId self, const D3D11_RASTERIZER_DESC1* desc, ObjectId out) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, "CreateRasterizerState1");
  const D3D11_RASTERIZER_DESC2 desc2 = rasterizerDesc2(*desc);
  NPT_CREATE_STATE("CreateRasterizerState1", validation::validateRasterizerDesc2(desc2), RasterizerState,
                   ID3D11RasterizerState, createRasterizerState(*owner, d, desc2, &state));
}

void Executor::ID3D11Device3_CreateRasterizerState2(ObjectId self, const D3D11_RASTERIZER_DESC2* desc, ObjectId out) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, "CreateRasterizerState2");
  NPT_CREATE_STATE("CreateRasterizerState2", validation::validateRasterizerDesc2(*desc), RasterizerState,
                   ID3D11RasterizerState, createRasterizerState(*owner, d, *desc, &state));
}

#undef NPT_CREATE_STATE

void Executor::createQuery(const char* method, ObjectId self, const D3D11_QUERY_DESC& desc, bool predicate,
                           ObjectType type, ObjectId id, const std::function<HRESULT(ID3D11Device*, IUnknown**)>& create) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) {
    if (!isFatal()) insertFailed(id, type, nullptr);
    return;
  }
  if (!admit(validation::validateQueryDesc(desc, predicate), method)) {
    if (!isFatal()) insertFailed(id, type, owner);
    return;
  }
  IUnknown* object = nullptr;
  HRESULT hr = create(owner->device, &object);
  if (FAILED(hr) || !object) {
    log("%s: the backend refused (0x%08x); object %u has no backend counterpart", method, unsigned(hr), id);
    insertFailed(id, type, owner);
    return;
  }
  auto record = std::make_unique<QueryState>();
  record->query = desc.Query;
  record->dataSize = static_cast<ID3D11Asynchronous*>(static_cast<ID3D11Query*>(object))->GetDataSize();
  insert(id, type, object, owner, 0, std::move(record));
}

void Executor::ID3D11Device_CreateQuery(ObjectId self, const D3D11_QUERY_DESC* pQueryDesc, ObjectId ppQuery) {
  createQuery("CreateQuery", self, *pQueryDesc, false, ObjectType::Query, ppQuery, [&](ID3D11Device* d, IUnknown** o) {
    ID3D11Query* query = nullptr;
    HRESULT hr = d->CreateQuery(pQueryDesc, &query);
    *o = query;
    return hr;
  });
}

// On the wire CreatePredicate makes every predicate type: the object's type is the method's,
// and SetPredication takes only predicates, so the guest sends it for a predicate asked of
// CreateQuery too. The per-stream overflow predicates, which the API's CreatePredicate
// refuses, come from the backend's CreateQuery (an object that is an ID3D11Predicate).
void Executor::ID3D11Device_CreatePredicate(ObjectId self, const D3D11_QUERY_DESC* pPredicateDesc, ObjectId ppPredicate) {
  const D3D11_QUERY type = pPredicateDesc->Query;
  const bool perStream = validation::isPredicateQuery(type) && type != D3D11_QUERY_OCCLUSION_PREDICATE &&
                         type != D3D11_QUERY_SO_OVERFLOW_PREDICATE;
  createQuery("CreatePredicate", self, *pPredicateDesc, !perStream, ObjectType::Predicate, ppPredicate,
              [&](ID3D11Device* d, IUnknown** o) {
                ID3D11Predicate* predicate = nullptr;
                HRESULT hr = S_OK;
                if (perStream) {
                  ID3D11Query* query = nullptr;
                  hr = d->CreateQuery(pPredicateDesc, &query);
                  if (SUCCEEDED(hr) && query) {
                    hr = query->QueryInterface(__uuidof(ID3D11Predicate), reinterpret_cast<void**>(&predicate));
                    query->Release();
                  }
                } else {
                  hr = d->CreatePredicate(pPredicateDesc, &predicate);
                }
                *o = predicate;
                return hr;
              });
}

void Executor::ID3D11Device3_CreateQuery1(ObjectId self, const D3D11_QUERY_DESC1* desc, ObjectId query) {
  // The 11.3 desc adds the context type the query runs on; every type may use the
  // backend's ordinary query (the host has one queue per device).
  D3D11_QUERY_DESC base = {desc->Query, desc->MiscFlags};
  if (desc->ContextType > D3D11_CONTEXT_TYPE_VIDEO) {
    std::shared_ptr<DeviceState> owner = deviceOf(self, "CreateQuery1");
    if (!owner) {
      if (!isFatal()) insertFailed(query, ObjectType::Query, nullptr);
      return;
    }
    drop("CreateQuery1", "context type %u", unsigned(desc->ContextType));
    insertFailed(query, ObjectType::Query, owner);
    return;
  }
  createQuery("CreateQuery1", self, base, false, ObjectType::Query, query, [&](ID3D11Device* d, IUnknown** o) {
    ID3D11Query* created = nullptr;
    HRESULT hr = d->CreateQuery(&base, &created);
    *o = created;
    return hr;
  });
}

// No backend has device-dependent counters (wined3d and DXVK report none), and the guest
// answers CheckCounterInfo/CreateCounter itself (DXGI_ERROR_UNSUPPORTED): a counter that
// arrives anyway gets no backend counterpart (logged; later uses dropped).
void Executor::ID3D11Device_CreateCounter(ObjectId self, const D3D11_COUNTER_DESC* pCounterDesc, ObjectId ppCounter) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, "CreateCounter");
  if (isFatal()) return;
  log("CreateCounter: counter %u is not supported (the backend has no counters); object %u has no backend counterpart",
      unsigned(pCounterDesc->Counter), ppCounter);
  insertFailed(ppCounter, ObjectType::Counter, owner);
}

// Context state objects live in the guest (it swaps by recording ClearState and the
// incoming state's setters), so the guest runtime sends neither call. One that arrives is
// answered without the backend: the state object has no backend counterpart (logged),
// and swapping to it is dropped (resolve drops uses of such ids).
void Executor::ID3D11Device1_CreateDeviceContextState(ObjectId self, UINT Flags, const D3D_FEATURE_LEVEL* pFeatureLevels,
                                                     UINT FeatureLevels, UINT SDKVersion, const GUID& EmulatedInterface,
                                                     ObjectId ppContextState) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, "CreateDeviceContextState");
  if (isFatal()) return;
  log("CreateDeviceContextState: context state objects are the guest's; object %u has no backend counterpart",
      ppContextState);
  insertFailed(ppContextState, ObjectType::DeviceContextState, owner);
}

void Executor::createDeferredContext(const char* method, ObjectId self, UINT flags, ObjectId id) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, method);
  if (!owner) {
    if (!isFatal()) insertFailed(id, ObjectType::DeviceContext, nullptr);
    return;
  }
  // ContextFlags is reserved: 0 is the only valid value.
  if (flags != 0) {
    drop(method, "context flags 0x%x", flags);
    insertFailed(id, ObjectType::DeviceContext, owner);
    return;
  }
  // Newer interfaces of the context are queried from it: one creation call serves all.
  ID3D11DeviceContext* context = nullptr;
  HRESULT hr = owner->device->CreateDeferredContext(0, &context);
  if (FAILED(hr) || !context) {
    log("%s: the backend refused (0x%08x); object %u has no backend counterpart", method, unsigned(hr), id);
    insertFailed(id, ObjectType::DeviceContext, owner);
    return;
  }
  insert(id, ObjectType::DeviceContext, context, owner, 0, contextState(context, true));
  noteDeferredContextCreated(id);   // shared-resource write tracking (sharing_writes.cpp)
}

void Executor::ID3D11Device_CreateDeferredContext(ObjectId self, UINT ContextFlags, ObjectId ppDeferredContext) {
  createDeferredContext("CreateDeferredContext", self, ContextFlags, ppDeferredContext);
}

void Executor::ID3D11Device1_CreateDeferredContext1(ObjectId self, UINT ContextFlags, ObjectId ppDeferredContext) {
  createDeferredContext("CreateDeferredContext1", self, ContextFlags, ppDeferredContext);
}

void Executor::ID3D11Device2_CreateDeferredContext2(ObjectId self, UINT flags, ObjectId context) {
  createDeferredContext("CreateDeferredContext2", self, flags, context);
}

void Executor::ID3D11Device3_CreateDeferredContext3(ObjectId self, UINT flags, ObjectId context) {
  createDeferredContext("CreateDeferredContext3", self, flags, context);
}

}  // namespace npt::executor
