// Compute stage of the compute sample (shader model 5 assembly; Wine's HLSL
// compiler cannot build compute shaders). One thread per particle:
//   t0  StructuredBuffer<Seed>   { float2 centre; float radius; float speed; }
//   u0  RWByteAddressBuffer      24-byte instances { float2 pos; float4 colour; },
//                                later bound as the draw's instance vertex buffer
//   u1  RWByteAddressBuffer      DrawInstancedIndirect arguments, cleared to 0
//   cb0[0].x = frame index, cb0[0].y = number of particles to draw
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[1], immediateIndexed
dcl_resource_structured t0, 16
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadID.x
dcl_temps 5
dcl_thread_group 64, 1, 1
// r1 = seed
ld_structured r1.xyzw, vThreadID.x, l(0), t0.xyzw
// angle = frame * speed + index * 0.7
utof r2.x, cb0[0].x
utof r2.y, vThreadID.x
mul r2.z, r2.y, l(0.700000)
mad r2.x, r2.x, r1.w, r2.z
sincos r3.x, r3.y, r2.x
// position = centre + radius * (sin, cos)
mad r3.xy, r3.xyxx, r1.zzzz, r1.xyxx
// colour = (i / 63, 1 - i / 63, 0.5, 1)
mul r4.x, r2.y, l(0.015873)
add r4.y, -r4.x, l(1.000000)
mov r4.zw, l(0, 0, 0.500000, 1.000000)
// instance i lives at byte offset 24 * i
imad r0.x, vThreadID.x, l(24), l(0)
store_raw u0.xy, r0.x, r3.xyxx
iadd r0.y, r0.x, l(8)
store_raw u0.xyzw, r0.y, r4.xyzw
// Indirect arguments: every drawn particle bumps InstanceCount; thread 0
// writes VertexCountPerInstance.
ult r0.z, vThreadID.x, cb0[0].y
if_nz r0.z
  atomic_iadd u1, l(4), l(1)
endif
ieq r0.w, vThreadID.x, l(0)
if_nz r0.w
  store_raw u1.x, l(0), l(4)
endif
ret
