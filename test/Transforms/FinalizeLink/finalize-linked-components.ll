; hetgpu-finalize-link on the llvm-link of two relocatable components: the
; kernel of a.ll calls a barrier helper of b.ll that uses b.ll's __shared__
; tile. After the pass the helper is inlined and gone (device functions are
; internal once the program is whole, unused ones erased), the kernel's
; shared size (256 bytes) and features (barrier) count the callee, the state
; layout numbers the barrier, the version entries of both components are one,
; and the module is no longer relocatable. A second run changes nothing.
; RUN: rm -rf %t && split-file %s %t
; RUN: llvm-link %t/a.ll %t/b.ll -S -o %t/linked.ll
; RUN: hetgpu-opt -passes=hetgpu-finalize-link -S %t/linked.ll | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-finalize-link,hetgpu-finalize-link -S %t/linked.ll | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-finalize-link -S %t/linked.ll | hetgpu-opt -passes=hetgpu-verify -disable-output
; Negative twin: a module without !hetgpu.relocatable is left alone.
; RUN: hetgpu-opt -passes=hetgpu-finalize-link -S %t/whole.ll | FileCheck --check-prefix=WHOLE %s

; CHECK-NOT: define {{.*}}@block_op
; CHECK-NOT: define {{.*}}@unused
; CHECK-LABEL: define void @k(
; CHECK: call void @__hetgpu_barrier(){{.*}}[ "hetgpu.live"
; CHECK-NOT: !hetgpu.relocatable
; CHECK: !hetgpu.ir.version = !{![[V:[0-9]+]]}
; CHECK: !hetgpu.kernels = !{![[K:[0-9]+]]}
; CHECK: !hetgpu.state = !{
; CHECK: ![[K]] = !{ptr @k, !"name", !"k", !"params", !{{[0-9]+}}, !"shared.static", i64 256, !"features", ![[F:[0-9]+]]
; CHECK: ![[F]] = !{!"barrier"}

; WHOLE: define void @k(
; WHOLE: define float @block_op(
; WHOLE: !hetgpu.kernels = !{![[K:[0-9]+]]}
; WHOLE: ![[K]] = !{ptr @k, !"name", !"k", !"params", !{{[0-9]+}}, !"shared.static", i64 0,

;--- a.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"
define void @k(ptr %p) #0 {
  %v = call float @block_op(float 1.0)
  store float %v, ptr %p
  ret void
}
declare float @block_op(float)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!hetgpu.relocatable = !{}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !3, !"launch.bounds", !4}
!2 = !{!5}
!5 = !{!"ptr", i32 8, i32 8}
!3 = !{}
!4 = !{i32 0, i32 0}

;--- b.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"
@tile = internal addrspace(3) global [64 x float] poison, align 4
define float @block_op(float %x) {
  %t = call i32 @__hetgpu_tid_x()
  %slot = getelementptr [64 x float], ptr addrspace(3) @tile, i32 0, i32 %t
  store float %x, ptr addrspace(3) %slot
  call void @__hetgpu_barrier()
  %v = load float, ptr addrspace(3) @tile
  ret float %v
}
define float @unused(float %x) {
  ret float %x
}
declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{}
!hetgpu.relocatable = !{}
!0 = !{i32 1, i32 0}

;--- whole.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"
define void @k(ptr %p) #0 {
  %v = call float @block_op(float 1.0)
  store float %v, ptr %p
  ret void
}
define float @block_op(float %x) {
  ret float %x
}
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !3, !"launch.bounds", !4}
!2 = !{!5}
!5 = !{!"ptr", i32 8, i32 8}
!3 = !{}
!4 = !{i32 0, i32 0}
