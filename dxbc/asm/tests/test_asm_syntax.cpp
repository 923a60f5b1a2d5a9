// SPDX-License-Identifier: MIT
// Encodings worked out by hand from the token format, checked in both directions: the
// fxc text assembles to exactly these tokens and the tokens disassemble to that text.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dxbc/asm/assembler.h"
#include "dxbc/asm/disassembler.h"

namespace {

struct EncodingCase {
  const char* version;                 // first line
  const char* line;                    // one statement, as the disassembler writes it
  std::vector<uint32_t> tokens;        // the statement's tokens
};

std::vector<uint32_t> versionTokens(const std::string& version) {
  std::vector<uint32_t> tokens;
  EXPECT_TRUE(dxbc::sm::assembleProgram(version + "\n", tokens).ok);
  return tokens;
}

class Encoding : public ::testing::TestWithParam<EncodingCase> { };

TEST_P(Encoding, AssemblesToTokens) {
  const EncodingCase& c = GetParam();
  std::vector<uint32_t> tokens;
  dxbc::sm::AssemblyResult result =
      dxbc::sm::assembleProgram(std::string(c.version) + "\n" + c.line + "\n", tokens);
  ASSERT_TRUE(result.ok) << result.error.format();
  ASSERT_GE(tokens.size(), 2u);
  std::vector<uint32_t> body(tokens.begin() + 2, tokens.end());
  EXPECT_EQ(body, c.tokens) << c.line;
  EXPECT_EQ(tokens[1], tokens.size());
}

TEST_P(Encoding, DisassemblesToText) {
  const EncodingCase& c = GetParam();
  std::vector<uint32_t> program = versionTokens(c.version);
  program.insert(program.end(), c.tokens.begin(), c.tokens.end());
  program[1] = uint32_t(program.size());
  std::string text;
  dxbc::sm::DisassemblyStats stats;
  ASSERT_TRUE(dxbc::sm::disassembleProgram(program, text, &stats).ok());
  EXPECT_EQ(stats.rawInstructions, 0u);
  EXPECT_EQ(text, std::string(c.version) + "\n" + c.line + "\n");
}

INSTANTIATE_TEST_SUITE_P(Syntax, Encoding, ::testing::Values(
    EncodingCase{"vs_5_0", "mov r0.xyzw, v0.xyzw",
                 {0x05000036, 0x001000f2, 0, 0x00101e46, 0}},
    EncodingCase{"ps_5_0", "sample_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0",
                 {0x8b000045, 0x800000c2, 0x00155543, 0x001000f2, 0, 0x00101046, 1,
                  0x00107e46, 0, 0x00106000, 0}},
    EncodingCase{"ps_4_0", "ld_aoffimmi(-1,2,0) r0.xyzw, r1.xyzw, t0.xyzw",
                 {0x8800002d, 0x00005e01, 0x001000f2, 0,
                  0x00100e46, 1, 0x00107e46, 0}},
    EncodingCase{"ps_4_0", "if_nz r0.x", {0x0304001f, 0x0010000a, 0}},
    EncodingCase{"ps_4_0", "breakc_z r2.w", {0x03000003, 0x0010003a, 2}},
    EncodingCase{"ps_4_0", "mul_sat o0.xyzw, r0.xyzw, l(0.500000,0.500000,0.500000,1.000000)",
                 {0x0a002038, 0x001020f2, 0, 0x00100e46, 0, 0x00004002, 0x3f000000,
                  0x3f000000, 0x3f000000, 0x3f800000}},
    EncodingCase{"vs_4_0", "dcl_constantbuffer CB0[4], immediateIndexed",
                 {0x04000059, 0x00208e46, 0, 4}},
    EncodingCase{"vs_4_0", "dcl_output_siv o0.xyzw, position", {0x04000067, 0x001020f2, 0, 1}},
    EncodingCase{"ps_4_0", "dcl_input_ps linear noperspective centroid v2.xy",
                 {0x03002862, 0x00101032, 2}},
    EncodingCase{"vs_4_0", "mov r0.x, -|r1.y|", {0x06000036, 0x00100012, 0, 0x8010001a, 0xc1, 1}},
    EncodingCase{"vs_4_0", "mov r0.xyzw, cb0[r1.x + 3].xyzw",
                 {0x08000036, 0x001000f2, 0, 0x06208e46, 0, 3, 0x0010000a, 1}},
    EncodingCase{"ps_5_0", "resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xy, l(0), t0.xyzw",
                 {0x8900103d, 0x800000c2, 0x00155543, 0x00100032, 0, 0x00004001, 0,
                  0x00107e46, 0}},
    EncodingCase{"cs_5_0", "sync_uglobal_g_t", {0x010058be}},
    EncodingCase{"cs_5_0", "dcl_tgsm_structured g0, 4, 64", {0x050000a0, 0x0011f000, 0, 4, 64}},
    EncodingCase{"cs_5_0", "dcl_uav_structured_opc u1, 16", {0x0480009e, 0x0011e000, 1, 16}},
    EncodingCase{"gs_5_0", "emit_stream m1", {0x03000075, 0x00110000, 1}},
    EncodingCase{"hs_5_0", "dcl_hs_max_tessfactor l(64.000000)", {0x02000098, 0x42800000}},
    EncodingCase{"vs_4_0", "dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},\n"
                           "                              { 0, 2, 0, -1} }",
                 {0x00001835, 10, 0x3f800000, 0, 0, 0, 0, 2, 0, 0xffffffff}},
    EncodingCase{"ps_5_0", "dadd r0.xy, r0.xyxy, d(1.500000, 0.000000)",
                 {0x0a0000bf, 0x00100032, 0, 0x00100446, 0, 0x00005002, 0, 0x3ff80000, 0, 0}},
    EncodingCase{"ps_5_0", "mad [precise(xy)] r0.xy, r1.xyxx, r2.xyxx, -r3.xyxx",
                 {0x0a180032, 0x00100032, 0, 0x00100046, 1, 0x00100046, 2, 0x80100046,
                  0x41, 3}},
    EncodingCase{"ps_5_0", "add r0.x {min16f}, r1.x {min16f}, r2.x {def32}",
                 {0x0a000000, 0x80100012, 0x4001, 0, 0x8010000a, 0x4001, 1, 0x8010000a, 1, 2}},
    EncodingCase{"ps_5_0", "samplepos o0.xy, t0.xyzw, cb0[0].x .tail 0x00000000",
                 {0x0900006e, 0x00102032, 0, 0x00107e46, 0, 0x0020800a, 0, 0, 0}},
    EncodingCase{"ps_5_0", "dcl_function_table ft1 = {fb0, fb2}", {0x05000091, 1, 2, 0, 2}},
    EncodingCase{"ps_5_0", "dcl_interface_dynamicindexed fp0[2][1] = {ft0, ft1}",
                 {0x06000892, 0, 1, 0x00020002, 0, 1}},
    EncodingCase{"ps_5_0", "customdata comment { 0x6c6c6568, 0x0000006f }",
                 {0x00000035, 4, 0x6c6c6568, 0x6f}},
    EncodingCase{"ps_5_0", "customdata opaque { }", {0x00001035, 2}},
    EncodingCase{"ps_5_0", "fcall fp0[1], 3", {0x05000078, 3, 0x00213000, 0, 1}}));

TEST(Syntax, SixDecimalFloatsKeepTheirBits) {
  // 0.1f prints as 0.100000 in fxc's notation, which reads back as the same float.
  std::vector<uint32_t> program = versionTokens("vs_4_0");
  std::vector<uint32_t> body = {0x05000036, 0x00100012, 0, 0x00004001, 0x3dcccccd};
  program.insert(program.end(), body.begin(), body.end());
  program[1] = uint32_t(program.size());
  std::string text;
  ASSERT_TRUE(dxbc::sm::disassembleProgram(program, text).ok());
  EXPECT_NE(text.find("l(0.100000)"), std::string::npos) << text;
}

TEST(Syntax, UnknownOpcodeFallsBackToRawAndRoundTrips) {
  std::vector<uint32_t> program = versionTokens("ps_5_0");
  program.insert(program.end(), {0x010000ff, 0x0100003e});   // opcode 255, then ret
  program[1] = uint32_t(program.size());
  std::string text;
  dxbc::sm::DisassemblyStats stats;
  ASSERT_TRUE(dxbc::sm::disassembleProgram(program, text, &stats).ok());
  EXPECT_EQ(stats.rawInstructions, 1u);
  EXPECT_EQ(text, "ps_5_0\n.raw 0x010000ff\nret\n");
  std::vector<uint32_t> again;
  ASSERT_TRUE(dxbc::sm::assembleProgram(text, again).ok);
  EXPECT_EQ(again, program);
}

TEST(Syntax, TruncatedProgramIsRejected) {
  std::vector<uint32_t> program = versionTokens("ps_5_0");
  program.insert(program.end(), {0x05000036, 0x001000f2});   // mov cut short
  program[1] = uint32_t(program.size());
  std::string text;
  dxbc::Status status = dxbc::sm::disassembleProgram(program, text);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code, dxbc::ErrorCode::ShaderBadInstruction);
}

}  // namespace
