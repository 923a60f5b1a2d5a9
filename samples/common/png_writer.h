// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "image.h"

namespace npt::samples {

  // Encodes through the Windows Imaging Component so the samples need no
  // third-party code. Returns an empty string or an error message.
  std::string writePng(const std::string& path, const Image& image);

}
