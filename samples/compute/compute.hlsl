// SPDX-License-Identifier: MIT
// Draw stage of the compute sample: one quad per instance, with the instance
// data the compute shader wrote into a raw buffer now bound as a vertex buffer.

struct VsIn {
  uint   vertex   : SV_VertexID;
  float2 centre   : INSTANCE_POS;
  float4 colour   : INSTANCE_COLOR;
};

struct VsOut {
  float4 position : SV_Position;
  nointerpolation float4 colour : COLOR;
};

VsOut vs_main(VsIn input) {
  // Clockwise strip: (-1,-1) (-1,1) (1,-1) (1,1), half-size 0.05.
  float2 corner = float2((input.vertex >> 1) & 1, input.vertex & 1) * 2.0f - 1.0f;
  VsOut output;
  output.position = float4(input.centre + corner * 0.05f, 0.0f, 1.0f);
  output.colour = input.colour;
  return output;
}

float4 ps_main(VsOut input) : SV_Target {
  return input.colour;
}
