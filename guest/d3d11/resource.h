// SPDX-License-Identifier: MIT
#pragma once

#include <mutex>
#include <vector>

#include "device_child.h"
#include "formats.h"
#include "map_memory.h"

// What every resource (buffer, 1D/2D/3D texture) shares: the normalized description
// the context needs for validation and footprints, and the guest-side memory of maps
// (design.md decision 3).
//
// Map memory ("shadow"): a DYNAMIC resource's subresource keeps a guest copy of
// what the host holds, so WRITE_DISCARD and WRITE_NO_OVERWRITE return it at once
// and Unmap sends its bytes (tightly packed rows: rowPitch = width in blocks x block
// bytes, depthPitch = rowPitch x rows) — for a large buffer only the pages the
// application wrote during the map (map_memory.h). A STAGING map receives the host's bytes and
// pitches through the sync Map and, for WRITE/READ_WRITE, sends them back with Unmap.
// The guest then knows the staging subresource's contents until the GPU may write it
// (a copy or resolve into it, a command list executed): while it does, a later Map is
// answered from those bytes without a round trip (the read maps send nothing at all).
namespace npt::guest {

class Device;

struct ResourceInfo {
  D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
  D3D11_USAGE usage = D3D11_USAGE_DEFAULT;
  UINT bindFlags = 0;
  UINT cpuAccessFlags = 0;
  UINT miscFlags = 0;
  DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;   // buffers: UNKNOWN
  UINT width = 0;                             // buffers: ByteWidth
  UINT height = 1;
  UINT depth = 1;
  UINT mipLevels = 1;
  UINT arraySize = 1;
  UINT sampleCount = 1;
  UINT structureStride = 0;                   // structured buffers: StructureByteStride

  UINT subresourceCount() const { return mipLevels * arraySize; }
  UINT mipOf(UINT subresource) const { return subresource % mipLevels; }
  UINT widthOf(UINT subresource) const { return mipExtent(width, mipOf(subresource)); }
  UINT heightOf(UINT subresource) const { return mipExtent(height, mipOf(subresource)); }
  UINT depthOf(UINT subresource) const { return mipExtent(depth, mipOf(subresource)); }
  // Tight layout of a subresource (buffers: one row of width bytes).
  SubresourceFootprint footprintOf(UINT subresource) const;
};

struct MapMemory {
  MapBytes bytes;   // DYNAMIC subresources from MapBytes::kWatchFromBytes on: write-watched
  // DYNAMIC subresources below that: `bytes` as the map began, what Unmap compares with.
  std::vector<uint8_t> before;
  UINT rowPitch = 0;
  UINT depthPitch = 0;
  bool mapped = false;
  D3D11_MAP type = D3D11_MAP_READ;
  // STAGING: `bytes` are the subresource's contents, as of command-list epoch
  // `knownEpoch` of the device (Device::commandListEpoch()). DYNAMIC: the GPU holds
  // `bytes` (no copy wrote it since the last Unmap sent them, nor a command list), so a
  // NO_OVERWRITE Unmap may send only what changed.
  bool contentsKnown = false;
  uint64_t knownEpoch = 0;
  bool servedLocally = false;   // this map never reached the host
};

class ResourceState {
public:
  explicit ResourceState(const ResourceInfo& info) : m_info(info), m_maps(info.subresourceCount()) {}
  const ResourceInfo& info() const { return m_info; }
  std::mutex& mutex() { return m_mutex; }
  MapMemory& map(UINT subresource) { return m_maps[subresource]; }
  float minLod = 0.0f;   // SetResourceMinLOD, answered by GetResourceMinLOD
  // Guest copy of a DYNAMIC subresource, created on first use (initial data or zeros).
  MapMemory& shadow(UINT subresource);
  // Dynamic resources created with initial data remember it as their shadow.
  void setInitialShadow(UINT subresource, const uint8_t* data, UINT rowPitch, UINT depthPitch);
  // The GPU is going to write this resource: guest copies of its contents are stale.
  void forgetContents();

private:
  ResourceInfo m_info;
  std::mutex m_mutex;
  std::vector<MapMemory> m_maps;
};

// Implemented by Buffer and the texture classes; reached from an ID3D11Resource*
// through resourceState() (the context receives only interface pointers).
ResourceState* resourceState(ID3D11Resource* resource);
protocol::ObjectId resourceId(ID3D11Resource* resource);

// The reference a view holds on its resource: a private one, as Windows' runtime
// keeps it. A view the application released but a context still binds must not hold
// the device through its resource, or the device could never be destroyed.
class ResourceRef {
public:
  ResourceRef() = default;
  explicit ResourceRef(ID3D11Resource* resource);
  ResourceRef(const ResourceRef&) = delete;
  ResourceRef& operator=(const ResourceRef&) = delete;
  ~ResourceRef();
  ID3D11Resource* get() const { return m_resource; }

private:
  ID3D11Resource* m_resource = nullptr;
};

// Shared by every Create{Buffer,Texture*}: validates the initial data pointers and
// copies every subresource, tightly packed, into one bulk allocation referenced by
// NPT_SUBRESOURCE_DATA entries (the overlay: initial data always travels in bulk).
bool stageInitialData(Recorder& r, const ResourceInfo& info, const D3D11_SUBRESOURCE_DATA* data,
                      std::vector<NPT_SUBRESOURCE_DATA>& out);

}
