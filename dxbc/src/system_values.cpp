// SPDX-License-Identifier: MIT
// Canonical names of system values and the two numbering schemes: D3D10_SB_NAME in tokens
// and DDI entries (tess factors per edge), D3D_NAME in signature chunks (per kind).

#include "dxbc/rebuild.h"

namespace dxbc {

const char* systemValueSemantic(uint32_t sbName) {
  switch (sbName) {
    case sbname::Position: return "SV_Position";
    case sbname::ClipDistance: return "SV_ClipDistance";
    case sbname::CullDistance: return "SV_CullDistance";
    case sbname::RenderTargetArrayIndex: return "SV_RenderTargetArrayIndex";
    case sbname::ViewportArrayIndex: return "SV_ViewportArrayIndex";
    case sbname::VertexId: return "SV_VertexID";
    case sbname::PrimitiveId: return "SV_PrimitiveID";
    case sbname::InstanceId: return "SV_InstanceID";
    case sbname::IsFrontFace: return "SV_IsFrontFace";
    case sbname::SampleIndex: return "SV_SampleIndex";
    case sbname::FinalQuadUEq0EdgeTessFactor:
    case sbname::FinalQuadVEq0EdgeTessFactor:
    case sbname::FinalQuadUEq1EdgeTessFactor:
    case sbname::FinalQuadVEq1EdgeTessFactor:
    case sbname::FinalTriUEq0EdgeTessFactor:
    case sbname::FinalTriVEq0EdgeTessFactor:
    case sbname::FinalTriWEq0EdgeTessFactor:
    case sbname::FinalLineDetailTessFactor:
    case sbname::FinalLineDensityTessFactor:
      return "SV_TessFactor";
    case sbname::FinalQuadUInsideTessFactor:
    case sbname::FinalQuadVInsideTessFactor:
    case sbname::FinalTriInsideTessFactor:
      return "SV_InsideTessFactor";
    default:
      return "";
  }
}

uint32_t systemValueToSignatureName(uint32_t sbName) {
  switch (sbName) {
    case sbname::FinalQuadUEq0EdgeTessFactor:
    case sbname::FinalQuadVEq0EdgeTessFactor:
    case sbname::FinalQuadUEq1EdgeTessFactor:
    case sbname::FinalQuadVEq1EdgeTessFactor:
      return sysval::FinalQuadEdgeTessFactor;
    case sbname::FinalQuadUInsideTessFactor:
    case sbname::FinalQuadVInsideTessFactor:
      return sysval::FinalQuadInsideTessFactor;
    case sbname::FinalTriUEq0EdgeTessFactor:
    case sbname::FinalTriVEq0EdgeTessFactor:
    case sbname::FinalTriWEq0EdgeTessFactor:
      return sysval::FinalTriEdgeTessFactor;
    case sbname::FinalTriInsideTessFactor:
      return sysval::FinalTriInsideTessFactor;
    case sbname::FinalLineDetailTessFactor:
      return sysval::FinalLineDetailTessFactor;
    case sbname::FinalLineDensityTessFactor:
      return sysval::FinalLineDensityTessFactor;
    default:
      return sbName <= sbname::SampleIndex ? sbName : sysval::Undefined;
  }
}

uint32_t systemValueSemanticIndex(uint32_t sbName, uint32_t registerIndex, uint32_t tessDomain) {
  (void)registerIndex;
  (void)tessDomain;
  switch (sbName) {
    case sbname::FinalQuadUEq0EdgeTessFactor: return 0;
    case sbname::FinalQuadVEq0EdgeTessFactor: return 1;
    case sbname::FinalQuadUEq1EdgeTessFactor: return 2;
    case sbname::FinalQuadVEq1EdgeTessFactor: return 3;
    case sbname::FinalQuadUInsideTessFactor: return 0;
    case sbname::FinalQuadVInsideTessFactor: return 1;
    case sbname::FinalTriUEq0EdgeTessFactor: return 0;
    case sbname::FinalTriVEq0EdgeTessFactor: return 1;
    case sbname::FinalTriWEq0EdgeTessFactor: return 2;
    case sbname::FinalTriInsideTessFactor: return 0;
    // Isolines: SV_TessFactor[0] is the density, [1] the detail.
    case sbname::FinalLineDensityTessFactor: return 0;
    case sbname::FinalLineDetailTessFactor: return 1;
    default: return 0;
  }
}

// Inverse mapping for the DDI entries the runtime derives from a signature chunk.
static uint32_t sbNameFromSignature(uint32_t d3dName, uint32_t semanticIndex) {
  switch (d3dName) {
    case sysval::FinalQuadEdgeTessFactor:
      return sbname::FinalQuadUEq0EdgeTessFactor + (semanticIndex & 3);
    case sysval::FinalQuadInsideTessFactor:
      return sbname::FinalQuadUInsideTessFactor + (semanticIndex & 1);
    case sysval::FinalTriEdgeTessFactor:
      return sbname::FinalTriUEq0EdgeTessFactor + (semanticIndex < 3 ? semanticIndex : 0);
    case sysval::FinalTriInsideTessFactor: return sbname::FinalTriInsideTessFactor;
    case sysval::FinalLineDetailTessFactor: return sbname::FinalLineDetailTessFactor;
    case sysval::FinalLineDensityTessFactor: return sbname::FinalLineDensityTessFactor;
    default: return d3dName <= sysval::SampleIndex ? d3dName : sbname::Undefined;
  }
}

void ddiEntriesFromSignature(const Signature& signature, std::vector<DdiSignatureEntry>& out) {
  out.clear();
  out.reserve(signature.elements.size());
  for (const SignatureElement& element : signature.elements) {
    DdiSignatureEntry entry;
    entry.systemValue = sbNameFromSignature(element.systemValue, element.semanticIndex);
    entry.registerIndex = element.registerIndex;
    entry.mask = element.mask;
    entry.componentType = element.componentType;
    entry.minPrecision = element.minPrecision;
    out.push_back(entry);
  }
}

}  // namespace dxbc
