// SPDX-License-Identifier: MIT
#pragma once

// A minimal PNG writer (8-bit RGBA, stored deflate blocks) for the headless presenter's
// captures. The Windows server (the CI configuration) has no libpng, and tools/image is
// native-only and built after host/, so the presenter carries this small encoder.

#include <cstdint>
#include <string>
#include <vector>

namespace npt::executor {

// rgba: width * height * 4 bytes, rows tightly packed. Returns an empty string or why not.
std::string writePngFile(const std::string& path, uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba);

}  // namespace npt::executor
