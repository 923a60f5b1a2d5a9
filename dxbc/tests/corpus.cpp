// SPDX-License-Identifier: MIT
#include "corpus.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace dxbc::test {

std::string corpusDir() {
  if (const char* env = std::getenv("DXBC_CORPUS_DIR"))
    return env;
  return DXBC_CORPUS_DIR;
}

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  std::error_code error;
  const std::filesystem::path root(corpusDir());
  if (!std::filesystem::is_directory(root, error))
    return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root, error))
    if (entry.is_regular_file() && entry.path().extension() == ".dxbc")
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

std::string shortName(const std::string& path) {
  std::string name = std::filesystem::path(path).stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

}  // namespace dxbc::test
