// SPDX-License-Identifier: MIT
#pragma once

// Walks a token stream and collects what signatures are made of: every input/output
// declaration with its register, mask, system value, stream, hull-shader phase and the
// signature it belongs to. Everything else is skipped by length, including extended
// opcodes and custom-data blocks. Every read is bounds-checked.

#include <cstdint>
#include <vector>

#include "dxbc/shader_code.h"
#include "dxbc/signature.h"
#include "dxbc/status.h"

namespace dxbc {

enum class HullPhase : uint8_t { None, Declarations, ControlPoint, Fork, Join };

struct IoDeclaration {
  uint32_t opcode = 0;             // op::DclInput... op::DclOutputSiv
  uint32_t operandType = 0;        // operand::Input, Output, InputPatchConstant, OutputDepth...
  SignatureKind signature = SignatureKind::Input;
  uint32_t registerIndex = kNoRegister;   // kNoRegister for register-less operands
  uint32_t registerCount = 1;      // >1 when covered by dcl_indexRange
  uint8_t mask = 0;                // component mask (register-less scalars: 0x1)
  uint32_t systemValue = 0;        // D3D10_SB_NAME of _siv/_sgv forms, else 0
  uint32_t interpolation = 0;      // dcl_input_ps*: D3D10_SB_INTERPOLATION_MODE
  uint32_t minPrecision = 0;       // from an extended operand token, if any
  uint32_t stream = 0;             // GS: the preceding dcl_stream
  HullPhase phase = HullPhase::None;
  uint32_t tokenOffset = 0;        // index of the opcode token
};

// Components of one input register that instructions read.
struct RegisterRead {
  SignatureKind signature = SignatureKind::Input;
  uint32_t registerIndex = 0;
  uint8_t mask = 0;
};

// Components of a register that typed instructions write (outputs) or read (inputs) as
// float, unsigned or signed integers; how the 11.0 stride recovers component types.
struct TypeEvidence {
  SignatureKind signature = SignatureKind::Input;
  uint32_t registerIndex = 0;
  uint8_t floatMask = 0;
  uint8_t uintMask = 0;
  uint8_t sintMask = 0;
};

struct ShaderInfo {
  ProgramType type = ProgramType::Pixel;
  uint32_t major = 0;
  uint32_t minor = 0;
  uint32_t lengthInTokens = 0;
  std::vector<IoDeclaration> declarations;
  uint32_t inputControlPointCount = 0;
  uint32_t outputControlPointCount = 0;
  uint32_t tessDomain = 0;                // tessdomain::*
  uint32_t gsInputPrimitive = 0;
  uint32_t streamMask = 0;                // bit per dcl_stream
  bool hasControlPointPhase = false;
  bool usesMinPrecision = false;          // any operand with a min-precision modifier
  uint32_t instructionCount = 0;
  uint32_t globalFlags = 0;         // dcl_globalFlags bits (opcode token bits 11..23)
  // Input usage as the instructions show it (fxc's "used" mask of input elements).
  std::vector<RegisterRead> reads;
  bool readsComplete = true;        // false if some instruction's operands were not parsed
  bool inputReadsRelative = false;  // an input was read with a relative register index
  bool patchReadsRelative = false;
  std::vector<TypeEvidence> typeEvidence;
};

Status scanShader(const ShaderCode& code, ShaderInfo& out);

}  // namespace dxbc
