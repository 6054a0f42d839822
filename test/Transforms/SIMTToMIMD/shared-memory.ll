; Static shared variables are at their offsets in the kernel's shared
; layout (module order, each at its alignment) from ctx->shared, also when
; used through constant expressions; dynamic shared memory is
; ctx->shared + ctx->dynamic_shared_offset. Shared variables of another
; kernel do not take space in this one.
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@other = internal addrspace(3) global [100 x i32] undef, align 4
@flag = internal addrspace(3) global i8 undef, align 1
@acc = internal addrspace(3) global [2 x double] undef, align 8

; CHECK-NOT: @flag =
; CHECK-NOT: @acc =
; CHECK-LABEL: define internal void @k.hetgpu.thread(
; CHECK: [[BASE:%.*]] = load ptr, ptr {{%.*}}, align 8, !invariant.load
; CHECK-NEXT: [[F:%.*]] = getelementptr inbounds i8, ptr [[BASE]], i64 0
; CHECK-NEXT: %flag = addrspacecast ptr [[F]] to ptr addrspace(3)
; CHECK-NEXT: [[A:%.*]] = getelementptr inbounds i8, ptr [[BASE]], i64 8
; CHECK-NEXT: %acc = addrspacecast ptr [[A]] to ptr addrspace(3)
; CHECK-NEXT: [[DOP:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 48
; CHECK-NEXT: [[DO:%.*]] = load i64, ptr [[DOP]], align 8, !invariant.load
; CHECK-NEXT: [[D:%.*]] = getelementptr inbounds i8, ptr [[BASE]], i64 [[DO]]
; CHECK-NEXT: %dynamic.shared = addrspacecast ptr [[D]] to ptr addrspace(3)
; CHECK: store i8 1, ptr addrspace(3) %flag
; CHECK: getelementptr inbounds i8, ptr addrspace(3) %acc, i64 8
; CHECK: store float 0.000000e+00, ptr addrspace(3) %dynamic.shared
define void @k() #0 {
  store i8 1, ptr addrspace(3) @flag
  store double 1.0, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @acc, i64 8)
  %d = call ptr addrspace(3) @__hetgpu_dynamic_shared()
  store float 0.0, ptr addrspace(3) %d
  ret void
}

; CHECK-LABEL: define internal void @j.hetgpu.thread(
; CHECK: [[B2:%.*]] = load ptr, ptr {{%.*}}, align 8, !invariant.load
; CHECK-NEXT: [[O:%.*]] = getelementptr inbounds i8, ptr [[B2]], i64 0
; CHECK-NEXT: %other = addrspacecast ptr [[O]] to ptr addrspace(3)
define void @j() #0 {
  store i32 1, ptr addrspace(3) @other
  ret void
}

declare ptr addrspace(3) @__hetgpu_dynamic_shared()

attributes #0 = { "hetgpu-kernel" }
