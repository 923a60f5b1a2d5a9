// SPDX-License-Identifier: MIT
// Clear + triangle: per-vertex colours interpolated across a triangle that
// turns with the frame index.

cbuffer Frame : register(b0) {
  float2x2 rotation;
};

struct VsIn {
  float2 position : POSITION;
  float3 colour   : COLOR;
};

struct VsOut {
  float4 position : SV_Position;
  float3 colour   : COLOR;
};

VsOut vs_main(VsIn input) {
  VsOut output;
  output.position = float4(mul(rotation, input.position), 0.0f, 1.0f);
  output.colour = input.colour;
  return output;
}

float4 ps_main(VsOut input) : SV_Target {
  return float4(input.colour, 1.0f);
}
