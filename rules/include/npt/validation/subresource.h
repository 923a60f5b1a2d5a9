// SPDX-License-Identifier: MIT
#pragma once

// Subresource footprints, and the checks of data the guest sends for them: initial data
// of Create*, UpdateSubresource boxes and pitches.

#include <cstddef>
#include <cstdint>

#include "npt/validation/check.h"
#include "npt/validation/limits.h"
#include "npt/validation/resource.h"

namespace npt::validation {

struct SubresourceFootprint {
  uint32_t mip = 0;
  uint32_t arraySlice = 0;
  uint32_t width = 1, height = 1, depth = 1;   // texels (buffers: bytes, 1, 1)
  uint64_t rowBytes = 0;                       // bytes of one row of blocks
  uint64_t rows = 0;                           // rows of blocks, all planes
};

// False if the subresource index is out of range or the format has no memory layout.
bool footprintOf(const ResourceShape& shape, uint32_t subresource, SubresourceFootprint& out);

// One D3D11_SUBRESOURCE_DATA as the decoder received it: whether pSysMem was non-null,
// the pitches, and how many bytes the guest actually sent for it.
struct SubresourceData {
  bool present = false;
  uint32_t rowPitch = 0;
  uint32_t slicePitch = 0;
  uint64_t size = 0;
};

// count must equal the resource's subresource count when initial data is given.
Check validateInitialData(const ResourceShape& shape, const SubresourceData* data, size_t count);

struct UpdateSubresourceArgs {
  uint32_t subresource = 0;
  const D3D11_BOX* box = nullptr;
  uint32_t rowPitch = 0;
  uint32_t depthPitch = 0;
  uint64_t size = 0;                 // bytes the guest sent
  bool partialConstantUpdate = false; // UpdateSubresource1 on an 11.1 device
};

Check validateUpdateSubresource(const ResourceShape& dst, const UpdateSubresourceArgs& args);

}  // namespace npt::validation
