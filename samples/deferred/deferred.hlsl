// SPDX-License-Identifier: MIT
// Flat rectangles, for the deferred context sample.

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
