; Warp-synchronous exchanges through non-volatile shared memory become warp
; regrouping points (an __activemask sync point before each access that
; another lane's access may meet with no barrier between). One word that
; every lane stores and then loads (@uniform: the same address for every
; lane) is an exchange; each lane's own element (@own: tile[tid], through
; one pointer) is not, and that kernel stays a plain thread loop; a lane
; reading its neighbour's element (@neighbour) is one.
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd,verify -disable-output %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x i32] poison, align 4

declare i32 @__hetgpu_tid_x()

; CHECK-LABEL: define internal i32 @uniform.hetgpu.thread(
; CHECK: switch i32 %resume
; CHECK: sync1.resume:
define void @uniform(ptr %out) #0 {
  %t = call i32 @__hetgpu_tid_x()
  store i32 %t, ptr addrspace(3) @tile
  %v = load i32, ptr addrspace(3) @tile
  store i32 %v, ptr %out
  ret void
}

; CHECK-LABEL: define internal i32 @neighbour.hetgpu.thread(
; CHECK: switch i32 %resume
; CHECK: sync1.resume:
define void @neighbour(ptr %out) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr i32, ptr addrspace(3) @tile, i64 %i
  store i32 %t, ptr addrspace(3) %p
  %n = add i64 %i, 1
  %q = getelementptr i32, ptr addrspace(3) @tile, i64 %n
  %v = load i32, ptr addrspace(3) %q
  store i32 %v, ptr %out
  ret void
}

; CHECK-NOT: define internal i32 @own.hetgpu.thread(
define void @own(ptr %out) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %i = zext i32 %t to i64
  %p = getelementptr i32, ptr addrspace(3) @tile, i64 %i
  store i32 %t, ptr addrspace(3) %p
  %v = load i32, ptr addrspace(3) %p
  store i32 %v, ptr %out
  ret void
}

attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !4, !5}
!0 = !{i32 1, i32 0}
!1 = !{ptr @uniform, !"name", !"uniform", !"params", !2, !"shared.static", i64 256, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}}
!3 = !{}
!4 = !{ptr @neighbour, !"name", !"neighbour", !"params", !2, !"shared.static", i64 256, !"features", !3}
!5 = !{ptr @own, !"name", !"own", !"params", !2, !"shared.static", i64 256, !"features", !3}
