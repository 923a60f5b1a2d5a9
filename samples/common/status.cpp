// SPDX-License-Identifier: MIT
#include "status.h"

#include <cstdio>

namespace npt::samples {

  Status Status::hresult(const char* what, HRESULT hr) {
    char code[32];
    std::snprintf(code, sizeof(code), " failed: 0x%08lx", static_cast<unsigned long>(hr));
    return fail(std::string(what) + code);
  }

}
