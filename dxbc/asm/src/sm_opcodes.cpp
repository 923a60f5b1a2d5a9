// SPDX-License-Identifier: MIT
#include "sm_opcodes.h"

#include <array>
#include <cctype>

namespace dxbc::sm {
namespace {

using V = ValueType;
using F = OpForm;

constexpr uint16_t D = kOpDeclaration;

// One row per opcode: name as fxc prints it, number, destination and source operand
// counts, how to print literals, shape, flags.
constexpr OpcodeInfo kOpcodes[] = {
  {"add", 0, 1, 2, V::Float, F::Generic, 0},
  {"and", 1, 1, 2, V::Uint, F::Generic, 0},
  {"break", 2, 0, 0, V::Any, F::Generic, 0},
  {"breakc", 3, 0, 1, V::Uint, F::Generic, kOpTest},
  {"call", 4, 0, 1, V::Any, F::Generic, 0},
  {"callc", 5, 0, 2, V::Uint, F::Generic, kOpTest},
  {"case", 6, 0, 1, V::Int, F::Generic, 0},
  {"continue", 7, 0, 0, V::Any, F::Generic, 0},
  {"continuec", 8, 0, 1, V::Uint, F::Generic, kOpTest},
  {"cut", 9, 0, 0, V::Any, F::Generic, 0},
  {"default", 10, 0, 0, V::Any, F::Generic, 0},
  {"deriv_rtx", 11, 1, 1, V::Float, F::Generic, 0},
  {"deriv_rty", 12, 1, 1, V::Float, F::Generic, 0},
  {"discard", 13, 0, 1, V::Uint, F::Generic, kOpTest},
  {"div", 14, 1, 2, V::Float, F::Generic, 0},
  {"dp2", 15, 1, 2, V::Float, F::Generic, 0},
  {"dp3", 16, 1, 2, V::Float, F::Generic, 0},
  {"dp4", 17, 1, 2, V::Float, F::Generic, 0},
  {"else", 18, 0, 0, V::Any, F::Generic, 0},
  {"emit", 19, 0, 0, V::Any, F::Generic, 0},
  {"emit_then_cut", 20, 0, 0, V::Any, F::Generic, 0},
  {"endif", 21, 0, 0, V::Any, F::Generic, 0},
  {"endloop", 22, 0, 0, V::Any, F::Generic, 0},
  {"endswitch", 23, 0, 0, V::Any, F::Generic, 0},
  {"eq", 24, 1, 2, V::Float, F::Generic, 0},
  {"exp", 25, 1, 1, V::Float, F::Generic, 0},
  {"frc", 26, 1, 1, V::Float, F::Generic, 0},
  {"ftoi", 27, 1, 1, V::Float, F::Generic, 0},
  {"ftou", 28, 1, 1, V::Float, F::Generic, 0},
  {"ge", 29, 1, 2, V::Float, F::Generic, 0},
  {"iadd", 30, 1, 2, V::Int, F::Generic, 0},
  {"if", 31, 0, 1, V::Uint, F::Generic, kOpTest},
  {"ieq", 32, 1, 2, V::Int, F::Generic, 0},
  {"ige", 33, 1, 2, V::Int, F::Generic, 0},
  {"ilt", 34, 1, 2, V::Int, F::Generic, 0},
  {"imad", 35, 1, 3, V::Int, F::Generic, 0},
  {"imax", 36, 1, 2, V::Int, F::Generic, 0},
  {"imin", 37, 1, 2, V::Int, F::Generic, 0},
  {"imul", 38, 2, 2, V::Int, F::Generic, 0},
  {"ine", 39, 1, 2, V::Int, F::Generic, 0},
  {"ineg", 40, 1, 1, V::Int, F::Generic, 0},
  {"ishl", 41, 1, 2, V::Int, F::Generic, 0},
  {"ishr", 42, 1, 2, V::Int, F::Generic, 0},
  {"itof", 43, 1, 1, V::Int, F::Generic, 0},
  {"label", 44, 0, 1, V::Any, F::Generic, 0},
  {"ld", 45, 1, 2, V::Int, F::Generic, 0},
  {"ldms", 46, 1, 3, V::Int, F::Generic, 0},
  {"log", 47, 1, 1, V::Float, F::Generic, 0},
  {"loop", 48, 0, 0, V::Any, F::Generic, 0},
  {"lt", 49, 1, 2, V::Float, F::Generic, 0},
  {"mad", 50, 1, 3, V::Float, F::Generic, 0},
  {"min", 51, 1, 2, V::Float, F::Generic, 0},
  {"max", 52, 1, 2, V::Float, F::Generic, 0},
  {"customdata", 53, 0, 0, V::Any, F::CustomData, 0},
  {"mov", 54, 1, 1, V::Any, F::Generic, 0},
  {"movc", 55, 1, 3, V::Any, F::Generic, 0},
  {"mul", 56, 1, 2, V::Float, F::Generic, 0},
  {"ne", 57, 1, 2, V::Float, F::Generic, 0},
  {"nop", 58, 0, 0, V::Any, F::Generic, 0},
  {"not", 59, 1, 1, V::Uint, F::Generic, 0},
  {"or", 60, 1, 2, V::Uint, F::Generic, 0},
  {"resinfo", 61, 1, 2, V::Uint, F::Generic, kOpResInfo},
  {"ret", 62, 0, 0, V::Any, F::Generic, 0},
  {"retc", 63, 0, 1, V::Uint, F::Generic, kOpTest},
  {"round_ne", 64, 1, 1, V::Float, F::Generic, 0},
  {"round_ni", 65, 1, 1, V::Float, F::Generic, 0},
  {"round_pi", 66, 1, 1, V::Float, F::Generic, 0},
  {"round_z", 67, 1, 1, V::Float, F::Generic, 0},
  {"rsq", 68, 1, 1, V::Float, F::Generic, 0},
  {"sample", 69, 1, 3, V::Float, F::Generic, 0},
  {"sample_c", 70, 1, 4, V::Float, F::Generic, 0},
  {"sample_c_lz", 71, 1, 4, V::Float, F::Generic, 0},
  {"sample_l", 72, 1, 4, V::Float, F::Generic, 0},
  {"sample_d", 73, 1, 5, V::Float, F::Generic, 0},
  {"sample_b", 74, 1, 4, V::Float, F::Generic, 0},
  {"sqrt", 75, 1, 1, V::Float, F::Generic, 0},
  {"switch", 76, 0, 1, V::Int, F::Generic, 0},
  {"sincos", 77, 2, 1, V::Float, F::Generic, 0},
  {"udiv", 78, 2, 2, V::Uint, F::Generic, 0},
  {"ult", 79, 1, 2, V::Uint, F::Generic, 0},
  {"uge", 80, 1, 2, V::Uint, F::Generic, 0},
  {"umul", 81, 2, 2, V::Uint, F::Generic, 0},
  {"umad", 82, 1, 3, V::Uint, F::Generic, 0},
  {"umax", 83, 1, 2, V::Uint, F::Generic, 0},
  {"umin", 84, 1, 2, V::Uint, F::Generic, 0},
  {"ushr", 85, 1, 2, V::Uint, F::Generic, 0},
  {"utof", 86, 1, 1, V::Uint, F::Generic, 0},
  {"xor", 87, 1, 2, V::Uint, F::Generic, 0},
  {"dcl_resource", 88, 0, 0, V::Any, F::DclResource, D},
  {"dcl_constantbuffer", 89, 0, 0, V::Any, F::DclConstantBuffer, D},
  {"dcl_sampler", 90, 0, 0, V::Any, F::DclSampler, D},
  {"dcl_indexrange", 91, 0, 0, V::Any, F::DclIndexRange, D},
  {"dcl_outputtopology", 92, 0, 0, V::Any, F::DclGsOutputTopology, D},
  {"dcl_inputprimitive", 93, 0, 0, V::Any, F::DclGsInputPrimitive, D},
  {"dcl_maxout", 94, 0, 0, V::Any, F::DclCount, D},
  {"dcl_input", 95, 0, 0, V::Any, F::DclOperand, D},
  {"dcl_input_sgv", 96, 0, 0, V::Any, F::DclOperandName, D},
  {"dcl_input_siv", 97, 0, 0, V::Any, F::DclOperandName, D},
  {"dcl_input_ps", 98, 0, 0, V::Any, F::DclInputPs, D},
  {"dcl_input_ps_sgv", 99, 0, 0, V::Any, F::DclInputPsName, D},
  {"dcl_input_ps_siv", 100, 0, 0, V::Any, F::DclInputPsName, D},
  {"dcl_output", 101, 0, 0, V::Any, F::DclOperand, D},
  {"dcl_output_sgv", 102, 0, 0, V::Any, F::DclOperandName, D},
  {"dcl_output_siv", 103, 0, 0, V::Any, F::DclOperandName, D},
  {"dcl_temps", 104, 0, 0, V::Any, F::DclCount, D},
  {"dcl_indexableTemp", 105, 0, 0, V::Any, F::DclIndexableTemp, D},
  {"dcl_globalFlags", 106, 0, 0, V::Any, F::DclGlobalFlags, D},
  {"lod", 108, 1, 3, V::Float, F::Generic, 0},
  {"gather4", 109, 1, 3, V::Float, F::Generic, 0},
  {"samplepos", 110, 1, 2, V::Int, F::Generic, 0},
  {"sampleinfo", 111, 1, 1, V::Any, F::Generic, kOpSampleInfo},
  {"hs_decls", 113, 0, 0, V::Any, F::Phase, 0},
  {"hs_control_point_phase", 114, 0, 0, V::Any, F::Phase, 0},
  {"hs_fork_phase", 115, 0, 0, V::Any, F::Phase, 0},
  {"hs_join_phase", 116, 0, 0, V::Any, F::Phase, 0},
  {"emit_stream", 117, 0, 1, V::Any, F::Generic, 0},
  {"cut_stream", 118, 0, 1, V::Any, F::Generic, 0},
  {"emit_then_cut_stream", 119, 0, 1, V::Any, F::Generic, 0},
  {"fcall", 120, 0, 1, V::Any, F::InterfaceCall, 0},
  {"bufinfo", 121, 1, 1, V::Any, F::Generic, 0},
  {"deriv_rtx_coarse", 122, 1, 1, V::Float, F::Generic, 0},
  {"deriv_rtx_fine", 123, 1, 1, V::Float, F::Generic, 0},
  {"deriv_rty_coarse", 124, 1, 1, V::Float, F::Generic, 0},
  {"deriv_rty_fine", 125, 1, 1, V::Float, F::Generic, 0},
  {"gather4_c", 126, 1, 4, V::Float, F::Generic, 0},
  {"gather4_po", 127, 1, 4, V::Float, F::Generic, 0},
  {"gather4_po_c", 128, 1, 5, V::Float, F::Generic, 0},
  {"rcp", 129, 1, 1, V::Float, F::Generic, 0},
  {"f32tof16", 130, 1, 1, V::Float, F::Generic, 0},
  {"f16tof32", 131, 1, 1, V::Uint, F::Generic, 0},
  {"uaddc", 132, 2, 2, V::Uint, F::Generic, 0},
  {"usubb", 133, 2, 2, V::Uint, F::Generic, 0},
  {"countbits", 134, 1, 1, V::Uint, F::Generic, 0},
  {"firstbit_hi", 135, 1, 1, V::Uint, F::Generic, 0},
  {"firstbit_lo", 136, 1, 1, V::Uint, F::Generic, 0},
  {"firstbit_shi", 137, 1, 1, V::Int, F::Generic, 0},
  {"ubfe", 138, 1, 3, V::Uint, F::Generic, 0},
  {"ibfe", 139, 1, 3, V::Int, F::Generic, 0},
  {"bfi", 140, 1, 4, V::Uint, F::Generic, 0},
  {"bfrev", 141, 1, 1, V::Uint, F::Generic, 0},
  {"swapc", 142, 2, 3, V::Any, F::Generic, 0},
  {"dcl_stream", 143, 0, 0, V::Any, F::DclOperand, D},
  {"dcl_function_body", 144, 0, 0, V::Any, F::DclFunctionBody, D},
  {"dcl_function_table", 145, 0, 0, V::Any, F::DclFunctionTable, D},
  {"dcl_interface", 146, 0, 0, V::Any, F::DclInterface, D},
  {"dcl_input_control_point_count", 147, 0, 0, V::Any, F::DclControlPointCount, D},
  {"dcl_output_control_point_count", 148, 0, 0, V::Any, F::DclControlPointCount, D},
  {"dcl_tessellator_domain", 149, 0, 0, V::Any, F::DclTessDomain, D},
  {"dcl_tessellator_partitioning", 150, 0, 0, V::Any, F::DclTessPartitioning, D},
  {"dcl_tessellator_output_primitive", 151, 0, 0, V::Any, F::DclTessOutputPrimitive, D},
  {"dcl_hs_max_tessfactor", 152, 0, 0, V::Float, F::DclFloat, D},
  {"dcl_hs_fork_phase_instance_count", 153, 0, 0, V::Any, F::DclCount, D},
  {"dcl_hs_join_phase_instance_count", 154, 0, 0, V::Any, F::DclCount, D},
  {"dcl_thread_group", 155, 0, 0, V::Any, F::DclThreadGroup, D},
  {"dcl_uav_typed", 156, 0, 0, V::Any, F::DclUavTyped, D},
  {"dcl_uav_raw", 157, 0, 0, V::Any, F::DclUavRaw, D},
  {"dcl_uav_structured", 158, 0, 0, V::Any, F::DclUavStructured, D},
  {"dcl_tgsm_raw", 159, 0, 0, V::Any, F::DclTgsmRaw, D},
  {"dcl_tgsm_structured", 160, 0, 0, V::Any, F::DclTgsmStructured, D},
  {"dcl_resource_raw", 161, 0, 0, V::Any, F::DclResourceRaw, D},
  {"dcl_resource_structured", 162, 0, 0, V::Any, F::DclResourceStructured, D},
  {"ld_uav_typed", 163, 1, 2, V::Int, F::Generic, 0},
  {"store_uav_typed", 164, 1, 2, V::Any, F::Generic, 0},
  {"ld_raw", 165, 1, 2, V::Int, F::Generic, 0},
  {"store_raw", 166, 1, 2, V::Any, F::Generic, 0},
  {"ld_structured", 167, 1, 3, V::Int, F::Generic, 0},
  {"store_structured", 168, 1, 3, V::Any, F::Generic, 0},
  {"atomic_and", 169, 1, 2, V::Uint, F::Generic, 0},
  {"atomic_or", 170, 1, 2, V::Uint, F::Generic, 0},
  {"atomic_xor", 171, 1, 2, V::Uint, F::Generic, 0},
  {"atomic_cmp_store", 172, 1, 3, V::Uint, F::Generic, 0},
  {"atomic_iadd", 173, 1, 2, V::Int, F::Generic, 0},
  {"atomic_imax", 174, 1, 2, V::Int, F::Generic, 0},
  {"atomic_imin", 175, 1, 2, V::Int, F::Generic, 0},
  {"atomic_umax", 176, 1, 2, V::Uint, F::Generic, 0},
  {"atomic_umin", 177, 1, 2, V::Uint, F::Generic, 0},
  {"imm_atomic_alloc", 178, 1, 1, V::Uint, F::Generic, 0},
  {"imm_atomic_consume", 179, 1, 1, V::Uint, F::Generic, 0},
  {"imm_atomic_iadd", 180, 2, 2, V::Int, F::Generic, 0},
  {"imm_atomic_and", 181, 2, 2, V::Uint, F::Generic, 0},
  {"imm_atomic_or", 182, 2, 2, V::Uint, F::Generic, 0},
  {"imm_atomic_xor", 183, 2, 2, V::Uint, F::Generic, 0},
  {"imm_atomic_exch", 184, 2, 2, V::Any, F::Generic, 0},
  {"imm_atomic_cmp_exch", 185, 2, 3, V::Any, F::Generic, 0},
  {"imm_atomic_imax", 186, 2, 2, V::Int, F::Generic, 0},
  {"imm_atomic_imin", 187, 2, 2, V::Int, F::Generic, 0},
  {"imm_atomic_umax", 188, 2, 2, V::Uint, F::Generic, 0},
  {"imm_atomic_umin", 189, 2, 2, V::Uint, F::Generic, 0},
  {"sync", 190, 0, 0, V::Any, F::Generic, kOpSync | kOpNoSaturate},
  {"dadd", 191, 1, 2, V::Double, F::Generic, 0},
  {"dmax", 192, 1, 2, V::Double, F::Generic, 0},
  {"dmin", 193, 1, 2, V::Double, F::Generic, 0},
  {"dmul", 194, 1, 2, V::Double, F::Generic, 0},
  {"deq", 195, 1, 2, V::Double, F::Generic, 0},
  {"dge", 196, 1, 2, V::Double, F::Generic, 0},
  {"dlt", 197, 1, 2, V::Double, F::Generic, 0},
  {"dne", 198, 1, 2, V::Double, F::Generic, 0},
  {"dmov", 199, 1, 1, V::Double, F::Generic, 0},
  {"dmovc", 200, 1, 3, V::Double, F::Generic, 0},
  {"dtof", 201, 1, 1, V::Double, F::Generic, 0},
  {"ftod", 202, 1, 1, V::Float, F::Generic, 0},
  {"eval_snapped", 203, 1, 2, V::Int, F::Generic, 0},
  {"eval_sample_index", 204, 1, 2, V::Int, F::Generic, 0},
  {"eval_centroid", 205, 1, 1, V::Any, F::Generic, 0},
  {"dcl_gsinstances", 206, 0, 0, V::Any, F::DclCount, D},
  {"abort", 207, 0, 0, V::Any, F::Generic, 0},
  {"debug_break", 208, 0, 0, V::Any, F::Generic, 0},
  {"ddiv", 210, 1, 2, V::Double, F::Generic, 0},
  {"dfma", 211, 1, 3, V::Double, F::Generic, 0},
  {"drcp", 212, 1, 1, V::Double, F::Generic, 0},
  {"msad", 213, 1, 3, V::Uint, F::Generic, 0},
  {"dtoi", 214, 1, 1, V::Double, F::Generic, 0},
  {"dtou", 215, 1, 1, V::Double, F::Generic, 0},
  {"itod", 216, 1, 1, V::Int, F::Generic, 0},
  {"utod", 217, 1, 1, V::Uint, F::Generic, 0},
};

// Opcode number -> row, built once.
struct OpcodeIndex {
  std::array<const OpcodeInfo*, 256> byNumber{};
  OpcodeIndex() {
    for (const OpcodeInfo& info : kOpcodes)
      byNumber[info.opcode] = &info;
  }
};

const OpcodeIndex& opcodeIndex() {
  static const OpcodeIndex index;
  return index;
}

constexpr const char* kOperandPrefixes[] = {
  "r", "v", "o", "x", "l", "d", "s", "t", "cb", "icb", "l", "vPrim", "oDepth", "null",
  "rasterizer", "oMask", "m", "fb", "ft", "fp", "fi", "fo", "vOutputControlPointID",
  "vForkInstanceID", "vJoinInstanceID", "vicp", "vocp", "vpc", "vDomain", "this", "u", "g",
  "vThreadID", "vThreadGroupID", "vThreadIDInGroup", "vCoverage",
  "vThreadIDInGroupFlattened", "vGSInstanceID", "oDepthGE", "oDepthLE", "vCycleCounter",
  "oStencilRef", "vInnerCoverage",
};
static_assert(std::size(kOperandPrefixes) == size_t(OperandType::Count));

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

constexpr NamedValue kResourceDimensionTable[] = {
  {"unknown", 0}, {"buffer", 1}, {"texture1d", 2}, {"texture2d", 3}, {"texture2dms", 4},
  {"texture3d", 5}, {"texturecube", 6}, {"texture1darray", 7}, {"texture2darray", 8},
  {"texture2dmsarray", 9}, {"texturecubearray", 10}, {"raw_buffer", 11},
  {"structured_buffer", 12},
};

constexpr NamedValue kReturnTypeTable[] = {
  {"unorm", 1}, {"snorm", 2}, {"sint", 3}, {"uint", 4}, {"float", 5}, {"mixed", 6},
  {"double", 7}, {"continued", 8}, {"unused", 9},
};

constexpr NamedValue kSystemValueTable[] = {
  {"undefined", 0}, {"position", 1}, {"clip_distance", 2}, {"cull_distance", 3},
  {"rendertarget_array_index", 4}, {"viewport_array_index", 5}, {"vertex_id", 6},
  {"primitive_id", 7}, {"instance_id", 8}, {"is_front_face", 9}, {"sampleIndex", 10},
  {"finalQuadUeq0EdgeTessFactor", 11}, {"finalQuadVeq0EdgeTessFactor", 12},
  {"finalQuadUeq1EdgeTessFactor", 13}, {"finalQuadVeq1EdgeTessFactor", 14},
  {"finalQuadUInsideTessFactor", 15}, {"finalQuadVInsideTessFactor", 16},
  {"finalTriUeq0EdgeTessFactor", 17}, {"finalTriVeq0EdgeTessFactor", 18},
  {"finalTriWeq0EdgeTessFactor", 19}, {"finalTriInsideTessFactor", 20},
  {"finalLineDetailTessFactor", 21}, {"finalLineDensityTessFactor", 22},
};

// Several words per mode: "linear noperspective centroid".
constexpr NamedValue kInterpolationTable[] = {
  {"constant", 1}, {"linear", 2}, {"linear centroid", 3}, {"linear noperspective", 4},
  {"linear noperspective centroid", 5}, {"linear sample", 6},
  {"linear noperspective sample", 7},
};

// Values are the flag bits after shifting out bit 11.
constexpr NamedValue kGlobalFlagTable[] = {
  {"refactoringAllowed", 1u << 0}, {"enableDoublePrecisionFloatOps", 1u << 1},
  {"forceEarlyDepthStencil", 1u << 2}, {"enableRawAndStructuredBuffers", 1u << 3},
  {"skipOptimization", 1u << 4}, {"enableMinimumPrecision", 1u << 5},
  {"enable11_1DoubleExtensions", 1u << 6}, {"enable11_1ShaderExtensions", 1u << 7},
};

constexpr NamedValue kSamplerModeTable[] = {
  {"mode_default", 0}, {"mode_comparison", 1}, {"mode_mono", 2},
};

constexpr NamedValue kGsPrimitiveTable[] = {
  {"point", 1}, {"line", 2}, {"triangle", 3}, {"lineadj", 6}, {"triangleadj", 7},
};

constexpr NamedValue kGsTopologyTable[] = {
  {"pointlist", 1}, {"linelist", 2}, {"linestrip", 3}, {"trianglelist", 4},
  {"trianglestrip", 5}, {"linelistadj", 10}, {"linestripadj", 11},
  {"trianglelistadj", 12}, {"trianglestripadj", 13},
};

constexpr NamedValue kTessDomainTable[] = {
  {"domain_isoline", 1}, {"domain_tri", 2}, {"domain_quad", 3},
};

constexpr NamedValue kTessPartitioningTable[] = {
  {"partitioning_integer", 1}, {"partitioning_pow2", 2},
  {"partitioning_fractional_odd", 3}, {"partitioning_fractional_even", 4},
};

constexpr NamedValue kTessOutputPrimitiveTable[] = {
  {"output_point", 1}, {"output_line", 2}, {"output_triangle_cw", 3},
  {"output_triangle_ccw", 4},
};

constexpr NamedValue kMinPrecisionTable[] = {
  {"def32", 0}, {"min16f", 1}, {"min2_8f", 2}, {"min16i", 4}, {"min16u", 5},
};

constexpr NamedValue kCustomDataClassTable[] = {
  {"comment", 0}, {"debuginfo", 1}, {"opaque", 2}, {"dcl_immediateConstantBuffer", 3},
  {"shader_message", 4}, {"clip_plane_constant_mappings_for_dx9", 5},
};

}  // namespace

const std::span<const NamedValue> kResourceDimensions = kResourceDimensionTable;
const std::span<const NamedValue> kReturnTypes = kReturnTypeTable;
const std::span<const NamedValue> kSystemValueNames = kSystemValueTable;
const std::span<const NamedValue> kInterpolationModes = kInterpolationTable;
const std::span<const NamedValue> kGlobalFlags = kGlobalFlagTable;
const std::span<const NamedValue> kSamplerModes = kSamplerModeTable;
const std::span<const NamedValue> kGsPrimitives = kGsPrimitiveTable;
const std::span<const NamedValue> kGsTopologies = kGsTopologyTable;
const std::span<const NamedValue> kTessDomains = kTessDomainTable;
const std::span<const NamedValue> kTessPartitionings = kTessPartitioningTable;
const std::span<const NamedValue> kTessOutputPrimitives = kTessOutputPrimitiveTable;
const std::span<const NamedValue> kMinPrecisions = kMinPrecisionTable;
const std::span<const NamedValue> kCustomDataClasses = kCustomDataClassTable;

const OpcodeInfo* findOpcode(uint32_t opcode) {
  if (opcode >= 256)
    return nullptr;
  return opcodeIndex().byNumber[opcode];
}

const OpcodeInfo* findOpcodeByName(std::string_view name) {
  for (const OpcodeInfo& info : kOpcodes) {
    if (equalsIgnoreCase(info.name, name))
      return &info;
  }
  return nullptr;
}

const char* operandTypePrefix(OperandType type) {
  auto index = size_t(type);
  return index < std::size(kOperandPrefixes) ? kOperandPrefixes[index] : nullptr;
}

bool operandTypeIsIndexless(OperandType type) {
  switch (type) {
    case OperandType::InputPrimitiveId:
    case OperandType::OutputDepth:
    case OperandType::Null:
    case OperandType::Rasterizer:
    case OperandType::OutputCoverageMask:
    case OperandType::OutputControlPointId:
    case OperandType::InputForkInstanceId:
    case OperandType::InputJoinInstanceId:
    case OperandType::InputDomainPoint:
    case OperandType::InputThreadId:
    case OperandType::InputThreadGroupId:
    case OperandType::InputThreadIdInGroup:
    case OperandType::InputCoverageMask:
    case OperandType::InputThreadIdInGroupFlattened:
    case OperandType::InputGsInstanceId:
    case OperandType::OutputDepthGreaterEqual:
    case OperandType::OutputDepthLessEqual:
    case OperandType::CycleCounter:
    case OperandType::OutputStencilRef:
    case OperandType::InnerCoverage:
      return true;
    default:
      return false;
  }
}

bool operandTypeFromPrefix(std::string_view prefix, OperandType* type) {
  for (size_t i = 0; i < std::size(kOperandPrefixes); i++) {
    // "l" is both the immediate and the label prefix; the parser resolves it by syntax.
    if (i == size_t(OperandType::Immediate32) || i == size_t(OperandType::Immediate64))
      continue;
    if (equalsIgnoreCase(kOperandPrefixes[i], prefix)) {
      *type = OperandType(i);
      return true;
    }
  }
  return false;
}

std::string_view nameOf(std::span<const NamedValue> table, uint32_t value) {
  for (const NamedValue& entry : table) {
    if (entry.value == value)
      return entry.name;
  }
  return {};
}

bool valueOf(std::span<const NamedValue> table, std::string_view name, uint32_t* value) {
  for (const NamedValue& entry : table) {
    if (equalsIgnoreCase(entry.name, name)) {
      *value = entry.value;
      return true;
    }
  }
  return false;
}

}  // namespace dxbc::sm

