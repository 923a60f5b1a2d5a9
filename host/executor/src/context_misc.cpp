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
  DeviceState* device = nullptr;
  if (contextOf(self, "SetMarkerInt", &device) && device->immediate2)
    device->immediate2->SetMarkerInt(label ? label : L"", data);
}

void Executor::ID3D11DeviceContext2_BeginEventInt(ObjectId self, const WCHAR* label, INT data) {
  DeviceState* device = nullptr;
  if (contextOf(self, "BeginEventInt", &device) && device->immediate2)
    device->immediate2->BeginEventInt(label ? label : L"", data);
}

void Executor::ID3D11DeviceContext2_EndEvent(ObjectId self) {
  DeviceState* device = nullptr;
  if (contextOf(self, "EndEvent", &device) && device->immediate2) device->immediate2->EndEvent();
}

void Executor::ID3D11DeviceContext3_Flush1(ObjectId self, D3D11_CONTEXT_TYPE type, HANDLE event) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "Flush1", &device);
  if (!context) return;
  // A guest event handle means nothing in the host process.
  if (event) return notImplemented("ID3D11DeviceContext3::Flush1 with an event");
  if (device->immediate3)
    device->immediate3->Flush1(type, nullptr);
  else
    context->Flush();
}

void Executor::ID3D11DeviceContext3_SetHardwareProtectionState(ObjectId self, BOOL enable) {
  DeviceState* device = nullptr;
  if (contextOf(self, "SetHardwareProtectionState", &device) && device->immediate3)
    device->immediate3->SetHardwareProtectionState(enable);
}

void Executor::ID3D11DeviceContext_ExecuteCommandList(ObjectId self, ObjectId pCommandList, BOOL RestoreContextState) {
  notImplemented("ID3D11DeviceContext::ExecuteCommandList");
}

void Executor::ID3D11DeviceContext_FinishCommandList(ObjectId self, BOOL RestoreDeferredContextState,
                                                     ObjectId ppCommandList) {
  notImplemented("ID3D11DeviceContext::FinishCommandList");
}

void Executor::ID3D11DeviceContext4_Signal(ObjectId self, ObjectId fence, UINT64 value) {
  notImplemented("ID3D11DeviceContext4::Signal");
}

void Executor::ID3D11DeviceContext4_Wait(ObjectId self, ObjectId fence, UINT64 value) {
  notImplemented("ID3D11DeviceContext4::Wait");
}

}  // namespace npt::executor
