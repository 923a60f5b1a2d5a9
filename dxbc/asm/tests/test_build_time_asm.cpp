// SPDX-License-Identifier: MIT
// The build-time path samples use: meson runs dxbc-asm (dxbc_asm_header_gen) on an .asm
// file and the program embeds the container. The embedded bytes must be what the
// library assembles from the same text, and a valid container.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "cs_shared.h"   // generated at build time from shaders/cs_shared.asm
#include "dxbc/asm/assembler.h"
#include "dxbc/container.h"

namespace {

TEST(BuildTimeAssembly, EmbeddedContainerMatchesLibraryOutput) {
  std::vector<uint8_t> embedded(cs_shared, cs_shared + cs_shared_size);
  dxbc::ContainerReader reader;
  ASSERT_TRUE(dxbc::ContainerReader::parse(embedded, reader).ok());

  std::ifstream file(std::filesystem::path(DXBC_ASM_SHADER_DIR) / "cs_shared.asm");
  std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  std::vector<uint8_t> assembled;
  ASSERT_TRUE(dxbc::sm::assembleContainer(text, assembled).ok);
  EXPECT_EQ(assembled, embedded);
}

}  // namespace