namespace dxbc::sm {

NumComponents componentsWithoutSuffix(OperandType type) {
  switch (type) {
    case OperandType::InputPrimitiveId:
    case OperandType::OutputDepth:
    case OperandType::OutputCoverageMask:
    case OperandType::OutputControlPointId:
    case OperandType::InputForkInstanceId:
    case OperandType::InputJoinInstanceId:
    case OperandType::InputCoverageMask:
    case OperandType::InputThreadIdInGroupFlattened:
    case OperandType::InputGsInstanceId:
    case OperandType::OutputDepthGreaterEqual:
    case OperandType::OutputDepthLessEqual:
    case OperandType::OutputStencilRef:
    case OperandType::InnerCoverage:
      return NumComponents::One;
    default:
      return NumComponents::Zero;
  }
}

}  // namespace dxbc::sm

namespace dxbc::sm {

DeclComponents declComponentsWithoutSuffix(OperandType type, bool sm51) {
  switch (type) {
    case OperandType::ConstantBuffer:
      return DeclComponents::FourSwizzleXyzw;
    case OperandType::Resource:
    case OperandType::Sampler:
    case OperandType::UnorderedAccessView:
      return sm51 ? DeclComponents::FourSwizzleXyzw : DeclComponents::Zero;
    case OperandType::InputCoverageMask:
    case OperandType::OutputDepth:
    case OperandType::OutputDepthGreaterEqual:
    case OperandType::OutputDepthLessEqual:
    case OperandType::OutputStencilRef:
    case OperandType::InnerCoverage:
      return DeclComponents::One;
    default:
      return DeclComponents::Zero;
  }
}

}  // namespace dxbc::sm
