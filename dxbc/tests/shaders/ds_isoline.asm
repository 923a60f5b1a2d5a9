// Domain shader for isolines: SV_TessFactor[0] is the line density, [1] the detail.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// TEXCOORD                 0   xyzw        0     NONE   float   xyzw
//
// Patch Constant signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TessFactor            0   x           0  LINEDEN   float   x
// SV_TessFactor            1   x           1  LINEDET   float   x
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
ds_5_0
dcl_input_control_point_count 4
dcl_tessellator_domain domain_isoline
dcl_globalFlags refactoringAllowed
dcl_input vDomain.x
dcl_input_siv vpc0.x, finalLineDensityTessFactor
dcl_input_siv vpc1.x, finalLineDetailTessFactor
dcl_input vicp[4][0].xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 1
mul r0.x, vDomain.x, vpc0.x
add r0.x, r0.x, vpc1.x
mul o0.xyzw, r0.xxxx, vicp[0][0].xyzw
ret
