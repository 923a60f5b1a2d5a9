// SPDX-License-Identifier: MIT
#pragma once

// Facts of the SM4/SM5 tokenized program format (d3d11TokenizedProgramFormat).
// Shared by the token scanner and the assembler/disassembler.

#include <cstdint>

namespace dxbc {

enum class ProgramType : uint32_t {
  Pixel = 0, Vertex = 1, Geometry = 2, Hull = 3, Domain = 4, Compute = 5,
};

namespace token {

// Version token: minor [0:3], major [4:7], program type [16:31].
constexpr uint32_t versionMinor(uint32_t t) { return t & 0xf; }
constexpr uint32_t versionMajor(uint32_t t) { return (t >> 4) & 0xf; }
constexpr uint32_t versionProgramType(uint32_t t) { return t >> 16; }
constexpr uint32_t makeVersion(ProgramType type, uint32_t major, uint32_t minor) {
  return (uint32_t(type) << 16) | ((major & 0xf) << 4) | (minor & 0xf);
}

// Opcode token: opcode [0:10], opcode-specific controls [11:23], length [24:30],
// extended [31]. CUSTOMDATA stores its length (in dwords, header included) in the
// next token instead.
constexpr uint32_t opcode(uint32_t t) { return t & 0x7ff; }
constexpr uint32_t instructionLength(uint32_t t) { return (t >> 24) & 0x7f; }
constexpr bool opcodeExtended(uint32_t t) { return (t >> 31) != 0; }
constexpr uint32_t extendedOpcodeType(uint32_t t) { return t & 0x3f; }
constexpr bool extendedOpcodeContinues(uint32_t t) { return (t >> 31) != 0; }
// dcl_input_ps*: interpolation mode [11:14]; dcl_*_siv/sgv: the name is an extra token.
constexpr uint32_t interpolationMode(uint32_t t) { return (t >> 11) & 0xf; }
// dcl_tessellator_domain: domain [11:12].
constexpr uint32_t tessDomain(uint32_t t) { return (t >> 11) & 0x3; }
// dcl_inputcontrolpoints / dcl_outputcontrolpoints: count [11:16].
constexpr uint32_t controlPointCount(uint32_t t) { return (t >> 11) & 0x3f; }
// dcl_inputprimitive: primitive [11:16].
constexpr uint32_t gsInputPrimitive(uint32_t t) { return (t >> 11) & 0x3f; }
// customdata class [11:31].
constexpr uint32_t customDataClass(uint32_t t) { return t >> 11; }

// Operand token: component count [0:1], selection mode [2:3], mask/swizzle [4:11],
// operand type [12:19], index dimension [20:21], index representation per dimension
// [22:24] [25:27] [28:30], extended [31].
constexpr uint32_t operandNumComponents(uint32_t t) { return t & 0x3; }
constexpr uint32_t operandSelectionMode(uint32_t t) { return (t >> 2) & 0x3; }
constexpr uint32_t operandMask(uint32_t t) { return (t >> 4) & 0xf; }
constexpr uint32_t operandSwizzle(uint32_t t) { return (t >> 4) & 0xff; }
constexpr uint32_t operandSelect1(uint32_t t) { return (t >> 4) & 0x3; }
constexpr uint32_t operandType(uint32_t t) { return (t >> 12) & 0xff; }
constexpr uint32_t operandIndexDimension(uint32_t t) { return (t >> 20) & 0x3; }
constexpr uint32_t operandIndexRepresentation(uint32_t t, uint32_t dim) {
  return (t >> (22 + 3 * dim)) & 0x7;
}
constexpr bool operandExtended(uint32_t t) { return (t >> 31) != 0; }
// Extended operand token: type [0:5], modifier [6:13], min precision [14:16],
// non-uniform [17], continues [31].
constexpr uint32_t extendedOperandType(uint32_t t) { return t & 0x3f; }
constexpr uint32_t extendedOperandMinPrecision(uint32_t t) { return (t >> 14) & 0x7; }

}  // namespace token

namespace op {
constexpr uint32_t CustomData = 0x35, DclResource = 0x58, DclConstantBuffer = 0x59,
    DclSampler = 0x5a, DclIndexRange = 0x5b, DclGsOutputTopology = 0x5c,
    DclGsInputPrimitive = 0x5d, DclMaxOutputVertexCount = 0x5e, DclInput = 0x5f,
    DclInputSgv = 0x60, DclInputSiv = 0x61, DclInputPs = 0x62, DclInputPsSgv = 0x63,
    DclInputPsSiv = 0x64, DclOutput = 0x65, DclOutputSgv = 0x66, DclOutputSiv = 0x67,
    DclTemps = 0x68, DclIndexableTemp = 0x69, DclGlobalFlags = 0x6a,
    HsDecls = 0x71, HsControlPointPhase = 0x72, HsForkPhase = 0x73, HsJoinPhase = 0x74,
    EmitStream = 0x75, CutStream = 0x76, EmitThenCutStream = 0x77,
    DclStream = 0x8f, DclFunctionBody = 0x90, DclFunctionTable = 0x91,
    DclInterface = 0x92, DclInputControlPointCount = 0x93,
    DclOutputControlPointCount = 0x94, DclTessDomain = 0x95,
    DclTessPartitioning = 0x96, DclTessOutputPrimitive = 0x97,
    DclHsMaxTessFactor = 0x98, DclHsForkPhaseInstanceCount = 0x99,
    DclHsJoinPhaseInstanceCount = 0x9a, DclThreadGroup = 0x9b, DclGsInstances = 0xce;
}

namespace operand {
constexpr uint32_t Temp = 0, Input = 1, Output = 2, IndexableTemp = 3, Immediate32 = 4,
    Immediate64 = 5, Sampler = 6, Resource = 7, ConstantBuffer = 8,
    ImmediateConstantBuffer = 9, Label = 10, InputPrimitiveId = 11, OutputDepth = 12,
    Null = 13, Rasterizer = 14, OutputCoverageMask = 15, Stream = 16, FunctionBody = 17,
    FunctionTable = 18, Interface = 19, FunctionInput = 20, FunctionOutput = 21,
    OutputControlPointId = 22, InputForkInstanceId = 23, InputJoinInstanceId = 24,
    InputControlPoint = 25, OutputControlPoint = 26, InputPatchConstant = 27,
    InputDomainPoint = 28, ThisPointer = 29, UnorderedAccessView = 30,
    ThreadGroupSharedMemory = 31, InputThreadId = 32, InputThreadGroupId = 33,
    InputThreadIdInGroup = 34, InputCoverageMask = 35, InputThreadIdInGroupFlattened = 36,
    InputGsInstanceId = 37, OutputDepthGreaterEqual = 38, OutputDepthLessEqual = 39,
    CycleCounter = 40, OutputStencilRef = 41, InnerCoverage = 42;
}

// Index representations.
namespace indexrep {
constexpr uint32_t Immediate32 = 0, Immediate64 = 1, Relative = 2,
    Immediate32PlusRelative = 3, Immediate64PlusRelative = 4;
}

// D3D10_SB_NAME: the system-value names of dcl_*_siv/sgv tokens and of DDI signature
// entries. The tessellation factors are split per component here, unlike D3D_NAME.
namespace sbname {
constexpr uint32_t Undefined = 0, Position = 1, ClipDistance = 2, CullDistance = 3,
    RenderTargetArrayIndex = 4, ViewportArrayIndex = 5, VertexId = 6, PrimitiveId = 7,
    InstanceId = 8, IsFrontFace = 9, SampleIndex = 10,
    FinalQuadUEq0EdgeTessFactor = 11, FinalQuadVEq0EdgeTessFactor = 12,
    FinalQuadUEq1EdgeTessFactor = 13, FinalQuadVEq1EdgeTessFactor = 14,
    FinalQuadUInsideTessFactor = 15, FinalQuadVInsideTessFactor = 16,
    FinalTriUEq0EdgeTessFactor = 17, FinalTriVEq0EdgeTessFactor = 18,
    FinalTriWEq0EdgeTessFactor = 19, FinalTriInsideTessFactor = 20,
    FinalLineDetailTessFactor = 21, FinalLineDensityTessFactor = 22;
}

// Tessellator domain values of dcl_tessellator_domain.
namespace tessdomain {
constexpr uint32_t Undefined = 0, Isoline = 1, Tri = 2, Quad = 3;
}

}  // namespace dxbc
