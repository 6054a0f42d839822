; assert() prints CUDA's message through the printf buffer, records
; StatusAssert (1) in the globals block status word and leaves the
; work-item; __trap() records StatusTrap (2).
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@msg = private unnamed_addr constant [6 x i8] c"x > 0\00"
@file = private unnamed_addr constant [5 x i8] c"a.cu\00"
@fn = private unnamed_addr constant [9 x i8] c"void k()\00"

; CHECK: printf 0 56 3 0 16 48 25733a25643a2025733a20626c6f636b3a205b25642c25642c25645d2c207468726561643a205b25642c25642c25645d20417373657274696f6e2060257360206661696c65642e0a\0Astderr 0\0A
; CHECK-LABEL: define spir_kernel void @k(
; CHECK: %assert.args = alloca { ptr addrspace(4), i32,
; CHECK: %[[S1:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(1) %hetgpu.globals, i64 0
; CHECK-NEXT: cmpxchg ptr addrspace(1) %[[S1]], i32 0, i32 1 monotonic monotonic
; CHECK-NEXT: ret void
; CHECK: %[[S2:[0-9]+]] = getelementptr inbounds i8, ptr addrspace(1) %hetgpu.globals, i64 0
; CHECK-NEXT: cmpxchg ptr addrspace(1) %[[S2]], i32 0, i32 2 monotonic monotonic
; CHECK-NEXT: ret void
define void @k(ptr %out, i32 %x) #0 {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %ok, label %fail
fail:
  call void @__hetgpu_assert_fail(ptr @msg, ptr @file, i32 7, ptr @fn)
  unreachable
ok:
  %d = icmp sgt i32 %x, 100
  br i1 %d, label %trap, label %done
trap:
  call void @__hetgpu_trap()
  unreachable
done:
  store i32 %x, ptr %out
  ret void
}
declare void @__hetgpu_assert_fail(ptr, ptr, i32, ptr)
declare void @__hetgpu_trap()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(int*, int)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 4, i32 4}}
!3 = !{}
