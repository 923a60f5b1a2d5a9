// Dynamic linkage: one interface slot (fp0) that two classes implement. Function table 0
// (body fb0) returns the instance's data: cb0 at the vector offset of the instance's
// "this" pointer (this[0].y); function table 1 (body fb1) returns a constant. The shader
// writes what the bound class returned to u0 at every thread of a 4x4 group.
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface fp0[1][1] = {ft0, ft1}
dcl_constantbuffer CB0[4], dynamicIndexed
dcl_uav_typed_texture2d (float,float,float,float) u0
dcl_input vThreadID.xy
dcl_temps 1
dcl_thread_group 4, 4, 1
fcall fp0[0], 0
store_uav_typed u0.xyzw, vThreadID.xyyy, r0.xyzw
ret
label fb0
mov r0.xyzw, cb0[this[0].y + 0].xyzw
ret
label fb1
mov r0.xyzw, l(0.250000, 0.500000, 0.750000, 1.000000)
ret
