// Hull stage of the tessellation sample (shader model 5 assembly; Wine's HLSL
// compiler cannot build hull shaders). Quad patches of 4 control points,
// passed through unchanged (no control point phase). Every tessellation
// factor is cb0[0].x for patch 0 and 1 for any other patch, so the two
// patches on screen differ only in how finely they are tessellated.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xy          0     NONE   float   xy
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xy          0     NONE   float
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
hs_5_0
hs_decls
dcl_input_control_point_count 4
dcl_output_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[1], immediateIndexed
hs_fork_phase
dcl_input vPrim
dcl_output_siv o0.x, finalQuadUeq0EdgeTessFactor
dcl_temps 1
ieq r0.x, vPrim, l(0)
movc o0.x, r0.x, cb0[0].x, l(1.000000)
ret
hs_fork_phase
dcl_input vPrim
dcl_output_siv o1.x, finalQuadVeq0EdgeTessFactor
dcl_temps 1
ieq r0.x, vPrim, l(0)
movc o1.x, r0.x, cb0[0].x, l(1.000000)
ret
hs_fork_phase
dcl_input vPrim
dcl_output_siv o2.x, finalQuadUeq1EdgeTessFactor
dcl_temps 1
ieq r0.x, vPrim, l(0)
movc o2.x, r0.x, cb0[0].x, l(1.000000)
ret
hs_fork_phase
dcl_input vPrim
dcl_output_siv o3.x, finalQuadVeq1EdgeTessFactor
dcl_temps 1
ieq r0.x, vPrim, l(0)
movc o3.x, r0.x, cb0[0].x, l(1.000000)
ret
hs_fork_phase
dcl_input vPrim
dcl_output_siv o4.x, finalQuadUInsideTessFactor
dcl_temps 1
ieq r0.x, vPrim, l(0)
movc o4.x, r0.x, cb0[0].x, l(1.000000)
ret
hs_fork_phase
dcl_input vPrim
dcl_output_siv o5.x, finalQuadVInsideTessFactor
dcl_temps 1
ieq r0.x, vPrim, l(0)
movc o5.x, r0.x, cb0[0].x, l(1.000000)
ret
