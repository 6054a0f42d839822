; __syncthreads() is an OpenCL work-group barrier fencing local and global
; memory (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE = 3); the counting
; barriers read a local counter that only grows, wait at a barrier, change
; it, wait again and read it: the count is the difference (two barriers, no
; reset). barrier_count adds each predicate atomically; barrier_or/and need
; no atomic: the work-items that count (predicate set / clear) all store the
; old value + 1.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; RUN: spirv-dis %t.spv | FileCheck --check-prefix=SPV %s
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: @__hetgpu_spirv_barrier_counter = internal addrspace(3) global i32
; CHECK-LABEL: define spir_kernel void @k(
; CHECK: call spir_func void @_Z7barrierj(i32 3)
; CHECK-NEXT: [[B0:%[0-9]+]] = load volatile i32, ptr addrspace(3) @__hetgpu_spirv_barrier_counter
; CHECK-NEXT: call spir_func void @_Z7barrierj(i32 3)
; CHECK: atomicrmw add ptr addrspace(3) @__hetgpu_spirv_barrier_counter
; CHECK-NEXT: call spir_func void @_Z7barrierj(i32 1)
; CHECK-NEXT: [[B1:%[0-9]+]] = load volatile i32, ptr addrspace(3) @__hetgpu_spirv_barrier_counter
; CHECK-NEXT: %c = sub i32 [[B1]], [[B0]]
; CHECK-NOT: store i32 0, ptr addrspace(3) @__hetgpu_spirv_barrier_counter
; CHECK-NEXT: [[O0:%[0-9]+]] = load volatile i32, ptr addrspace(3) @__hetgpu_spirv_barrier_counter
; CHECK-NEXT: call spir_func void @_Z7barrierj(i32 3)
; CHECK-NEXT: [[P:%[0-9]+]] = icmp ne i32 %p, 0
; CHECK-NEXT: br i1 [[P]], label %[[OSET:[0-9]+]], label %[[OJOIN:[0-9]+]]
; CHECK: [[OSET]]:
; CHECK-NEXT: [[O1:%[0-9]+]] = add i32 [[O0]], 1
; CHECK-NEXT: store volatile i32 [[O1]], ptr addrspace(3) @__hetgpu_spirv_barrier_counter
; CHECK: [[OJOIN]]:
; CHECK-NEXT: call spir_func void @_Z7barrierj(i32 1)
; CHECK-NEXT: [[O2:%[0-9]+]] = load volatile i32, ptr addrspace(3) @__hetgpu_spirv_barrier_counter
; CHECK-NEXT: %hetgpu.barrier.count = sub i32 [[O2]], [[O0]]
; CHECK-NEXT: icmp ne i32 %hetgpu.barrier.count, 0
; CHECK-NOT: atomicrmw
; CHECK: [[N:%[0-9]+]] = xor i1 {{%[0-9]+}}, true
; CHECK-NEXT: br i1 [[N]]
; CHECK: store volatile i32
; CHECK: icmp eq i32 %hetgpu.barrier.count1, 0
; CHECK-NOT: call{{.*}} @__hetgpu_
; CHECK-LABEL: define spir_kernel void @__hetgpu_spirv_info(
; SPV: OpControlBarrier %{{.*}} %{{.*}} %{{.*}}
define void @k(ptr %out, i32 %p) #0 {
  call void @__hetgpu_barrier() [ "hetgpu.live"() ], !hetgpu.safepoint !10
  %c = call i32 @__hetgpu_barrier_count(i32 %p)
  %o = call i32 @__hetgpu_barrier_or(i32 %p)
  %a = call i32 @__hetgpu_barrier_and(i32 %p)
  store i32 %c, ptr %out
  %q = getelementptr i32, ptr %out, i32 1
  store i32 %o, ptr %q
  %r = getelementptr i32, ptr %out, i32 2
  store i32 %a, ptr %r
  ret void
}
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_barrier_count(i32)
declare i32 @__hetgpu_barrier_and(i32)
declare i32 @__hetgpu_barrier_or(i32)
!10 = !{i32 1}
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(int*, int)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 4, i32 4}}
!3 = !{}
