// SPDX-License-Identifier: MIT
#include "class_linkage.h"

#include <cstring>
#include <string>

#include "dxbc/interfaces.h"

namespace triton::driver {

HRESULT ClassLinkage::linkage(ID3D11ClassLinkage** out) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!linkage_) {
    const HRESULT hr = target_->CreateClassLinkage(&linkage_);
    if (FAILED(hr))
      return hr;
  }
  *out = linkage_.Get();
  return S_OK;
}

HRESULT ClassLinkage::instance(UINT table, const ddi::D3D11DDIARG_POINTERDATA& data, ID3D11ClassInstance** out) {
  static_assert(sizeof(data) == sizeof(uint32_t), "POINTERDATA is one packed word");
  uint32_t packed;
  std::memcpy(&packed, &data, sizeof(packed));
  const uint64_t key = (uint64_t(table) << 32) | packed;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!linkage_)
    return E_INVALIDARG;   // no shader with interfaces was created on this device
  auto found = instances_.find(key);
  if (found == instances_.end()) {
    ComPtr<ID3D11ClassInstance> created;
    const std::string typeName = dxbc::functionTableClassName(table);
    const HRESULT hr = linkage_->CreateClassInstance(typeName.c_str(), data.uCBID, data.uCBOffset, data.uBaseTex,
                                                     data.uBaseSamp, &created);
    if (FAILED(hr))
      return hr;
    found = instances_.emplace(key, std::move(created)).first;
  }
  *out = found->second.Get();
  return S_OK;
}

}  // namespace triton::driver
