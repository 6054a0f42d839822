; printf appends a record (format id, size, the vprintf argument buffer, a
; copy of each %s string) to the module's printf buffer; the format lives
; in the module table, hex-encoded, and the runtime prints at sync points.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -S %s | FileCheck %s
; RUN: %spirv_translate %s -o %t.spv
; RUN: spirv-val %t.spv
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

%printf_args = type { i32, double, ptr }
@.str = private unnamed_addr constant [16 x i8] c"hello %d %f %s\0A\00", align 1
@.str1 = private unnamed_addr constant [4 x i8] c"str\00", align 1

; CHECK-NOT: @.str =
; CHECK: @.str1 = internal addrspace(1) constant [4 x i8] c"str\00"
; "printf <id> <args bytes> <strings> <offsets> <hex format>"
; CHECK: printf 0 24 1 16 68656c6c6f2025642025662025730a\0A
; CHECK-LABEL: define spir_kernel void @k(
; CHECK: %printf.buffer = load i64, ptr addrspace(1) %{{.*}}
; CHECK: %r = select i1 %{{.*}}, i32 3, i32 -1
; CHECK: atomicrmw add ptr addrspace(1) %{{.*}}, i64 288 monotonic
; CHECK: %printf.record = getelementptr inbounds i8
; CHECK: store i32 0, ptr addrspace(1) %printf.record
; CHECK: call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) align 1 %{{.*}}, ptr align 1 %{{.*}}, i64 24, i1 false)
; CHECK: printf.strcpy:
; CHECK: store i32 %r, ptr addrspace(1) %out
define void @k(ptr %out, i32 %x) #0 {
  %a = alloca %printf_args, align 8
  %f1 = getelementptr inbounds i8, ptr %a, i64 8
  %f2 = getelementptr inbounds i8, ptr %a, i64 16
  store i32 %x, ptr %a, align 8
  store double 1.5, ptr %f1, align 8
  store ptr @.str1, ptr %f2, align 8
  %r = call i32 @__hetgpu_printf(ptr @.str, ptr %a)
  store i32 %r, ptr %out
  ret void
}
declare i32 @__hetgpu_printf(ptr, ptr)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(int*, int)", !"params", !2, !"shared.static", i64 0, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 4, i32 4}}
!3 = !{}
