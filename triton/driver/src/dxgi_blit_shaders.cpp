// SPDX-License-Identifier: MIT
// The DXGI blit's shaders (dxgi_blit.h) as shader-model 4 assembly, assembled once
// per device by the project's assembler (dxbc/asm) when the first drawn blit needs them.

#include "dxgi_blit.h"

namespace triton::driver {

// Triton's DXGI blit, vertex stage: one triangle covering the viewport (the Blt's
// destination rectangle), drawn with 3 vertices and no input layout. Each vertex's
// texture coordinate is its corner (0..2 on each axis) rotated about the centre by
// cb0[1] (a 2x2 matrix: the Blt's rotation) and mapped into the source rectangle
// (cb0[0]: origin xy, size zw, in normalized texture coordinates).
extern const char kBlitVertexShader[] = R"(
vs_4_0
dcl_constantbuffer cb0[2], immediateIndexed
dcl_input_sgv v0.x, vertex_id
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_temps 2
ishl r0.x, v0.x, l(1)
and r0.x, r0.x, l(2)
and r0.y, v0.x, l(2)
utof r0.xy, r0.xyxx
mad o0.xy, r0.xyxx, l(2.000000, -2.000000, 0.000000, 0.000000), l(-1.000000, 1.000000, 0.000000, 0.000000)
mov o0.zw, l(0, 0, 0, 1.000000)
add r0.xy, r0.xyxx, l(-0.500000, -0.500000, 0.000000, 0.000000)
mul r1.xy, r0.yyyy, cb0[1].ywyy
mad r1.xy, r0.xxxx, cb0[1].xzxx, r1.xyxx
add r1.xy, r1.xyxx, l(0.500000, 0.500000, 0.000000, 0.000000)
mad o1.xy, r1.xyxx, cb0[0].zwzz, cb0[0].xyxx
ret
)";

// Triton's DXGI blit, pixel stage: the source texture sampled at the interpolated
// coordinate (s0: point sampling for a 1:1 copy, linear for a stretch); the render
// target's format does the conversion. The view is a one-slice 2D array (any slice of
// any source), so the shader declares an array and samples slice 0 of the view.
extern const char kBlitPixelShader[] = R"(
ps_4_0
dcl_sampler s0, mode_default
dcl_resource_texture2darray (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 1
mov r0.xy, v1.xyxx
mov r0.z, l(0)
sample o0.xyzw, r0.xyzx, t0.xyzw, s0
ret
)";

}  // namespace triton::driver
