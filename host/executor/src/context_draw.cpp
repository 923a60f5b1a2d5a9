// SPDX-License-Identifier: MIT
// Draws, dispatches, queries (Begin/End and the push slots their results go to) and Flush.
#include <algorithm>
#include <cstring>

#include "npt/executor/executor.h"
#include "records.h"

namespace npt::executor {

using objects::InterfaceId;

ID3D11DeviceContext* Executor::drawContextOf(ObjectId self, const char* method, DeviceState** device, bool indexed) {
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, method, device, &state);
  if (!context) return nullptr;
  if (!state->topologyDefined) {
    drop(method, "the primitive topology is UNDEFINED");
    return nullptr;
  }
  if (indexed && !state->indexBufferBound) {
    drop(method, "no index buffer is bound");
    return nullptr;
  }
  return context;
}

void Executor::ID3D11DeviceContext_Draw(ObjectId self, UINT VertexCount, UINT StartVertexLocation) {
  if (ID3D11DeviceContext* context = drawContextOf(self, "Draw")) {
    context->Draw(VertexCount, StartVertexLocation);
    noteBoundOutputWrites(self, context, false);
  }
}

void Executor::ID3D11DeviceContext_DrawIndexed(ObjectId self, UINT IndexCount, UINT StartIndexLocation,
                                               INT BaseVertexLocation) {
  if (ID3D11DeviceContext* context = drawContextOf(self, "DrawIndexed", nullptr, true)) {
    context->DrawIndexed(IndexCount, StartIndexLocation, BaseVertexLocation);
    noteBoundOutputWrites(self, context, false);
  }
}

void Executor::ID3D11DeviceContext_DrawInstanced(ObjectId self, UINT VertexCountPerInstance, UINT InstanceCount,
                                                 UINT StartVertexLocation, UINT StartInstanceLocation) {
  if (ID3D11DeviceContext* context = drawContextOf(self, "DrawInstanced")) {
    context->DrawInstanced(VertexCountPerInstance, InstanceCount, StartVertexLocation, StartInstanceLocation);
    noteBoundOutputWrites(self, context, false);
  }
}

void Executor::ID3D11DeviceContext_DrawIndexedInstanced(ObjectId self, UINT IndexCountPerInstance, UINT InstanceCount,
                                                        UINT StartIndexLocation, INT BaseVertexLocation,
                                                        UINT StartInstanceLocation) {
  if (ID3D11DeviceContext* context = drawContextOf(self, "DrawIndexedInstanced", nullptr, true)) {
    context->DrawIndexedInstanced(IndexCountPerInstance, InstanceCount, StartIndexLocation, BaseVertexLocation,
                                  StartInstanceLocation);
    noteBoundOutputWrites(self, context, false);
  }
}

void Executor::ID3D11DeviceContext_DrawAuto(ObjectId self) {
  if (ID3D11DeviceContext* context = drawContextOf(self, "DrawAuto")) {
    context->DrawAuto();
    noteBoundOutputWrites(self, context, false);
  }
}

void Executor::ID3D11DeviceContext_Dispatch(ObjectId self, UINT x, UINT y, UINT z) {
  ID3D11DeviceContext* context = contextOf(self, "Dispatch");
  if (!context) return;
  // D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION: larger counts are invalid (dropped).
  if (x > 65535 || y > 65535 || z > 65535)
    return drop("Dispatch", "thread group counts %u x %u x %u beyond 65535", x, y, z);
  context->Dispatch(x, y, z);
  noteBoundOutputWrites(self, context, true);
}

namespace {

// Checks an indirect-arguments buffer the way the runtime does: DRAWINDIRECT_ARGS,
// 4-byte aligned offset, arguments inside the buffer.
const char* indirectProblem(const ResourceState* buffer, UINT offset, UINT argumentBytes) {
  if (!buffer->shape.isBuffer() || !(buffer->shape.miscFlags & D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS))
    return "the buffer lacks D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS";
  if (offset % 4) return "the offset is not 4-byte aligned";
  if (uint64_t(offset) + argumentBytes > buffer->shape.width) return "the arguments lie beyond the buffer";
  return nullptr;
}

}  // namespace

