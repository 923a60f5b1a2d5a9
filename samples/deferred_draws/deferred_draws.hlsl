// SPDX-License-Identifier: MIT
// many_draws' grid recorded by worker threads on deferred contexts: a 100x100 grid of quads, one draw each.

cbuffer Row : register(b0) {
  float4 rowColour;
};

float4 vs_main(float2 position : POSITION) : SV_Position {
  return float4(position, 0.0f, 1.0f);
}

float4 ps_plain(float4 position : SV_Position) : SV_Target {
  return rowColour;
}

// The odd columns use a second shader, so every draw changes pipeline state.
float4 ps_swizzled(float4 position : SV_Position) : SV_Target {
  return rowColour.bgra;
}
