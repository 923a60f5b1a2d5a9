// State objects and queries; deferred contexts, counters and fences are not executed yet.
#include "npt/executor/executor.h"
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
  NPT_CREATE_STATE("CreateDepthStencilState", validation::validateDepthStencilDesc(*desc), DepthStencilState,
                   ID3D11DepthStencilState, d->CreateDepthStencilState(desc, &state));
}

void Executor::ID3D11Device_CreateRasterizerState(ObjectId self, const D3D11_RASTERIZER_DESC* desc, ObjectId out) {
  NPT_CREATE_STATE("CreateRasterizerState", validation::validateRasterizerDesc(*desc), RasterizerState,
                   ID3D11RasterizerState, d->CreateRasterizerState(desc, &state));
}

void Executor::ID3D11Device_CreateSamplerState(ObjectId self, const D3D11_SAMPLER_DESC* desc, ObjectId out) {
  NPT_CREATE_STATE("CreateSamplerState", validation::validateSamplerDesc(*desc), SamplerState, ID3D11SamplerState,
                   d->CreateSamplerState(desc, &state));
}

void Executor::ID3D11Device1_CreateBlendState1(ObjectId self, const D3D11_BLEND_DESC1* desc, ObjectId out) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, "CreateBlendState1");
  if (owner && !owner->device1) return notImplemented("ID3D11Device1::CreateBlendState1 (backend without ID3D11Device1)");
  NPT_CREATE_STATE("CreateBlendState1", validation::validateBlendDesc1(*desc), BlendState, ID3D11BlendState1,
                   owner->device1->CreateBlendState1(desc, &state));
}

void Executor::ID3D11Device1_CreateRasterizerState1(ObjectId self, const D3D11_RASTERIZER_DESC1* desc, ObjectId out) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, "CreateRasterizerState1");
  if (owner && !owner->device1)
    return notImplemented("ID3D11Device1::CreateRasterizerState1 (backend without ID3D11Device1)");
  D3D11_RASTERIZER_DESC2 desc2 = {};
  desc2.FillMode = desc->FillMode;
  desc2.CullMode = desc->CullMode;
  desc2.FrontCounterClockwise = desc->FrontCounterClockwise;
  desc2.DepthBias = desc->DepthBias;
  desc2.DepthBiasClamp = desc->DepthBiasClamp;
  desc2.SlopeScaledDepthBias = desc->SlopeScaledDepthBias;
  desc2.DepthClipEnable = desc->DepthClipEnable;
  desc2.ScissorEnable = desc->ScissorEnable;
  desc2.MultisampleEnable = desc->MultisampleEnable;
  desc2.AntialiasedLineEnable = desc->AntialiasedLineEnable;
  desc2.ForcedSampleCount = desc->ForcedSampleCount;
  desc2.ConservativeRaster = D3D11_CONSERVATIVE_RASTERIZATION_MODE_OFF;
  NPT_CREATE_STATE("CreateRasterizerState1", validation::validateRasterizerDesc2(desc2), RasterizerState,
                   ID3D11RasterizerState1, owner->device1->CreateRasterizerState1(desc, &state));
}

void Executor::ID3D11Device3_CreateRasterizerState2(ObjectId self, const D3D11_RASTERIZER_DESC2* desc, ObjectId out) {
  std::shared_ptr<DeviceState> owner = deviceOf(self, "CreateRasterizerState2");
  if (owner && !owner->device3)
    return notImplemented("ID3D11Device3::CreateRasterizerState2 (backend without ID3D11Device3)");
  NPT_CREATE_STATE("CreateRasterizerState2", validation::validateRasterizerDesc2(*desc), RasterizerState,
                   ID3D11RasterizerState2, owner->device3->CreateRasterizerState2(desc, &state));
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

void Executor::ID3D11Device_CreatePredicate(ObjectId self, const D3D11_QUERY_DESC* pPredicateDesc, ObjectId ppPredicate) {
  createQuery("CreatePredicate", self, *pPredicateDesc, true, ObjectType::Predicate, ppPredicate,
              [&](ID3D11Device* d, IUnknown** o) {
                ID3D11Predicate* predicate = nullptr;
                HRESULT hr = d->CreatePredicate(pPredicateDesc, &predicate);
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

void Executor::ID3D11Device_CreateCounter(ObjectId self, const D3D11_COUNTER_DESC* pCounterDesc, ObjectId ppCounter) {
  notImplemented("ID3D11Device::CreateCounter");
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
