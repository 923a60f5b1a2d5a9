// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <mutex>
#include <vector>

#include <d3d11_4.h>

namespace npt::guest {

// A device's table of live state objects by normalized description (states.h): the
// same description gives the same object, as on Windows.
class StateCache {
public:
  // Returns the live object for key AddRef'd, or null.
  IUnknown* find(const std::vector<uint8_t>& key);
  void insert(const std::vector<uint8_t>& key, IUnknown* object);
  void erase(const std::vector<uint8_t>& key, IUnknown* object);

private:
  std::mutex m_mutex;
  std::map<std::vector<uint8_t>, IUnknown*> m_objects;
};

}
