; printf -> vprintf(fmt, buffer) (same buffer layout), assert_fail ->
; __assertfail(msg, file, line, func, charSize=1) then trap, trap ->
; llvm.trap, malloc/free -> the driver's malloc/free.
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; RUN: hetgpu-translate --target=nvptx --arch=sm_80 %s -o - | FileCheck --check-prefix=PTX %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@fmt = private constant [4 x i8] c"%d\0A\00"
@msg = private constant [4 x i8] c"x>0\00"
@file = private constant [5 x i8] c"a.cu\00"
@fn = private constant [2 x i8] c"k\00"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %r = call i32 @vprintf(ptr @fmt, ptr %buf)
; CHECK: %m = call ptr @malloc(i64 %n)
; CHECK: call void @free(ptr %m)
; CHECK: call void @__assertfail(ptr @msg, ptr @file, i32 7, ptr @fn, i64 1)
; CHECK-NEXT: call void @llvm.trap()
; CHECK-NEXT: unreachable
; CHECK: call void @llvm.trap()
; CHECK-NEXT: unreachable
; CHECK-DAG: declare i32 @vprintf(ptr, ptr)
; CHECK-DAG: declare ptr @malloc(i64)
; CHECK-DAG: declare void @free(ptr)
; CHECK-DAG: declare void @__assertfail(ptr, ptr, i32, ptr, i64)
; PTX-DAG: .extern .func (.param .b32 func_retval0) vprintf
; PTX-DAG: .extern .func (.param .b64 func_retval0) malloc
; PTX-DAG: .extern .func free
; PTX-DAG: .extern .func __assertfail
; PTX: call.uni (retval0), vprintf,
; PTX: trap;
define void @k(ptr %p, i32 %x, i64 %n) #0 {
entry:
  %buf = alloca i32
  store i32 %x, ptr %buf
  %r = call i32 @__hetgpu_printf(ptr @fmt, ptr %buf)
  %m = call ptr @__hetgpu_malloc(i64 %n)
  store volatile i32 %r, ptr %m
  call void @__hetgpu_free(ptr %m)
  %ok = icmp sgt i32 %x, 0
  br i1 %ok, label %more, label %fail
fail:
  call void @__hetgpu_assert_fail(ptr @msg, ptr @file, i32 7, ptr @fn)
  unreachable
more:
  %big = icmp sgt i32 %x, 1000
  br i1 %big, label %trap, label %done
trap:
  call void @__hetgpu_trap()
  unreachable
done:
  ret void
}
declare i32 @__hetgpu_printf(ptr, ptr)
declare ptr @__hetgpu_malloc(i64)
declare void @__hetgpu_free(ptr)
declare void @__hetgpu_assert_fail(ptr, ptr, i32, ptr)
declare void @__hetgpu_trap()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
