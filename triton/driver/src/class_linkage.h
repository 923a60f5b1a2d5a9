// SPDX-License-Identifier: MIT
#pragma once

// Dynamic shader linkage on the target. The DDI knows no class linkage object: a shader's
// token stream declares function tables and interfaces, and *SetShaderWithIfaces gives,
// per interface slot, the function table to call and where the instance's data lives
// (D3D11DDIARG_POINTERDATA). The API wants ID3D11ClassInstance objects of the
// ID3D11ClassLinkage the shader was created with. So every shader that declares
// interfaces is created with the device's one target linkage and an IFCE chunk naming one
// class type per function table (dxbc::synthesizeInterfacesChunk), and a slot's (table,
// data location) becomes an instance of that table's class type created with
// CreateClassInstance at that location, kept for the device's life.

#include <d3d11.h>

#include <cstdint>
#include <map>
#include <mutex>

#include "objects.h"
#include "triton/ddi/ddi.h"

namespace triton::driver {

class ClassLinkage {
public:
  explicit ClassLinkage(ID3D11Device* target) : target_(target) {}

  // The target linkage shaders with interfaces are created with (created on first use).
  HRESULT linkage(ID3D11ClassLinkage** out);
  // The instance selecting `table` with its data at `data` (a null instance for a table no
  // class type names: the slot is not called by the shader).
  HRESULT instance(UINT table, const ddi::D3D11DDIARG_POINTERDATA& data, ID3D11ClassInstance** out);

private:
  std::mutex mutex_;   // deferred contexts bind from their own threads
  ID3D11Device* target_;
  ComPtr<ID3D11ClassLinkage> linkage_;
  std::map<uint64_t, ComPtr<ID3D11ClassInstance>> instances_;   // (table << 32 | data) -> instance
};

}  // namespace triton::driver
