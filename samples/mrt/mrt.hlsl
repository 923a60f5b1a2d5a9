// SPDX-License-Identifier: MIT
// Multiple render targets and blending: each rectangle writes its colour to
// target 0 (alpha blended) and a dimmed copy to target 1 (additive), then
// target 1 is shown as an inset in target 0.

cbuffer Rect : register(b0) {
  float4 bounds;   // x0, y0, x1, y1 in clip space
  float4 colour;   // rgb + blend alpha
};

// A rectangle as a 4-vertex strip from the vertex id, wound clockwise.
float4 vs_rect(uint id : SV_VertexID) : SV_Position {
  // lerp instead of ?: because Wine 8's compiler lacks the ternary operator.
  float2 p = lerp(bounds.xy, bounds.zw, float2((id >> 1) & 1, id & 1));
  return float4(p, 0.0f, 1.0f);
}

struct Targets {
  float4 blended  : SV_Target0;
  float4 additive : SV_Target1;
};

Targets ps_rect(float4 position : SV_Position) {
  Targets targets;
  targets.blended = colour;
  targets.additive = float4(colour.rgb * 0.4f, 1.0f);
  return targets;
}

Texture2D    accumulated : register(t0);
SamplerState nearest     : register(s0);

struct InsetOut {
  float4 position : SV_Position;
  float2 uv       : TEXCOORD;
};

InsetOut vs_inset(uint id : SV_VertexID) {
  InsetOut output;
  output.uv = float2((id << 1) & 2, id & 2);
  output.position = float4(output.uv * float2(2.0f, -2.0f) + float2(-1.0f, 1.0f), 0.0f, 1.0f);
  return output;
}

float4 ps_inset(InsetOut input) : SV_Target {
  return accumulated.Sample(nearest, input.uv);
}
