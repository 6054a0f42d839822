; Integer atomics stay atomicrmw (OpAtomic*); floating-point and wrapping
; increment/decrement ones become compare-exchange loops, which every
; OpenCL device supports.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; RUN: spirv-dis %t.spv | FileCheck --check-prefix=SPV %s
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK: atomicrmw add ptr addrspace(1) %i, i32 1 monotonic
; CHECK: atomicrmw max ptr addrspace(1) %i, i32 7 monotonic
; CHECK: atomic.cas:
; CHECK: fadd float %{{.*}}, 1.500000e+00
; CHECK: cmpxchg ptr addrspace(1) %f
; CHECK: atomic.cas{{[0-9]+}}:
; CHECK: cmpxchg ptr addrspace(1) %i
; CHECK: cmpxchg ptr addrspace(1) %i, i32 3, i32 4 monotonic monotonic
; CHECK-NOT: atomicrmw fadd
; CHECK-NOT: atomicrmw uinc_wrap
; SPV-DAG: OpAtomicIAdd
; SPV-DAG: OpAtomicSMax
; SPV-DAG: OpAtomicCompareExchange
define void @k(ptr %i, ptr %f) #0 {
  %a = atomicrmw add ptr %i, i32 1 monotonic
  %b = atomicrmw max ptr %i, i32 7 monotonic
  %c = atomicrmw fadd ptr %f, float 1.5 monotonic
  %d = atomicrmw uinc_wrap ptr %i, i32 10 monotonic
  %e = cmpxchg ptr %i, i32 3, i32 4 monotonic monotonic
  ret void
}
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(int*, float*)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"ptr", i32 8, i32 8}}
!3 = !{}
