// Pixel shader with register-less outputs the corpus lacks (oDepthGE next to oMask),
// SV_Target at register 1 only, packed generic inputs and two system-generated inputs.
// The tables are what fxc prints for such a shader.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xy
// TEXCOORD                 0   xy          1     NONE   float   xy
// TEXCOORD                 1     zw        1     NONE   float     z
// SV_IsFrontFace           0   x           2    FFACE    uint   x
// SV_SampleIndex           0   x           3   SAMPLE    uint   x
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                1   xyzw        1     NONE   float   xyzw
// SV_DepthGreaterEqual     0   x         N/A     NONE   float   x
// SV_Coverage              0   x         N/A     NONE    uint   x
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.xy
dcl_input_ps linear v1.z
dcl_input_ps_sgv constant v2.x, is_front_face
dcl_input_ps_sgv constant v3.x, sampleIndex
dcl_output o1.xyzw
dcl_output oDepthGE
dcl_output oMask
dcl_temps 1
add r0.xy, v0.xyxx, v1.xyxx
mov o1.xy, r0.xyxx
mov o1.z, v1.z
utof o1.w, v2.x
mov oDepthGE, v1.x
mov oMask, v3.x
ret
