// Geometry stage of the stream output sample (shader model 5 assembly; Wine's
// HLSL compiler cannot build geometry shaders). Expands each point into a
// quad (a 4-vertex clockwise strip) of half-size cb0[0].x. The signature
// tables name the outputs that the stream output declaration refers to.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// CENTER                   0   xy          0     NONE   float   xy
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float
// COLOR                    0   xyzw        1     NONE   float
//
gs_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[1], immediateIndexed
dcl_input v[1][0].xy
dcl_input v[1][1].xyzw
dcl_temps 1
dcl_inputprimitive point
dcl_stream m0
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_maxout 4
mov r0.zw, l(0, 0, 0, 1.000000)
// (-1, -1)
add r0.xy, v[0][0].xyxx, -cb0[0].xxxx
mov o0.xyzw, r0.xyzw
mov o1.xyzw, v[0][1].xyzw
emit_stream m0
// (-1, +1)
add r0.x, v[0][0].x, -cb0[0].x
add r0.y, v[0][0].y, cb0[0].x
mov o0.xyzw, r0.xyzw
mov o1.xyzw, v[0][1].xyzw
emit_stream m0
// (+1, -1)
add r0.x, v[0][0].x, cb0[0].x
add r0.y, v[0][0].y, -cb0[0].x
mov o0.xyzw, r0.xyzw
mov o1.xyzw, v[0][1].xyzw
emit_stream m0
// (+1, +1)
add r0.xy, v[0][0].xyxx, cb0[0].xxxx
mov o0.xyzw, r0.xyzw
mov o1.xyzw, v[0][1].xyzw
emit_stream m0
cut_stream m0
ret
