// Compute shader: a 64-thread group reduces a structured buffer through group shared
// memory, then writes typed, raw and structured UAVs and counts with atomics.
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[1], immediateIndexed
dcl_resource_structured t0, 16
dcl_uav_typed_buffer (uint,uint,uint,uint) u0
dcl_uav_raw u1
dcl_uav_structured u2, 4
dcl_input vThreadGroupID.x
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadID.x
dcl_temps 2
dcl_tgsm_structured g0, 4, 64
dcl_tgsm_raw g1, 16
dcl_thread_group 64, 1, 1
ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.x, vThreadID.x, l(4), t0.xxxx
store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.x
sync_g_t
if_z vThreadIDInGroupFlattened.x
  mov r0.y, l(0)
  mov r1.x, l(0)
  loop
    uge r1.y, r0.y, l(64)
    breakc_nz r1.y
    ld_structured r1.y, r0.y, l(0), g0.xxxx
    iadd r1.x, r1.x, r1.y
    iadd r0.y, r0.y, l(1)
  endloop
  store_raw g1.x, l(0), r1.x
  store_uav_typed u0.xyzw, vThreadGroupID.xxxx, r1.xxxx
  atomic_iadd u1, l(0), r1.x
  imm_atomic_umax r0.z, u1, l(4), r1.x
  ishl r0.w, vThreadGroupID.x, l(2)
  store_raw u1.x, r0.w, r0.z
endif
sync_uglobal_g_t
ld_raw r0.y, l(0), g1.xxxx
iadd r0.y, r0.y, cb0[0].x
store_structured u2.x, vThreadID.x, l(0), r0.y
ret
