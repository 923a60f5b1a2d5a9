// SPDX-License-Identifier: MIT
#pragma once

// Bit layout of shader model 4/5 tokens (d3d11TokenizedProgramFormat). Only layout lives
// here; the meaning of each opcode is in sm_opcodes.cpp.

#include <cstdint>

namespace dxbc::sm {

constexpr uint32_t bits(uint32_t value, uint32_t lo, uint32_t count) {
  return (value >> lo) & ((count >= 32) ? 0xffffffffu : ((1u << count) - 1));
}

constexpr uint32_t field(uint32_t value, uint32_t lo, uint32_t count) {
  return (value & ((count >= 32) ? 0xffffffffu : ((1u << count) - 1))) << lo;
}

// Version token: minor 0-3, major 4-7, program type 16-31.
enum class ProgramType : uint32_t { Pixel = 0, Vertex = 1, Geometry = 2, Hull = 3, Domain = 4, Compute = 5 };

// Opcode token.
constexpr uint32_t kOpcodeTypeMask = 0x7ff;
constexpr uint32_t kOpcodeLengthShift = 24;
constexpr uint32_t kOpcodeLengthBits = 7;
constexpr uint32_t kOpcodeExtendedBit = 1u << 31;
constexpr uint32_t kSaturateBit = 1u << 13;
constexpr uint32_t kTestNonZeroBit = 1u << 18;
constexpr uint32_t kPreciseShift = 19;          // 4 bits, one per component (11.1)
constexpr uint32_t kOpcodeCustomData = 53;

// Extended opcode token.
enum class ExtOpcode : uint32_t { Empty = 0, SampleControls = 1, ResourceDim = 2, ResourceReturnType = 3 };

// Operand token.
enum class NumComponents : uint32_t { Zero = 0, One = 1, Four = 2, N = 3 };
enum class SelectionMode : uint32_t { Mask = 0, Swizzle = 1, Select1 = 2 };
enum class IndexRep : uint32_t { Imm32 = 0, Imm64 = 1, Relative = 2, Imm32Relative = 3, Imm64Relative = 4 };

enum class OperandType : uint32_t {
  Temp = 0, Input = 1, Output = 2, IndexableTemp = 3, Immediate32 = 4, Immediate64 = 5,
  Sampler = 6, Resource = 7, ConstantBuffer = 8, ImmediateConstantBuffer = 9, Label = 10,
  InputPrimitiveId = 11, OutputDepth = 12, Null = 13, Rasterizer = 14, OutputCoverageMask = 15,
  Stream = 16, FunctionBody = 17, FunctionTable = 18, Interface = 19, FunctionInput = 20,
  FunctionOutput = 21, OutputControlPointId = 22, InputForkInstanceId = 23,
  InputJoinInstanceId = 24, InputControlPoint = 25, OutputControlPoint = 26,
  InputPatchConstant = 27, InputDomainPoint = 28, ThisPointer = 29, UnorderedAccessView = 30,
  ThreadGroupSharedMemory = 31, InputThreadId = 32, InputThreadGroupId = 33,
  InputThreadIdInGroup = 34, InputCoverageMask = 35, InputThreadIdInGroupFlattened = 36,
  InputGsInstanceId = 37, OutputDepthGreaterEqual = 38, OutputDepthLessEqual = 39,
  CycleCounter = 40, OutputStencilRef = 41, InnerCoverage = 42,
  Count = 43,
};

// Extended operand token: type 0-5 (1 = modifier), modifier 6-13, min precision 14-16,
// non-uniform 17 (SM5.1).
enum class OperandModifier : uint32_t { None = 0, Neg = 1, Abs = 2, AbsNeg = 3 };

struct OperandTokenLayout {
  static constexpr uint32_t numComponents(uint32_t t) { return bits(t, 0, 2); }
  static constexpr uint32_t selectionMode(uint32_t t) { return bits(t, 2, 2); }
  static constexpr uint32_t mask(uint32_t t) { return bits(t, 4, 4); }
  static constexpr uint32_t swizzle(uint32_t t) { return bits(t, 4, 8); }
  static constexpr uint32_t select1(uint32_t t) { return bits(t, 4, 2); }
  static constexpr uint32_t type(uint32_t t) { return bits(t, 12, 8); }
  static constexpr uint32_t indexDimension(uint32_t t) { return bits(t, 20, 2); }
  static constexpr uint32_t indexRep(uint32_t t, uint32_t i) { return bits(t, 22 + 3 * i, 3); }
  static constexpr bool extended(uint32_t t) { return (t >> 31) != 0; }
};

}  // namespace dxbc::sm
