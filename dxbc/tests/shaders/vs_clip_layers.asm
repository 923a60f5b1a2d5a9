// Vertex shader writing clip and cull distances and the render-target/viewport array
// indices (an SM5 feature of shaders feeding the rasterizer), reading vertex/instance ids.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xyzw        0     NONE   float   xyzw
// SV_VertexID              0   x           1   VERTID    uint   x
// SV_InstanceID            0   x           2   INSTID    uint   x
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// SV_ClipDistance          0   xy          1  CLIPDST   float   xy
// SV_CullDistance          0   x           2  CULLDST   float   x
// SV_RenderTargetArrayIndex     0   x           3  RTINDEX    uint   x
// SV_ViewportArrayIndex     0    y          3  VPINDEX    uint    y
//
vs_5_0
dcl_globalFlags refactoringAllowed
dcl_input v0.xyzw
dcl_input_sgv v1.x, vertex_id
dcl_input_sgv v2.x, instance_id
dcl_output_siv o0.xyzw, position
dcl_output_siv o1.xy, clip_distance
dcl_output_siv o2.x, cull_distance
dcl_output_siv o3.x, rendertarget_array_index
dcl_output_siv o3.y, viewport_array_index
mov o0.xyzw, v0.xyzw
mov o1.xy, v0.xyxx
mov o2.x, v0.z
mov o3.x, v1.x
mov o3.y, v2.x
ret
