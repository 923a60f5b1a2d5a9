// SPDX-License-Identifier: MIT
// Textured, mipmapped, indexed cube with depth, in front of a far backdrop
// quad that only shows where the depth test lets it.

cbuffer Frame : register(b0) {
  row_major float4x4 worldViewProj;
};

Texture2D    albedo  : register(t0);
SamplerState trilinear : register(s0);

struct VsIn {
  float3 position : POSITION;
  float2 uv       : TEXCOORD;
};

struct VsOut {
  float4 position : SV_Position;
  float2 uv       : TEXCOORD;
};

VsOut vs_cube(VsIn input) {
  VsOut output;
  output.position = mul(float4(input.position, 1.0f), worldViewProj);
  output.uv = input.uv;
  return output;
}

float4 ps_cube(VsOut input) : SV_Target {
  return albedo.Sample(trilinear, input.uv);
}

// Fullscreen triangle at depth 0.999 from the vertex id alone.
float4 vs_backdrop(uint id : SV_VertexID) : SV_Position {
  float2 p = float2((id << 1) & 2, id & 2);
  return float4(p * float2(2.0f, -2.0f) + float2(-1.0f, 1.0f), 0.999f, 1.0f);
}

float4 ps_backdrop() : SV_Target {
  return float4(0.25f, 0.5f, 0.75f, 1.0f);
}
