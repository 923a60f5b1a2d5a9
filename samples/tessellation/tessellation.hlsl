// SPDX-License-Identifier: MIT
// Vertex and pixel stages of the tessellation sample; the hull and domain
// stages are assembly (tessellation_hs.asm, tessellation_ds.asm).

struct ControlPoint {
  float2 position : POSITION;
};

ControlPoint vs_main(ControlPoint input) {
  return input;
}

struct DomainOut {
  float4 position : SV_Position;
  float4 colour   : COLOR;
};

// The facets of the arch show the tessellation; the colour shows (u, v).
float4 ps_main(DomainOut input) : SV_Target {
  return input.colour;
}
