// SPDX-License-Identifier: MIT
// Assembly errors are values with the line and column of the offending token.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dxbc/asm/assembler.h"

namespace {

struct ErrorCase {
  const char* text;
  uint32_t line;
  uint32_t column;
  const char* messagePart;
};

class AssemblyErrors : public ::testing::TestWithParam<ErrorCase> { };

TEST_P(AssemblyErrors, ReportsPosition) {
  const ErrorCase& c = GetParam();
  std::vector<uint32_t> tokens;
  dxbc::sm::AssemblyResult result = dxbc::sm::assembleProgram(c.text, tokens);
  ASSERT_FALSE(result.ok) << c.text;
  EXPECT_EQ(result.error.line, c.line) << result.error.format();
  EXPECT_EQ(result.error.column, c.column) << result.error.format();
  EXPECT_NE(result.error.message.find(c.messagePart), std::string::npos) << result.error.format();
  EXPECT_TRUE(tokens.empty());
}

INSTANTIATE_TEST_SUITE_P(Errors, AssemblyErrors, ::testing::Values(
    ErrorCase{"mov r0.x, r1.x\n", 1, 1, "expected a version"},
    ErrorCase{"vs_6_0\n", 1, 1, "4.0 to 5.1"},
    ErrorCase{"vs_5_0\nfrobnicate r0.x\n", 2, 1, "unknown instruction"},
    ErrorCase{"vs_5_0\nmov r0.x\n", 2, 9, "takes 2 operand"},
    ErrorCase{"vs_5_0\nmov r0.x, q1.x\n", 2, 11, "unknown register"},
    ErrorCase{"vs_5_0\n  mov r0.yx, r1.x\n", 2, 10, "xyzw order"},
    ErrorCase{"vs_5_0\nmov r0.x, r1.q\n", 2, 14, "x, y, z and w"},
    ErrorCase{"vs_5_0\nif r0.x\n", 2, 1, "_z or _nz"},
    ErrorCase{"vs_5_0\nmov_nz r0.x, r1.x\n", 2, 1, "no suffix _nz"},
    ErrorCase{"vs_5_0\nmov r0.x, l(1, 2)\n", 2, 11, "one or four"},
    ErrorCase{"vs_5_0\nmov r0.x, l(99999999999)\n", 2, 13, "32 bits"},
    ErrorCase{"vs_5_0\nmov r0.x, r1.x r2.x\n", 2, 16, "end of the statement"},
    ErrorCase{"ps_5_0\nsample_aoffimmi(9,0,0) r0, r1, t0, s0\n", 2, 17, "-8 to 7"},
    ErrorCase{"ps_5_0\ndcl_resource_texture2d (float,float,bogus,float) t0\n", 2, 37, "return type"},
    ErrorCase{"ps_5_0\ndcl_sampler s0, mode_fancy\n", 2, 17, "sampler mode"},
    ErrorCase{"ps_5_0\nmov r0.x, r1.x $\n", 2, 16, "unexpected character"},
    ErrorCase{"ps_5_0\ndcl_input_ps sample linear v0.x\n", 2, 14, "interpolation mode"},
    ErrorCase{"hs_5_0\ndcl_input_control_point_count 64\n", 2, 31, "exceeds 63"}));

TEST(AssemblyErrorFormat, FileLineColumnMessage) {
  dxbc::sm::AssemblyError error{3, 7, "unknown register 'q1'"};
  EXPECT_EQ(error.format("shader.asm"), "shader.asm:3:7: unknown register 'q1'");
  EXPECT_EQ(error.format(), "3:7: unknown register 'q1'");
}

TEST(AssemblyErrorFormat, ContainerAssemblyReportsProgramErrors) {
  std::vector<uint8_t> container;
  dxbc::sm::AssemblyResult result =
      dxbc::sm::assembleContainer("// comment\nps_5_0\nret\nbogus\n", container);
  ASSERT_FALSE(result.ok);
  EXPECT_EQ(result.error.line, 4u);
  EXPECT_EQ(result.error.column, 1u);
}

}  // namespace
