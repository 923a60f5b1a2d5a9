// SPDX-License-Identifier: MIT
#pragma once

// Access to ../shared/corpus/dxbc (real fxc output); tests skip when it is absent.

#include <filesystem>
#include <string>
#include <vector>

namespace dxbc::test {

std::string corpusDir();
std::vector<std::string> corpusFiles();      // sorted *.dxbc paths, empty if absent
std::vector<uint8_t> readBytes(const std::string& path);
std::string shortName(const std::string& path);

}  // namespace dxbc::test
