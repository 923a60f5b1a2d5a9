// SPDX-License-Identifier: MIT
// Render to texture, GenerateMips, then show chosen mip levels side by side.

cbuffer Rect : register(b0) {
  float4 bounds;   // x0, y0, x1, y1 in clip space
  float4 colour;
};

// A rectangle as a clockwise 4-vertex strip from the vertex id.
float4 vs_rect(uint id : SV_VertexID) : SV_Position {
  return float4(lerp(bounds.xy, bounds.zw, float2((id >> 1) & 1, id & 1)), 0.0f, 1.0f);
}

float4 ps_rect(float4 position : SV_Position) : SV_Target {
  return colour;
}

Texture2D    scene   : register(t0);
SamplerState filtered : register(s0);

struct PanelOut {
  float4 position : SV_Position;
  float2 uv       : TEXCOORD;
};

// Fullscreen triangle; the viewport places the panel.
PanelOut vs_panel(uint id : SV_VertexID) {
  PanelOut output;
  output.uv = float2((id << 1) & 2, id & 2);
  output.position = float4(output.uv * float2(2.0f, -2.0f) + float2(-1.0f, 1.0f), 0.0f, 1.0f);
  return output;
}

// The bound view exposes exactly one mip level, so Sample reads that level
// (and Wine 8's compiler has no SampleLevel).
float4 ps_panel(PanelOut input) : SV_Target {
  return scene.Sample(filtered, input.uv);
}
