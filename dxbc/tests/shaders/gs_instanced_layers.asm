// Instanced geometry shader: vGSInstanceID (in no signature), vPrim (register-less
// input), render-target/viewport array index and primitive id outputs packed in o1.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// SV_PrimitiveID           0   x         N/A   PRIMID    uint   x
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used Stream
// -------------------- ----- ------ -------- -------- ------- ------ ------
// SV_Position              0   xyzw        0      POS   float   xyzw   0
// SV_RenderTargetArrayIndex     0   x           1  RTINDEX    uint   x      0
// SV_ViewportArrayIndex     0    y          1  VPINDEX    uint    y     0
// SV_PrimitiveID           0     z         1   PRIMID    uint     z    0
//
gs_5_0
dcl_globalFlags refactoringAllowed
dcl_input_siv v[3][0].xyzw, position
dcl_input vPrim
dcl_input vGSInstanceID
dcl_temps 1
dcl_inputprimitive triangle
dcl_stream m0
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_output_siv o1.x, rendertarget_array_index
dcl_output_siv o1.y, viewport_array_index
dcl_output_sgv o1.z, primitive_id
dcl_maxout 3
dcl_gsinstances 2
mov r0.x, l(0)
loop
  uge r0.y, r0.x, l(3)
  breakc_nz r0.y
  mov o0.xyzw, v[r0.x + 0][0].xyzw
  mov o1.x, vGSInstanceID
  mov o1.y, vGSInstanceID
  mov o1.z, vPrim
  emit_stream m0
  iadd r0.x, r0.x, l(1)
endloop
ret
