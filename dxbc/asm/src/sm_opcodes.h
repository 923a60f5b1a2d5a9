// SPDX-License-Identifier: MIT
#pragma once

// The data-driven description of shader model 4.0-5.1 instructions: one row per opcode.
// The disassembler and the assembler both read these rows, so a name, an operand count
// or a flag exists in exactly one place.

#include <cstdint>
#include <span>
#include <string_view>

#include "sm_tokens.h"

namespace dxbc::sm {

// How literal operands of an instruction are best printed (never changes their bits).
enum class ValueType : uint8_t { Any, Float, Int, Uint, Double };

// The shape of an instruction after its opcode token.
enum class OpForm : uint8_t {
  Generic,                // numDst destination operands, then numSrc source operands
  InterfaceCall,          // fcall fp#[..][..], with a function index token first
  CustomData,             // customdata block (immediate constant buffer, comments, ...)
  DclGlobalFlags,         // flags in opcode bits 11-18
  DclConstantBuffer,      // cb operand, access pattern in bit 11
  DclSampler,             // s operand, mode in bits 11-14
  DclResource,            // dimension, sample count, t operand, return type token
  DclOperand,             // one operand (dcl_input, dcl_output, dcl_stream, ...)
  DclOperandName,         // operand + system value name token (siv/sgv)
  DclInputPs,             // interpolation mode in bits 11-14 + operand
  DclInputPsName,         // interpolation mode + operand + name token
  DclCount,               // one literal count token (dcl_temps, dcl_maxout, ...)
  DclIndexableTemp,       // register, size, component count tokens
  DclIndexRange,          // operand + count token
  DclGsInputPrimitive,    // primitive in bits 11-16
  DclGsOutputTopology,    // topology in bits 11-17
  DclControlPointCount,   // count in bits 11-16
  DclTessDomain,          // bits 11-12
  DclTessPartitioning,    // bits 11-13
  DclTessOutputPrimitive, // bits 11-13
  DclFloat,               // one float token (dcl_hs_max_tessfactor)
  DclThreadGroup,         // three count tokens
  DclUavTyped,            // dimension bits 11-15, coherency, operand, return type token
  DclUavRaw,              // coherency flags, operand
  DclUavStructured,       // coherency/counter flags, operand, stride
  DclTgsmRaw,             // operand, byte count
  DclTgsmStructured,      // operand, stride, count
  DclResourceRaw,         // operand
  DclResourceStructured,  // operand, stride
  DclFunctionBody,        // fb index token
  DclFunctionTable,       // ft index, count, fb indices
  DclInterface,           // fp index, table count, array/table lengths, ft indices
  Phase,                  // hs_decls, hs_*_phase: no operands
};

enum OpFlag : uint16_t {
  kOpTest = 1u << 0,         // bit 18 selects _z / _nz
  kOpResInfo = 1u << 1,      // bits 11-12: return type (_uint, _rcpFloat)
  kOpSync = 1u << 2,         // bits 11-14: sync flags
  kOpSampleInfo = 1u << 3,   // bit 11: _uint
  kOpDeclaration = 1u << 4,  // counts as a declaration
  kOpNoSaturate = 1u << 5,   // bit 13 has another meaning or none
};

struct OpcodeInfo {
  std::string_view name;
  uint16_t opcode;
  uint8_t numDst;
  uint8_t numSrc;
  ValueType type;
  OpForm form;
  uint16_t flags;
};

// Row for an opcode number, or nullptr for unknown/reserved numbers.
const OpcodeInfo* findOpcode(uint32_t opcode);
// Row for an exact mnemonic (lower case, as printed), or nullptr.
const OpcodeInfo* findOpcodeByName(std::string_view name);

// Name tables shared by both directions. Each returns nullptr/false when unknown.
struct NamedValue {
  std::string_view name;
  uint32_t value;
};

const char* operandTypePrefix(OperandType type);           // "r", "v", "vThreadID", ...
bool operandTypeIsIndexless(OperandType type);             // vPrim, oDepth, null, ...
bool operandTypeFromPrefix(std::string_view prefix, OperandType* type);

std::string_view nameOf(std::span<const NamedValue> table, uint32_t value);
bool valueOf(std::span<const NamedValue> table, std::string_view name, uint32_t* value);

extern const std::span<const NamedValue> kResourceDimensions;   // texture2d, buffer, ...
extern const std::span<const NamedValue> kReturnTypes;          // float, uint, mixed, ...
extern const std::span<const NamedValue> kSystemValueNames;     // position, clip_distance, ...
extern const std::span<const NamedValue> kInterpolationModes;   // constant, linear, ...
extern const std::span<const NamedValue> kGlobalFlags;          // refactoringAllowed, ...
extern const std::span<const NamedValue> kSamplerModes;         // mode_default, ...
extern const std::span<const NamedValue> kGsPrimitives;         // point, triangle, ...
extern const std::span<const NamedValue> kGsTopologies;         // pointlist, trianglestrip, ...
extern const std::span<const NamedValue> kTessDomains;          // domain_tri, ...
extern const std::span<const NamedValue> kTessPartitionings;    // partitioning_integer, ...
extern const std::span<const NamedValue> kTessOutputPrimitives; // output_triangle_cw, ...
extern const std::span<const NamedValue> kMinPrecisions;        // min16f, ...
extern const std::span<const NamedValue> kCustomDataClasses;    // comment, debuginfo, ...

}  // namespace dxbc::sm

namespace dxbc::sm {

// Component count an operand written without a component suffix gets: one for the scalar
// system registers (vPrim, oDepth, oMask, ...), zero otherwise (s#, t# in declarations,
// null, labels). Both directions use it, which keeps the text lossless.
NumComponents componentsWithoutSuffix(OperandType type);

}  // namespace dxbc::sm

namespace dxbc::sm {

// What a declaration operand written without a suffix encodes: fxc declares constant
// buffers (and SM5.1 resource ranges) as 4-component .xyzw swizzles, some scalar system
// registers as one component and everything else without components.
enum class DeclComponents : uint8_t { Zero, One, FourSwizzleXyzw };
DeclComponents declComponentsWithoutSuffix(OperandType type, bool sm51);

}  // namespace dxbc::sm
