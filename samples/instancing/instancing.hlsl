// SPDX-License-Identifier: MIT
// Instanced quads: one static quad, per-instance offset and colour from a
// dynamic vertex buffer, per-batch tint and rotation from a dynamic cbuffer.

cbuffer Batch : register(b0) {
  float2 halfSize;
  float2 cosSin;   // rotation, computed on the CPU: Wine 8's compiler has no sin/cos
  float4 tint;
};

struct VsIn {
  float2 corner   : POSITION;      // per vertex: -1..1
  float2 offset   : INSTANCE_POS;  // per instance
  float4 colour   : INSTANCE_COLOR;
};

struct VsOut {
  float4 position : SV_Position;
  nointerpolation float4 colour : COLOR;
};

VsOut vs_main(VsIn input) {
  float c = cosSin.x, s = cosSin.y;
  float2 p = float2(c * input.corner.x - s * input.corner.y, s * input.corner.x + c * input.corner.y);
  VsOut output;
  output.position = float4(input.offset + p * halfSize, 0.0f, 1.0f);
  output.colour = input.colour * tint;
  return output;
}

float4 ps_main(VsOut input) : SV_Target {
  return input.colour;
}