#define NPT_INDIRECT(Method, Bytes)                                                                          \
  void Executor::ID3D11DeviceContext_##Method(ObjectId self, ObjectId buffer, UINT offset) {                  \
    DeviceState* device = nullptr;                                                                           \
    const bool dispatch = std::strcmp(#Method, "DispatchIndirect") == 0;                                     \
    ID3D11DeviceContext* context =                                                                           \
        dispatch ? contextOf(self, #Method, &device)                                                         \
                 : drawContextOf(self, #Method, &device, std::strcmp(#Method, "DrawIndexedInstancedIndirect") == 0); \
    ID3D11Buffer* args = nullptr;                                                                            \
    Record* record = nullptr;                                                                                \
    if (!context || !resolveAs(buffer, InterfaceId::ID3D11Buffer, false, #Method, &args, &record)) return;   \
    if (!sameDevice(record, device, buffer, #Method)) return;                                                \
    if (const char* problem = indirectProblem(static_cast<ResourceState*>(record), offset, Bytes))           \
      return drop(#Method, "%s", problem);                                                                   \
    context->Method(args, offset);                                                                           \
    noteBoundOutputWrites(self, context, dispatch);                                                          \
  }

NPT_INDIRECT(DrawIndexedInstancedIndirect, 20)
NPT_INDIRECT(DrawInstancedIndirect, 16)
NPT_INDIRECT(DispatchIndirect, 12)

#undef NPT_INDIRECT

void Executor::ID3D11DeviceContext_Flush(ObjectId self) {
  ContextState* state = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "Flush", nullptr, &state);
  if (!context) return;
  context->Flush();
  // Legacy shared resources (no keyed mutex, no fence) are synchronised by Flush.
  if (!state->deferred) publishWrittenResources();
}

void Executor::ID3D11DeviceContext_Begin(ObjectId self, ObjectId pAsync) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "Begin", &device);
  ID3D11Asynchronous* async = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pAsync, InterfaceId::ID3D11Asynchronous, false, "Begin", &async, &record)) return;
  if (!sameDevice(record, device, pAsync, "Begin")) return;
  auto* query = static_cast<QueryState*>(record);
  // Event and timestamp queries have no Begin: the runtime drops it.
  if (query->query == D3D11_QUERY_EVENT || query->query == D3D11_QUERY_TIMESTAMP)
    return drop("Begin", "query %u of type %u has no Begin", pAsync, unsigned(query->query));
  context->Begin(async);
}

void Executor::ID3D11DeviceContext_End(ObjectId self, ObjectId pAsync) {
  DeviceState* device = nullptr;
  ID3D11DeviceContext* context = contextOf(self, "End", &device);
  ID3D11Asynchronous* async = nullptr;
  Record* record = nullptr;
  if (!context || !resolveAs(pAsync, InterfaceId::ID3D11Asynchronous, false, "End", &async, &record)) return;
  if (!sameDevice(record, device, pAsync, "End")) return;
  context->End(async);
  auto* query = static_cast<QueryState*>(record);
  query->ends++;
  if (!query->awaitingResult) {
    query->awaitingResult = true;
    m_pendingQueries.push_back(pAsync);
  }
}

void Executor::bindPushSlot(ObjectId id, uint32_t slot) {
  ID3D11Asynchronous* async = nullptr;
  Record* record = nullptr;
  if (!resolveAs(id, InterfaceId::ID3D11Asynchronous, false, "BindPushSlot", &async, &record)) return;
  static_cast<QueryState*>(record)->slot = slot;
}

void Executor::pollQueries() {
  pollFences();
  // The guest reads results locally (contract 3): the slot holds the End count the
  // result belongs to, then the bytes GetData returned.
  for (size_t i = 0; i < m_pendingQueries.size() && !isFatal();) {
    ObjectId id = m_pendingQueries[i];
    ID3D11Asynchronous* async = nullptr;
    Record* record = nullptr;
    objects::ObjectInfo* info = nullptr;
    if (!m_table.lookup(id, InterfaceId::ID3D11Asynchronous, &info).ok() || !info->object) {
      m_pendingQueries.erase(m_pendingQueries.begin() + long(i));
      continue;
    }
    async = static_cast<ID3D11Asynchronous*>(static_cast<ID3D11Query*>(info->object));
    record = static_cast<Record*>(info->extra);
    auto* query = static_cast<QueryState*>(record);
    uint8_t slotBytes[4 + 256] = {};
    const uint32_t dataSize = std::min<uint32_t>(query->dataSize, 256);
    HRESULT hr = query->device->immediate->GetData(async, slotBytes + 4, dataSize, D3D11_ASYNC_GETDATA_DONOTFLUSH);
    if (hr != S_OK) {
      i++;
      continue;
    }
    std::memcpy(slotBytes, &query->ends, 4);
    if (query->slot >= 0 && m_options.hooks.pushSlot)
      m_options.hooks.pushSlot(uint32_t(query->slot), slotBytes, 4 + dataSize);
    query->awaitingResult = false;
    m_pendingQueries.erase(m_pendingQueries.begin() + long(i));
  }
}

}  // namespace npt::executor
