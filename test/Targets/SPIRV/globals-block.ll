; __device__ and __constant__ variables live in the module's globals block
; (hidden last kernel parameter) at the offsets the module table lists;
; read-only internal data stays a program-scope constant; the init kernel
; copies initial values into the block.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; RUN: spirv-dis %t.spv | FileCheck --check-prefix=SPV %s
; REQUIRES: spirv-val
; The kernel's memory(argmem: none) was true in hetIR but not once the
; variables are reached through the hidden parameter: it must be dropped,
; or the optimiser deletes the atomic.
; SPV: OpAtomicIAdd
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@counter = addrspace(1) externally_initialized global i32 0, align 4
@coef = addrspace(4) externally_initialized constant [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0], align 16
@tbl = internal addrspace(4) constant [2 x i32] [i32 7, i32 9], align 4

; CHECK: @tbl = internal addrspace(1) constant [2 x i32] [i32 7, i32 9]
; CHECK: @__hetgpu_spirv_table = internal addrspace(2) constant {{.*}} c"hetgpu-spirv 2\0Ablock 80 16\0Aglobal counter 48 4\0Aglobal coef 64 16\0Akernel k 0\0A"
; CHECK: @coef.init = internal addrspace(1) constant [4 x float] [float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 4.000000e+00]
; CHECK-NOT: @counter.init
; CHECK-LABEL: define spir_kernel void @k(
; CHECK-DAG: %coef = getelementptr inbounds i8, ptr addrspace(1) %hetgpu.globals, i64 64
; CHECK-DAG: %counter = getelementptr inbounds i8, ptr addrspace(1) %hetgpu.globals, i64 48
; CHECK: atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic
; CHECK: load float, ptr addrspace(1) %{{.*}}
; CHECK: load i32, ptr addrspace(1) @tbl
; CHECK-LABEL: define spir_kernel void @__hetgpu_spirv_init(ptr addrspace(1) %0)
; CHECK: %[[DST:.*]] = getelementptr inbounds i8, ptr addrspace(1) %0, i64 64
; CHECK: call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 1 %[[DST]], ptr addrspace(1) align 1 @coef.init, i64 16, i1 false)
; CHECK-NEXT: ret void
; CHECK: attributes #0 = { "hetgpu-kernel" }
define void @k(ptr %out) #0 {
  %o = atomicrmw add ptr addrspacecast (ptr addrspace(1) @counter to ptr), i32 1 monotonic
  %cp = getelementptr [4 x float], ptr addrspace(4) @coef, i32 0, i32 2
  %c = load float, ptr addrspace(4) %cp
  store float %c, ptr %out
  %t = load i32, ptr addrspacecast (ptr addrspace(4) @tbl to ptr)
  %q = getelementptr i32, ptr %out, i32 1
  store i32 %t, ptr %q
  ret void
}
attributes #0 = { "hetgpu-kernel" memory(readwrite, argmem: none) }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(float*)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}}
!3 = !{}
