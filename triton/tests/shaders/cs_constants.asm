// Constant-buffer ranges: every thread of a 4x1 group writes cb0[thread] to u0[thread],
// so the texels show which constants the bound range starts at.
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[4], dynamicIndexed
dcl_uav_typed_texture2d (float,float,float,float) u0
dcl_input vThreadID.xy
dcl_temps 1
dcl_thread_group 4, 1, 1
mov r0.xyzw, cb0[vThreadID.x + 0].xyzw
store_uav_typed u0.xyzw, vThreadID.xyyy, r0.xyzw
ret
