// SPDX-License-Identifier: MIT
// Two animated scenes and the composition of both (samples/compositor): a fullscreen
// triangle from SV_VertexID; the scene is a gradient with a moving band, the compositor
// fetches texels of both scenes 1:1 (A left, B right), so every composed byte is a
// scene byte and the producers' corner stamps survive into the composed frame.

cbuffer Parameters : register(b0) {
  float4 tint;     // scene: gradient colour
  float4 band;     // scene: x = left edge, y = right edge (pixels); compose: x = half width
};

struct VsOut {
  float4 position : SV_Position;
  float2 uv       : TEXCOORD0;
};

VsOut vs_main(uint id : SV_VertexID) {
  VsOut output;
  float2 uv = float2((id << 1) & 2, id & 2);
  output.position = float4(uv * float2(2.0f, -2.0f) + float2(-1.0f, 1.0f), 0.0f, 1.0f);
  output.uv = uv;
  return output;
}

// Wine's HLSL compiler has no step/min/max: pixel centres lie at k + 0.5 and edges at
// integers, so saturate((x - edge) * 4) is exactly step(edge, x).
float4 ps_scene(VsOut input) : SV_Target {
  float inBand = saturate((input.position.x - band.x) * 4.0f) * saturate((band.y - input.position.x) * 4.0f);
  float4 base = float4(input.uv.x * tint.r, input.uv.y * tint.g, tint.b, 1.0f);
  return lerp(base, float4(1.0f, 1.0f, 1.0f, 1.0f), inBand * 0.75f);
}

Texture2D sceneA : register(t0);
Texture2D sceneB : register(t1);

float4 ps_compose(VsOut input) : SV_Target {
  // Both scenes are fetched at the same texel, inside both textures on either half
  // (out-of-range fetches are undefined on GL); the half picks one.
  float right = saturate((input.position.x - band.x) * 4.0f);
  int3 texel = int3(input.position.x - right * band.x, input.position.y, 0);
  return lerp(sceneA.Load(texel), sceneB.Load(texel), right);
}
