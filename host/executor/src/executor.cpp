// SPDX-License-Identifier: MIT
// Executor core: construction, fatal errors, logging, id resolution, object lifetime.
#include "npt/executor/executor.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "presenter.h"
#include "records.h"
#include "sharing_state.h"

namespace npt::executor {

using objects::InterfaceId;
using objects::ObjectType;

ContextState::~ContextState() {
  releaseAndClear(context3);
  releaseAndClear(context2);
  releaseAndClear(context1);
}

DeviceState::~DeviceState() {
  releaseAndClear(immediate);
  releaseAndClear(device5);
  releaseAndClear(device3);
  releaseAndClear(device1);
  releaseAndClear(device);
}

const char* fatalCodeName(FatalCode code) {
  switch (code) {
    case FatalCode::None: return "None";
    case FatalCode::Backend: return "Backend";
    case FatalCode::Validation: return "Validation";
    case FatalCode::ObjectTable: return "ObjectTable";
    case FatalCode::NotImplemented: return "NotImplemented";
    case FatalCode::BulkReference: return "BulkReference";
    case FatalCode::Protocol: return "Protocol";
    case FatalCode::CrossDevice: return "CrossDevice";
    case FatalCode::DeviceHung: return "DeviceHung";
  }
  return "?";
}

Executor::Executor(ExecutorOptions options) : m_options(std::move(options)), m_table(m_options.quotas) {
  if (!m_options.hooks.log)
    m_options.hooks.log = [](const char* line) { std::fprintf(stderr, "neptune-executor: %s\n", line); };
  // Opened at context creation so that a missing backend is reported at once; devices
  // are created only when the guest asks for them.
  m_backendStatus = backends::openBackend(m_options.backend.empty() ? nullptr : m_options.backend.c_str(), m_backend);
  if (!m_backendStatus.ok())
    log("E%u %s", unsigned(m_backendStatus.error), m_backendStatus.message.c_str());
  m_presenter = std::make_unique<Presenter>(*this);
}

Executor::~Executor() {
  // Shared entries and held keyed mutexes first (other contexts see them go), then
  // children before devices: the table releases every object, then the device states
  // (held by the records) go with the last of them.
  dropSharing();
  m_table.clear();
}

std::unique_ptr<Executor> createExecutor(ExecutorOptions options) {
  return std::make_unique<Executor>(std::move(options));
}

void Executor::log(const char* format, ...) {
  char line[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof(line), format, args);
  va_end(args);
  m_options.hooks.log(line);
}

void Executor::makeFatal(FatalCode code, std::string message) {
  if (isFatal()) return;
  m_fatal.code = code;
  m_fatal.message = std::move(message);
  log("context fatal: E%u %s: %s", unsigned(code), fatalCodeName(code), m_fatal.message.c_str());
  // Nothing a fatal context created outlives it; keyed mutexes it held are abandoned.
  m_pendingQueries.clear();
  dropSharing();
  m_table.clear();
}

bool Executor::backendReady() {
  if (m_backend) return true;
  makeFatal(FatalCode::Backend, m_backendStatus.message);
  return false;
}

bool Executor::admit(const validation::Check& check, const char* method) {
  if (check.passed()) return true;
  if (check.outcome() == validation::Outcome::Fatal) {
    makeFatal(FatalCode::Validation, std::string(method) + ": " + check.describe());
    return false;
  }
  m_droppedCalls++;
  // Creations (every one is a Create* method) report their rule with the refused object.
  m_refusingRule = std::strncmp(method, "Create", 6) == 0 ? check.code() : 0;
  log("%s: %s", method, check.describe().c_str());
  return false;
}

void Executor::drop(const char* method, const char* format, ...) {
  char reason[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(reason, sizeof(reason), format, args);
  va_end(args);
  m_droppedCalls++;
  log("%s: dropped: %s", method, reason);
}

void Executor::notImplemented(const char* method) {
  makeFatal(FatalCode::NotImplemented, std::string("NotImplemented ") + method);
}

bool Executor::resolve(ObjectId id, InterfaceId iface, bool nullable, const char* method, IUnknown** object,
                       Record** record) {
  *object = nullptr;
  if (record) *record = nullptr;
  if (isFatal()) return false;
  if (id == 0) {
    if (nullable) return true;
    makeFatal(FatalCode::ObjectTable, std::string(method) + ": null object where one is required");
    return false;
  }
  objects::ObjectInfo* info = m_table.findUsable(id, iface);
  if (!info) {
    objects::TableResult result = m_table.lookup(id, iface, &info);
    if (!result.ok()) {
      makeFatal(FatalCode::ObjectTable, std::string(method) + ": E" + std::to_string(unsigned(result.error)) + " " +
                                            objects::tableErrorName(result.error) + ": " + result.message);
      return false;
    }
  }
  if (!info->object) {
    drop(method, "object %u was never created (its creation failed)", id);
    return false;
  }
  *object = info->object;
  if (record) *record = static_cast<Record*>(info->extra);
  return true;
}

// An object of another device of the same guest is the application's mistake, not the
// guest's: Windows records such a bind (its debug layer reports it) and every device of the
// process goes on. The host cannot hand one device's object to another, so the call is
// dropped and logged; the context lives (all the process's devices share it).
bool Executor::sameDevice(const Record* record, const DeviceState* device, ObjectId id, const char* method) {
  if (record && record->device.get() == device) return true;
  drop(method, "object %u belongs to another device (E%u CrossDevice)", id, unsigned(FatalCode::CrossDevice));
  return false;
}

std::shared_ptr<DeviceState> Executor::deviceOf(ObjectId self, const char* method) {
  Record* record = nullptr;
  IUnknown* object = nullptr;
  if (!resolve(self, InterfaceId::ID3D11Device, false, method, &object, &record)) return nullptr;
  return record->device;
}

ID3D11DeviceContext* Executor::contextOf(ObjectId self, const char* method, DeviceState** device,
                                         ContextState** state) {
  Record* record = nullptr;
  ID3D11DeviceContext* context = nullptr;
  if (!resolveAs(self, InterfaceId::ID3D11DeviceContext, false, method, &context, &record)) return nullptr;
  if (device) *device = record->device.get();
  if (state) *state = static_cast<ContextState*>(record);
  return context;
}

std::unique_ptr<ContextState> Executor::contextState(ID3D11DeviceContext* context, bool deferred) {
  auto state = std::make_unique<ContextState>();
  auto query = [&](const GUID& iid, auto** out) {
    void* pointer = nullptr;
    *out = SUCCEEDED(context->QueryInterface(iid, &pointer)) ? static_cast<std::remove_pointer_t<decltype(out)>>(pointer)
                                                             : nullptr;
  };
  query(__uuidof(ID3D11DeviceContext1), &state->context1);
  query(__uuidof(ID3D11DeviceContext2), &state->context2);
  query(__uuidof(ID3D11DeviceContext3), &state->context3);
  state->deferred = deferred;
  return state;
}

void Executor::insert(ObjectId id, ObjectType type, IUnknown* object, std::shared_ptr<DeviceState> device,
                      uint64_t memoryBytes, std::unique_ptr<Record> record) {
  if (!record) record = std::make_unique<Record>();
  record->device = std::move(device);
  objects::TableResult result = m_table.insert(id, type, object, memoryBytes, {}, std::move(record));
  if (!result.ok()) {
    if (object) object->Release();
    makeFatal(FatalCode::ObjectTable, "create " + std::string(objects::objectTypeName(type)) + " " +
                                          std::to_string(id) + ": " + objects::tableErrorName(result.error) + ": " +
                                          result.message);
  }
}

void Executor::insertFailed(ObjectId id, ObjectType type, std::shared_ptr<DeviceState> device) {
  insert(id, type, nullptr, std::move(device), 0);
  if (m_options.hooks.creationRefused) m_options.hooks.creationRefused(id, m_refusingRule);
  m_refusingRule = 0;
}

bool Executor::payloadBytes(const Payload& payload, std::vector<uint8_t>& storage, const uint8_t** data,
                            size_t* size, const char* method) {
  *data = nullptr;
  *size = 0;
  if (payload.isNull) return true;
  if (!payload.isBulk) {
    *data = static_cast<const uint8_t*>(payload.data);
    *size = payload.size;
    return true;
  }
  const uint8_t* bytes = m_options.hooks.bulkBytes ? m_options.hooks.bulkBytes(payload.bulk) : nullptr;
  if (!bytes) {
    makeFatal(FatalCode::BulkReference, std::string(method) + ": bulk reference {region " +
                                            std::to_string(payload.bulk.region) + ", offset " +
                                            std::to_string(payload.bulk.offset) + ", size " +
                                            std::to_string(payload.bulk.size) + "} outside the context's memory");
    return false;
  }
  // Read once: the guest can write its bulk memory at any time.
  storage.assign(bytes, bytes + payload.bulk.size);
  *data = storage.data();
  *size = storage.size();
  return true;
}

IUnknown* Executor::backendObject(ObjectId id) {
  objects::ObjectInfo* info = nullptr;
  if (!m_table.lookup(id, InterfaceId::IUnknown, &info).ok()) return nullptr;
  return info->object;
}

void Executor::destroyObject(ObjectId id) {
  if (isFatal()) return;
  // The guest dropped its last reference: the table releases the backend object.
  objects::TableResult result = m_table.release(id);
  if (!result.ok())
    makeFatal(FatalCode::ObjectTable, "DestroyObject " + std::to_string(id) + ": " +
                                          objects::tableErrorName(result.error) + ": " + result.message);
  for (size_t i = 0; i < m_pendingQueries.size(); i++)
    if (m_pendingQueries[i] == id) {
      m_pendingQueries.erase(m_pendingQueries.begin() + long(i));
      break;
    }
  forgetShared(id);
}

}  // namespace npt::executor
