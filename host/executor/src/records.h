// SPDX-License-Identifier: MIT
#pragma once

// What the executor keeps per object beyond the backend pointer the table holds: the
// device an object belongs to, and the validated shapes later calls are checked against
// (never the backend's answers: a backend is not asked what the guest may do).

#include <memory>
#include <vector>

#include "npt/backends/caps_snapshot.h"
#include "npt/objects/object_table.h"
#include "npt/backends/caps_limits.h"
#include "npt/validation/resource.h"

namespace npt::executor {

// One backend device with its immediate context and the interfaces of newer versions
// (null where the backend lacks them). Shared by every object of the device: children
// keep it alive as they keep their device alive in D3D11.
struct DeviceState {
  ID3D11Device* device = nullptr;
  ID3D11Device1* device1 = nullptr;
  ID3D11Device3* device3 = nullptr;
  ID3D11Device5* device5 = nullptr;
  ID3D11DeviceContext* immediate = nullptr;   // GetData of queries, the presenter
  D3D_FEATURE_LEVEL featureLevel = D3D_FEATURE_LEVEL_11_0;
  std::shared_ptr<backends::CapsSnapshot> caps;
  std::unique_ptr<backends::SnapshotFormatCaps> formatCaps;
  validation::DeviceLimits limits;

  DeviceState() = default;
  DeviceState(const DeviceState&) = delete;
  DeviceState& operator=(const DeviceState&) = delete;
  ~DeviceState();
};

struct Record : objects::ObjectExtra {
  std::shared_ptr<DeviceState> device;
};

// An immediate or deferred context and its newer interfaces (null where the backend
// lacks them); references owned here besides the table's.
struct ContextState final : Record {
  ID3D11DeviceContext1* context1 = nullptr;
  ID3D11DeviceContext2* context2 = nullptr;
  ID3D11DeviceContext3* context3 = nullptr;
  bool deferred = false;
  // The topology is not UNDEFINED (the default state): Windows discards draws made
  // without one, and backends differ on them, so the executor drops them.
  bool topologyDefined = false;
  // An index buffer is bound. Windows reads indices of 0 from a missing one (every
  // primitive but a point degenerate); wined3d dereferences it and crashes, so the
  // executor drops indexed draws without one.
  bool indexBufferBound = false;

  // The state a context is in after ClearState, or after a command list without restoring.
  void resetToDefaultState() {
    topologyDefined = false;
    indexBufferBound = false;
  }

  ContextState() = default;
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;
  ~ContextState() override;
};

// DYNAMIC subresources smaller than this (tightly packed) are mirrored on the host.
constexpr uint64_t kMirroredDynamicBytes = 16 * 1024;

struct ResourceState final : Record {
  validation::ResourceShape shape;
  std::vector<uint8_t> mapped;   // per subresource: 0, or the D3D11_MAP it is mapped with
  // Per subresource of a DYNAMIC resource, for those under kMirroredDynamicBytes: the bytes
  // the guest's map memory holds (its initial data, then every Unmap applied; empty: all
  // zero so far). An Unmap may then carry only the bytes that changed even after
  // WRITE_DISCARD: the whole mirror is written to the renamed backend memory.
  std::vector<std::vector<uint8_t>> mirror;
};

struct ViewState final : Record {
  validation::ResourceShape resource;   // shape of the viewed resource
  uint32_t resourceId = 0;     // guest id of the viewed resource
  objects::ObjectType viewType = objects::ObjectType::ShaderResourceView;
  DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;   // the view's format (the resource's for a NULL desc)
};

struct QueryState final : Record {
  D3D11_QUERY query = D3D11_QUERY_EVENT;
  uint32_t dataSize = 0;        // GetDataSize of the backend object
  bool counter = false;
  int64_t slot = -1;            // push slot, -1 until BindPushSlot
  uint32_t ends = 0;            // Ends executed
  bool awaitingResult = false;  // an End whose result is not pushed yet
};

template<typename T>
void releaseAndClear(T*& object) {
  if (object) object->Release();
  object = nullptr;
}

}  // namespace npt::executor
