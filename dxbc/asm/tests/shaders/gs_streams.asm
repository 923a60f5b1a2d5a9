// Geometry shader with two output streams: stream 0 expands each point of a triangle,
// stream 1 carries one extra element. Hand-written: no compiler here emits GS code.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used Stream
// -------------------- ----- ------ -------- -------- ------- ------ ------
// SV_Position              0   xyzw        0      POS   float   xyzw   0
// COLOR                    0   xyzw        1     NONE   float   xyzw   0
// TEXCOORD                 0   xy          0     NONE   float   xy     1
//
gs_5_0
dcl_globalFlags refactoringAllowed
dcl_input_siv v[3][0].xyzw, position
dcl_input v[3][1].xyzw
dcl_temps 2
dcl_inputprimitive triangle
dcl_stream m0
dcl_outputtopology pointlist
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_stream m1
dcl_outputtopology pointlist
dcl_output o0.xy
dcl_maxout 6
mov r0.x, l(0)
loop
  uge r0.y, r0.x, l(3)
  breakc_nz r0.y
  mov o0.xyzw, v[r0.x + 0][0].xyzw
  mul_sat o1.xyzw, v[r0.x + 0][1].xyzw, l(0.500000, 0.500000, 0.500000, 1.000000)
  emit_stream m0
  add r1.xy, v[r0.x + 0][0].xyxx, -v[r0.x + 0][1].xyxx
  mov o0.xy, |r1.xyxx|
  emit_stream m1
  iadd r0.x, r0.x, l(1)
endloop
cut_stream m0
ret
