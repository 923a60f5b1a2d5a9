// SPDX-License-Identifier: MIT
// Vertex stages of the stream output sample.

struct PointIn {
  float2 centre : POSITION;
  float4 colour : COLOR;
};

// Feeds the geometry shader; register order (CENTER, COLOR) matches its input signature.
struct PointOut {
  float2 centre : CENTER;
  float4 colour : COLOR;
};

PointOut vs_points(PointIn input) {
  PointOut output;
  output.centre = input.centre;
  output.colour = input.colour;
  return output;
}

// Second pass: the vertices captured by stream output, moved one unit right
// and with inverted colours.
struct CapturedIn {
  float4 position : POSITION;
  float4 colour   : COLOR;
};

struct CapturedOut {
  float4 position : SV_Position;
  float4 colour   : COLOR;
};

CapturedOut vs_captured(CapturedIn input) {
  CapturedOut output;
  output.position = input.position + float4(1.0f, 0.0f, 0.0f, 0.0f);
  output.colour = float4(1.0f - input.colour.rgb, 1.0f);
  return output;
}

float4 ps_main(CapturedOut input) : SV_Target {
  return input.colour;
}
