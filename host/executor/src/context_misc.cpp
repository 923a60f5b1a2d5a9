// SPDX-License-Identifier: MIT
// Annotations, Flush1, hardware protection; command lists and fences are not executed.
#include "npt/executor/executor.h"
#include "records.h"

namespace npt::executor {

namespace {

template<typename T>
T* queryInterface(IUnknown* object, const GUID& iid) {
  void* pointer = nullptr;
  return SUCCEEDED(object->QueryInterface(iid, &pointer)) ? static_cast<T*>(pointer) : nullptr;
}

}  // namespace

// Annotations only label work for debuggers; a backend without ID3DUserDefinedAnnotation
// renders the same without them.
#define NPT_ANNOTATION(Method, Call)                                                                        \
  if (ID3D11DeviceContext* context = contextOf(self, Method)) {                                             \
    if (auto* annotation = queryInterface<ID3DUserDefinedAnnotation>(context, __uuidof(ID3DUserDefinedAnnotation))) { \
      annotation->Call;                                                                                     \
      annotation->Release();                                                                                \
    }                                                                                                       \
  }

void Executor::ID3DUserDefinedAnnotation_BeginEvent(ObjectId self, const WCHAR* Name) {
  NPT_ANNOTATION("BeginEvent", BeginEvent(Name ? Name : L""));
}

void Executor::ID3DUserDefinedAnnotation_EndEvent(ObjectId self) { NPT_ANNOTATION("EndEvent", EndEvent()); }

void Executor::ID3DUserDefinedAnnotation_SetMarker(ObjectId self, const WCHAR* Name) {
  NPT_ANNOTATION("SetMarker", SetMarker(Name ? Name : L""));
}

#undef NPT_ANNOTATION

void Executor::ID3D11DeviceContext2_SetMarkerInt(ObjectId self, const WCHAR* label, INT data) {
  ContextState* state = nullptr;
  if (contextOf(self, "SetMarkerInt", nullptr, &state) && state->context2)
    state->context2->SetMarkerInt(label ? label : L"", data);
}

void Executor::ID3D11DeviceContext2_BeginEventInt(ObjectId self, const WCHAR* label, INT data) {
  ContextState* state = nullptr;
  if (contextOf(self, "BeginEventInt", nullptr, &state) && state->context2)
    state->context2->BeginEventInt(label ? label : L"", data);
}

void Executor::ID3D11DeviceContext2_EndEvent(ObjectId self) {
  ContextState* state = nullptr;
  if (contextOf(self, "EndEvent", nullptr, &state) && state->context2) state->context2->EndEvent();
}

void Executor::ID3D11DeviceContext1_SwapDeviceContextState(ObjectId self, ObjectId pState) {
  const char* method = "SwapDeviceContextState";
  ID3D11DeviceContext* context = contextOf(self, method);
  IUnknown* state = nullptr;
  if (!context || !resolve(pState, objects::InterfaceId::ID3DDeviceContextState, true, method, &state)) return;
  // Only ids of CreateDeviceContextState reach here, and none has a backend object (see
  // create_states.cpp); a NULL state changes nothing, as on Windows.
  drop(method, "context state objects are the guest's");
}

void Executor::ID3D11DeviceContext3_Flush1(ObjectId self, D3D11_CONTEXT_TYPE type, HANDLE event) {
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "Flush1", nullptr, &state);
  if (!context) return;
  // A guest event handle means nothing in the host process: the guest runtime sets its
  // events itself (completion_notifier.cpp) and sends none; one that arrives is not
  // signalled, and the flush still happens.
  if (event) log("Flush1: the guest's event handle %p is not set by the host", event);
  if (state->context3)
    state->context3->Flush1(type, nullptr);
  else
    context->Flush();
  // As Flush: legacy shared resources are synchronised by it.
  if (!state->deferred) publishWrittenResources();
}

void Executor::ID3D11DeviceContext3_SetHardwareProtectionState(ObjectId self, BOOL enable) {
  ContextState* state = nullptr;
  if (contextOf(self, "SetHardwareProtectionState", nullptr, &state) && state->context3)
    state->context3->SetHardwareProtectionState(enable);
}

void Executor::ID3D11DeviceContext_ExecuteCommandList(ObjectId self, ObjectId pCommandList, BOOL RestoreContextState) {
  const char* method = "ExecuteCommandList";
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device, &state);
  ID3D11CommandList* list = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pCommandList, objects::InterfaceId::ID3D11CommandList, false, method, &list, &record)) return;
  if (!sameDevice(record, device, pCommandList, method)) return;
  context->ExecuteCommandList(list, RestoreContextState);
  // Without restoring, the context is left in the default state.
  if (!RestoreContextState) state->resetToDefaultState();
  noteCommandListExecuted(self, context, pCommandList);
}

void Executor::ID3D11DeviceContext_FinishCommandList(ObjectId self, BOOL RestoreDeferredContextState,
                                                     ObjectId ppCommandList) {
  const char* method = "FinishCommandList";
  DeviceState* device = nullptr;
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, &device, &state);
  if (!context) {
    if (!isFatal()) insertFailed(ppCommandList, objects::ObjectType::CommandList, nullptr);
    return;
  }
  std::shared_ptr<DeviceState> owner = state->device;
  if (!state->deferred) {
    // DXGI_ERROR_INVALID_CALL on an immediate context.
    drop(method, "context %u is not a deferred context", self);
    insertFailed(ppCommandList, objects::ObjectType::CommandList, owner);
    return;
  }
  ID3D11CommandList* list = nullptr;
  HRESULT hr = context->FinishCommandList(RestoreDeferredContextState, &list);
  if (!RestoreDeferredContextState) state->resetToDefaultState();
  // What the recorded commands write now belongs to the list (discarded with a refused one).
  noteCommandListFinished(self, ppCommandList);
  if (FAILED(hr) || !list) {
    log("%s: the backend refused (0x%08x); object %u has no backend counterpart", method, unsigned(hr), ppCommandList);
    insertFailed(ppCommandList, objects::ObjectType::CommandList, owner);
    return;
  }
  insert(ppCommandList, objects::ObjectType::CommandList, list, owner, 0);
}

}  // namespace npt::executor
