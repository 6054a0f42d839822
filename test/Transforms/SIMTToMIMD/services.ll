; printf, assert, trap, malloc, free and the clocks call through
; ctx->services (ABI/BlockABI.h) with the runtime's handle first; fences become
; LLVM fences (block scope: single thread, since a block runs on one
; thread); math builtins are left for the target.
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@fmt = private constant [4 x i8] c"%d\0A\00"

; CHECK-LABEL: define internal void @k.hetgpu.thread(
; CHECK: [[SVP:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 64
; CHECK-NEXT: [[SV:%.*]] = load ptr, ptr [[SVP]], align 8, !invariant.load
; CHECK: %svc.rt = load ptr, ptr [[SV]]
; CHECK-NEXT: [[PF:%.*]] = getelementptr inbounds i8, ptr [[SV]], i64 8
; CHECK-NEXT: [[PFN:%.*]] = load ptr, ptr [[PF]]
; CHECK-NEXT: %n = call i32 [[PFN]](ptr %svc.rt, ptr @fmt, ptr %buf)
; CHECK: [[M:%.*]] = getelementptr inbounds i8, ptr [[SV]], i64 32
; CHECK: %p = call ptr {{%.*}}(ptr %svc.rt{{[0-9]*}}, i64 16)
; CHECK: [[F:%.*]] = getelementptr inbounds i8, ptr [[SV]], i64 40
; CHECK: call void {{%.*}}(ptr %svc.rt{{[0-9]*}}, ptr %p)
; CHECK: [[C:%.*]] = getelementptr inbounds i8, ptr [[SV]], i64 48
; CHECK: [[C64:%.*]] = call i64 {{%.*}}(ptr %svc.rt{{[0-9]*}})
; CHECK-NEXT: trunc i64 [[C64]] to i32
; CHECK: [[G:%.*]] = getelementptr inbounds i8, ptr [[SV]], i64 56
; CHECK: fence syncscope("singlethread") seq_cst
; CHECK-NEXT: fence seq_cst
; CHECK: call float @__hetgpu_math_sinf(
; CHECK: getelementptr inbounds i8, ptr [[SV]], i64 16
; CHECK: call void {{%.*}}(ptr %svc.rt{{[0-9]*}}, ptr @fmt, ptr @fmt, i32 7, ptr @fmt) #[[NR:[0-9]+]]
; CHECK: getelementptr inbounds i8, ptr [[SV]], i64 24
; CHECK: call void {{%.*}}(ptr %svc.rt{{[0-9]*}}) #[[NR]]
define void @k(i32 %x, float %f) #0 {
entry:
  %buf = alloca i32
  store i32 %x, ptr %buf
  %n = call i32 @__hetgpu_printf(ptr @fmt, ptr %buf)
  %p = call ptr @__hetgpu_malloc(i64 16)
  call void @__hetgpu_free(ptr %p)
  %c = call i32 @__hetgpu_clock()
  %g = call i64 @__hetgpu_globaltimer()
  call void @__hetgpu_fence_block()
  call void @__hetgpu_fence_device()
  %s = call float @__hetgpu_math_sinf(float %f)
  %bad = fcmp olt float %s, 0.0
  br i1 %bad, label %fail, label %t
fail:
  call void @__hetgpu_assert_fail(ptr @fmt, ptr @fmt, i32 7, ptr @fmt)
  unreachable
t:
  %odd = icmp eq i32 %c, 3
  br i1 %odd, label %trap, label %done
trap:
  call void @__hetgpu_trap()
  unreachable
done:
  ret void
}

declare i32 @__hetgpu_printf(ptr, ptr)
declare ptr @__hetgpu_malloc(i64)
declare void @__hetgpu_free(ptr)
declare i32 @__hetgpu_clock()
declare i64 @__hetgpu_globaltimer()
declare void @__hetgpu_fence_block()
declare void @__hetgpu_fence_device()
declare float @__hetgpu_math_sinf(float)
declare void @__hetgpu_assert_fail(ptr, ptr, i32, ptr)
declare void @__hetgpu_trap()

attributes #0 = { "hetgpu-kernel" }
