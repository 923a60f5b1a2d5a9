// SPDX-License-Identifier: MIT
#include "npt/objects/object_table.h"

#include <cstdarg>
#include <cstdio>

namespace npt::objects {

namespace {

TableResult failure(TableError error, const char* format, ...) __attribute__((format(gnu_printf, 2, 3)));

TableResult failure(TableError error, const char* format, ...) {
  char buffer[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return TableResult{error, buffer};
}

}  // namespace

const char* tableErrorName(TableError error) {
  switch (error) {
    case TableError::Ok: return "Ok";
    case TableError::NullId: return "NullId";
    case TableError::IdInUse: return "IdInUse";
    case TableError::UnknownId: return "UnknownId";
    case TableError::UseAfterRelease: return "UseAfterRelease";
    case TableError::WrongType: return "WrongType";
    case TableError::NoInterface: return "NoInterface";
    case TableError::ObjectQuota: return "ObjectQuota";
    case TableError::MemoryQuota: return "MemoryQuota";
    case TableError::RefcountOverflow: return "RefcountOverflow";
    case TableError::BadDependency: return "BadDependency";
  }
  return "?";
}

ObjectTable::ObjectTable(const ObjectQuotas& quotas) : m_quotas(quotas) {}

ObjectTable::~ObjectTable() { clear(); }

TableResult ObjectTable::insert(ObjectId id, ObjectType type, IUnknown* object, uint64_t memoryBytes,
                                std::span<const ObjectId> dependencies, std::unique_ptr<ObjectExtra> extra) {
  // On any failure the caller still owns `object`: nothing was taken over.
  if (id == kNullObject) return failure(TableError::NullId, "cannot create an object with id 0");
  if (m_objects.count(id))
    return failure(TableError::IdInUse, "id %u is in use by a live %s", id, objectTypeName(m_objects[id].info.type));
  if (m_objects.size() >= m_quotas.maxObjects)
    return failure(TableError::ObjectQuota, "object quota exceeded: %zu live objects (limit %u)", m_objects.size(),
                   m_quotas.maxObjects);
  if (memoryBytes > m_quotas.maxMemoryBytes || m_memory > m_quotas.maxMemoryBytes - memoryBytes)
    return failure(TableError::MemoryQuota, "memory quota exceeded: %llu + %llu bytes (limit %llu)",
                   (unsigned long long)m_memory, (unsigned long long)memoryBytes,
                   (unsigned long long)m_quotas.maxMemoryBytes);
  for (ObjectId dependency : dependencies) {
    auto it = m_objects.find(dependency);
    // A dependency must be usable by the guest right now (it named it in this call).
    if (it == m_objects.end() || it->second.info.publicRefs == 0)
      return failure(TableError::BadDependency, "object %u depends on %u, which is not alive", id, dependency);
  }

  for (ObjectId dependency : dependencies) m_objects[dependency].info.internalRefs++;
  m_tombstones.erase(id);
  Entry& entry = m_objects[id];
  entry.info.type = type;
  entry.info.object = object;
  entry.info.publicRefs = 1;
  entry.info.memoryBytes = memoryBytes;
  entry.extra = std::move(extra);
  entry.info.extra = entry.extra.get();
  entry.dependencies.assign(dependencies.begin(), dependencies.end());
  m_memory += memoryBytes;
  return {};
}

TableResult ObjectTable::findLive(ObjectId id, Entry** out) {
  if (id == kNullObject) return failure(TableError::NullId, "id 0 where an object is required");
  auto it = m_objects.find(id);
  if (it == m_objects.end()) {
    if (m_tombstones.count(id)) return failure(TableError::UseAfterRelease, "object %u was released", id);
    return failure(TableError::UnknownId, "no object has id %u", id);
  }
  if (it->second.info.publicRefs == 0)
    return failure(TableError::UseAfterRelease, "object %u (%s) has no public references left", id,
                   objectTypeName(it->second.info.type));
  *out = &it->second;
  return {};
}

TableResult ObjectTable::addRef(ObjectId id, uint32_t* count) {
  Entry* entry = nullptr;
  TableResult result = findLive(id, &entry);
  if (!result.ok()) return result;
  if (entry->info.publicRefs >= m_quotas.maxPublicRefs)
    return failure(TableError::RefcountOverflow, "object %u reached %u references", id, entry->info.publicRefs);
  entry->info.publicRefs++;
  if (count) *count = entry->info.publicRefs;
  return {};
}

TableResult ObjectTable::release(ObjectId id, uint32_t* count) {
  Entry* entry = nullptr;
  TableResult result = findLive(id, &entry);
  if (!result.ok()) return result;
  const uint32_t remaining = --entry->info.publicRefs;
  if (remaining == 0) forgetRecent(id);
  if (count) *count = remaining;
  if (remaining == 0 && entry->info.internalRefs == 0) destroy(id);
  return {};
}

TableResult ObjectTable::queryInterface(ObjectId id, InterfaceId iface) {
  Entry* entry = nullptr;
  TableResult result = findLive(id, &entry);
  if (!result.ok()) return result;
  if (!objectImplements(entry->info.type, iface))
    return failure(TableError::NoInterface, "%s %u does not implement %s", objectTypeName(entry->info.type), id,
                   interfaceName(iface));
  return addRef(id);
}

TableResult ObjectTable::queryInterface(ObjectId id, const GUID& iid) {
  InterfaceId iface;
  if (!interfaceFromGuid(iid, iface)) {
    Entry* entry = nullptr;
    TableResult result = findLive(id, &entry);
    if (!result.ok()) return result;
    return failure(TableError::NoInterface, "object %u: unknown interface {%08x-...}", id, unsigned(iid.Data1));
  }
  return queryInterface(id, iface);
}

ObjectInfo* ObjectTable::findUsable(ObjectId id, InterfaceId iface) {
  RecentLookup& recent = m_recent[id % kRecentLookups];
  if (id != kNullObject && recent.id == id && recent.iface == iface) return &recent.entry->info;
  auto it = m_objects.find(id);
  if (it == m_objects.end() || it->second.info.publicRefs == 0 || !objectImplements(it->second.info.type, iface))
    return nullptr;
  recent = {id, iface, &it->second};
  return &it->second.info;
}

TableResult ObjectTable::lookup(ObjectId id, InterfaceId iface, ObjectInfo** out) {
  if (ObjectInfo* info = findUsable(id, iface)) {
    *out = info;
    return {};
  }
  Entry* entry = nullptr;
  TableResult result = findLive(id, &entry);
  if (!result.ok()) return result;
  if (!objectImplements(entry->info.type, iface))
    return failure(TableError::WrongType, "object %u is a %s, the call needs %s", id, objectTypeName(entry->info.type),
                   interfaceName(iface));
  *out = &entry->info;
  return {};
}

TableResult ObjectTable::acquireDependency(ObjectId id, size_t index, ObjectId* dependency) {
  Entry* entry = nullptr;
  TableResult result = findLive(id, &entry);
  if (!result.ok()) return result;
  if (index >= entry->dependencies.size())
    return failure(TableError::BadDependency, "object %u has no dependency %zu", id, index);
  const ObjectId target = entry->dependencies[index];
  // Alive by construction: our internal reference keeps it.
  Entry& dep = m_objects.at(target);
  if (dep.info.publicRefs >= m_quotas.maxPublicRefs)
    return failure(TableError::RefcountOverflow, "object %u reached %u references", target, dep.info.publicRefs);
  dep.info.publicRefs++;
  *dependency = target;
  return {};
}

void ObjectTable::dropInternalRef(ObjectId id) {
  auto it = m_objects.find(id);
  if (it == m_objects.end()) return;
  if (--it->second.info.internalRefs == 0 && it->second.info.publicRefs == 0) destroy(id);
}

void ObjectTable::forgetRecent(ObjectId id) {
  RecentLookup& recent = m_recent[id % kRecentLookups];
  if (recent.id == id) recent = {};
}

void ObjectTable::destroy(ObjectId id) {
  forgetRecent(id);
  auto it = m_objects.find(id);
  if (it == m_objects.end()) return;
  // Detach first: releasing dependencies may destroy further entries (rehashing the map).
  Entry entry = std::move(it->second);
  m_objects.erase(it);
  m_memory -= entry.info.memoryBytes;
  remember(id);
  entry.extra.reset();
  if (entry.info.object) entry.info.object->Release();
  for (ObjectId dependency : entry.dependencies) dropInternalRef(dependency);
}

void ObjectTable::remember(ObjectId id) {
  if (!m_quotas.maxTombstones) return;
  if (m_tombstones.insert(id).second) m_tombstoneOrder.push_back(id);
  while (m_tombstoneOrder.size() > m_quotas.maxTombstones) {
    m_tombstones.erase(m_tombstoneOrder.front());
    m_tombstoneOrder.pop_front();
  }
}

void ObjectTable::clear() {
  m_recent = {};
  // Destroy everything regardless of counts: drop public refs first so that
  // dependency releases cascade instead of leaving dormant entries behind.
  std::vector<ObjectId> ids;
  ids.reserve(m_objects.size());
  for (auto& [id, entry] : m_objects) ids.push_back(id);
  for (ObjectId id : ids) {
    auto it = m_objects.find(id);
    if (it != m_objects.end()) it->second.info.publicRefs = 0;
  }
  while (!m_objects.empty()) {
    // Destroy objects nobody depends on first, so dependents release before their targets.
    bool progressed = false;
    for (ObjectId id : ids) {
      auto it = m_objects.find(id);
      if (it != m_objects.end() && it->second.info.internalRefs == 0) {
        destroy(id);
        progressed = true;
      }
    }
    if (!progressed) {
      // Only possible with a dependency cycle, which insert() cannot build; be safe.
      for (auto& [id, entry] : m_objects) entry.info.internalRefs = 0;
    }
  }
  m_tombstones.clear();
  m_tombstoneOrder.clear();
}

}  // namespace npt::objects
