// Domain stage of the tessellation sample (shader model 5 assembly). Places
// each tessellated vertex bilinearly between the patch's control points
// (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right), lifts it by
// 0.3 * sin(pi * u) * (1 - v) so the top edge bows upwards as far as the
// tessellation lets it, and colours it by its domain location.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xy          0     NONE   float   xy
//
// Patch Constant signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TessFactor            0   x           0 QUADEDGE   float
// SV_TessFactor            1   x           1 QUADEDGE   float
// SV_TessFactor            2   x           2 QUADEDGE   float
// SV_TessFactor            3   x           3 QUADEDGE   float
// SV_InsideTessFactor      0   x           4  QUADINT   float
// SV_InsideTessFactor      1   x           5  QUADINT   float
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float
// COLOR                    0   xyzw        1     NONE   float
//
ds_5_0
dcl_input_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_globalFlags refactoringAllowed
dcl_input vDomain.xy
dcl_input vicp[4][0].xy
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_temps 3
// top = lerp(cp0, cp1, u); bottom = lerp(cp2, cp3, u); p = lerp(top, bottom, v)
add r0.xy, -vicp[0][0].xyxx, vicp[1][0].xyxx
mad r0.xy, vDomain.xxxx, r0.xyxx, vicp[0][0].xyxx
add r1.xy, -vicp[2][0].xyxx, vicp[3][0].xyxx
mad r1.xy, vDomain.xxxx, r1.xyxx, vicp[2][0].xyxx
add r1.xy, -r0.xyxx, r1.xyxx
mad r0.xy, vDomain.yyyy, r1.xyxx, r0.xyxx
// bow: 0.3 * sin(pi * u) * (1 - v)
mul r2.x, vDomain.x, l(3.141593)
sincos r2.x, null, r2.x
add r2.y, -vDomain.y, l(1.000000)
mul r2.x, r2.x, r2.y
mad o0.y, r2.x, l(0.300000), r0.y
mov o0.x, r0.x
mov o0.zw, l(0, 0, 0, 1.000000)
// colour = (u, v, 1 - u, 1)
mov o1.xy, vDomain.xyxx
add o1.z, -vDomain.x, l(1.000000)
mov o1.w, l(1.000000)
ret
