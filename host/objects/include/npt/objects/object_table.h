// SPDX-License-Identifier: MIT
#pragma once

// A context's objects, keyed by the 32-bit ids the guest assigns (0 is the null
// handle). Host pointers never leave this table.
//
// Reference semantics follow COM as the guest sees it:
//  * insert() creates an object with one public reference (the Create* result);
//  * addRef()/release()/queryInterface() move the public count; QueryInterface only
//    succeeds for interfaces the object's type implements (object_types.h);
//  * objects may hold internal references on others (a view on its resource): an
//    object whose public count reached zero stays alive, but unusable by id, while
//    internal references remain, and can be handed out again by acquireDependency()
//    (what ID3D11View::GetResource does);
//  * the table holds exactly one reference on the backend object and releases it
//    when the object is destroyed.
// Using an id after its object was destroyed is detected (for the most recent
// maxTombstones destroyed ids), as is using an id with the wrong type.

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "npt/d3d11_api.h"
#include "npt/objects/object_types.h"

namespace npt::objects {

using ObjectId = uint32_t;
constexpr ObjectId kNullObject = 0;

// Stable codes (host error reports); append only.
enum class TableError : uint32_t {
  Ok               = 0,
  NullId           = 12001,  // id 0 where an object is required
  IdInUse          = 12002,  // insert() with an id that is alive
  UnknownId        = 12003,  // never seen (or forgotten) id
  UseAfterRelease  = 12004,  // id whose object was released
  WrongType        = 12005,  // object does not implement the interface the call needs
  NoInterface      = 12006,  // QueryInterface for an interface the object lacks (E_NOINTERFACE)
  ObjectQuota      = 12007,  // too many live objects
  MemoryQuota      = 12008,  // memory estimate above the context's budget
  RefcountOverflow = 12009,  // public count beyond any real program
  BadDependency    = 12010,  // dependency id dead/unknown, or index out of range
};

const char* tableErrorName(TableError error);

struct TableResult {
  TableError error = TableError::Ok;
  std::string message;

  bool ok() const { return error == TableError::Ok; }
  // Everything except NoInterface is a protocol violation that stops the context.
  bool fatal() const { return error != TableError::Ok && error != TableError::NoInterface; }
  HRESULT hr() const {
    return ok() ? S_OK : error == TableError::NoInterface ? E_NOINTERFACE : DXGI_ERROR_DEVICE_REMOVED;
  }
};

struct ObjectQuotas {
  uint32_t maxObjects = 1u << 20;
  uint64_t maxMemoryBytes = 8ull << 30;
  uint32_t maxTombstones = 1u << 16;
  uint32_t maxPublicRefs = 1u << 24;
};

// Per-object data the executor attaches (resource shape, mapped subresources...).
class ObjectExtra {
public:
  virtual ~ObjectExtra() = default;
};

struct ObjectInfo {
  ObjectType type = ObjectType::Device;
  IUnknown* object = nullptr;   // the backend object; owned by the table
  ObjectExtra* extra = nullptr;
  uint32_t publicRefs = 0;
  uint32_t internalRefs = 0;
  uint64_t memoryBytes = 0;
};

class ObjectTable {
public:
  explicit ObjectTable(const ObjectQuotas& quotas = {});
  ~ObjectTable();

  ObjectTable(const ObjectTable&) = delete;
  ObjectTable& operator=(const ObjectTable&) = delete;

  // Takes over one reference on `object` (may be null for objects without a backend
  // counterpart) and internal references on each dependency.
  TableResult insert(ObjectId id, ObjectType type, IUnknown* object, uint64_t memoryBytes,
                     std::span<const ObjectId> dependencies = {}, std::unique_ptr<ObjectExtra> extra = nullptr);

  TableResult addRef(ObjectId id, uint32_t* count = nullptr);
  TableResult release(ObjectId id, uint32_t* count = nullptr);
  TableResult queryInterface(ObjectId id, InterfaceId iface);
  TableResult queryInterface(ObjectId id, const GUID& iid);

  // Resolves an id for a call that needs `iface` (e.g. ID3D11Resource for CopyResource).
  TableResult lookup(ObjectId id, InterfaceId iface, ObjectInfo** out);
  // lookup's success without its result: the object's info, or null where lookup fails
  // (call lookup for the reason). The per-command path of the executor.
  ObjectInfo* findUsable(ObjectId id, InterfaceId iface);
  // The id `index`-th dependency of `id` with one more public reference (GetResource).
  TableResult acquireDependency(ObjectId id, size_t index, ObjectId* dependency);

  // Destroys every object; the table is empty afterwards (context teardown).
  void clear();

  size_t liveObjects() const { return m_objects.size(); }
  uint64_t memoryInUse() const { return m_memory; }
  const ObjectQuotas& quotas() const { return m_quotas; }

private:
  struct Entry {
    ObjectInfo info;
    std::unique_ptr<ObjectExtra> extra;
    std::vector<ObjectId> dependencies;
  };

  TableResult findLive(ObjectId id, Entry** out);
  // Drops `id` from the recently looked-up entries: it is gone or may have no public
  // reference left.
  void forgetRecent(ObjectId id);
  void dropInternalRef(ObjectId id);
  void destroy(ObjectId id);
  void remember(ObjectId id);

  ObjectQuotas m_quotas;
  std::unordered_map<ObjectId, Entry> m_objects;
  std::unordered_set<ObjectId> m_tombstones;
  std::deque<ObjectId> m_tombstoneOrder;
  uint64_t m_memory = 0;
  // lookup's recent hits by id (direct-mapped): a frame resolves the same few ids (its
  // context, the objects it binds) thousands of times, and a hit skips the hash lookup.
  // An entry's address is stable until it is erased; release and destroy forget the id.
  struct RecentLookup {
    ObjectId id = kNullObject;
    InterfaceId iface = InterfaceId::IUnknown;   // the interface the hit was checked for
    Entry* entry = nullptr;
  };
  static constexpr size_t kRecentLookups = 16;
  std::array<RecentLookup, kRecentLookups> m_recent{};
};

}  // namespace npt::objects
