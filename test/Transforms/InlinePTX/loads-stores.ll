; ld/st: state spaces pick the address space, cache operators are dropped,
; .volatile/.cv make the access volatile, .relaxed/.acquire/.release atomic,
; .v2/.v4 are one access per element, narrow loads extend into the register.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-lower-inline-ptx -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define i32 @ld_global_nc(ptr %p)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T2:%.*]] = getelementptr i8, ptr addrspace(1) [[T1]], i64 8
; CHECK-NEXT: [[T3:%.*]] = load i32, ptr addrspace(1) [[T2]], align 4
; CHECK-NEXT: ret i32 [[T3]]
; CHECK-NEXT: }
define i32 @ld_global_nc(ptr %p) {
  %a = ptrtoint ptr %p to i64
  %r = call i32 asm sideeffect "ld.global.nc.u32 $0, [$1+8];", "=r,l"(i64 %a)
  ret i32 %r
}

; ld.cg (L2 only: how CUDA code polls what other blocks write) is volatile.
; CHECK-LABEL: define i32 @ld_v4(ptr %p)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T2:%.*]] = load volatile i32, ptr addrspace(1) [[T1]], align 16
; CHECK-NEXT: [[T3:%.*]] = getelementptr i8, ptr addrspace(1) [[T1]], i64 4
; CHECK-NEXT: [[T4:%.*]] = load volatile i32, ptr addrspace(1) [[T3]], align 4
; CHECK-NEXT: [[T5:%.*]] = getelementptr i8, ptr addrspace(1) [[T1]], i64 8
; CHECK-NEXT: [[T6:%.*]] = load volatile i32, ptr addrspace(1) [[T5]], align 4
; CHECK-NEXT: [[T7:%.*]] = getelementptr i8, ptr addrspace(1) [[T1]], i64 12
; CHECK-NEXT: [[T8:%.*]] = load volatile i32, ptr addrspace(1) [[T7]], align 4
; CHECK-NEXT: [[T9:%.*]] = insertvalue { i32, i32, i32, i32 } poison, i32 [[T2]], 0
; CHECK-NEXT: [[T10:%.*]] = insertvalue { i32, i32, i32, i32 } [[T9]], i32 [[T4]], 1
; CHECK-NEXT: [[T11:%.*]] = insertvalue { i32, i32, i32, i32 } [[T10]], i32 [[T6]], 2
; CHECK-NEXT: [[T12:%.*]] = insertvalue { i32, i32, i32, i32 } [[T11]], i32 [[T8]], 3
; CHECK-NEXT: %a = extractvalue { i32, i32, i32, i32 } [[T12]], 0
; CHECK-NEXT: %d = extractvalue { i32, i32, i32, i32 } [[T12]], 3
; CHECK-NEXT: %s = add i32 %a, %d
; CHECK-NEXT: ret i32 %s
; CHECK-NEXT: }
define i32 @ld_v4(ptr %p) {
  %r = call { i32, i32, i32, i32 } asm sideeffect "ld.global.cg.v4.u32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l"(ptr %p)
  %a = extractvalue { i32, i32, i32, i32 } %r, 0
  %d = extractvalue { i32, i32, i32, i32 } %r, 3
  %s = add i32 %a, %d
  ret i32 %s
}

; CHECK-LABEL: define i32 @ld_s8(ptr %p)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T2:%.*]] = load i8, ptr addrspace(1) [[T1]], align 1
; CHECK-NEXT: [[T3:%.*]] = sext i8 [[T2]] to i32
; CHECK-NEXT: ret i32 [[T3]]
; CHECK-NEXT: }
define i32 @ld_s8(ptr %p) {
  %r = call i32 asm "ld.global.cs.s8 $0, [$1];", "=r,l"(ptr %p)
  ret i32 %r
}

; CHECK-LABEL: define i16 @ld_u8_scoped(ptr %p)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T2:%.*]] = load i8, ptr addrspace(1) [[T1]], align 1
; CHECK-NEXT: [[T3:%.*]] = zext i8 [[T2]] to i16
; CHECK-NEXT: ret i16 [[T3]]
; CHECK-NEXT: }
define i16 @ld_u8_scoped(ptr %p) {
  %r = call i16 asm sideeffect "{ .reg .u8 datum; ld.global.lu.u8 datum, [$1]; cvt.u16.u8 $0, datum; }", "=h,l"(ptr %p)
  ret i16 %r
}

; CHECK-LABEL: define i32 @ld_shared32(ptr addrspace(3) %p)
; CHECK-NEXT: %g = addrspacecast ptr addrspace(3) %p to ptr
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %g to ptr addrspace(3)
; CHECK-NEXT: [[T2:%.*]] = load i32, ptr addrspace(3) [[T1]], align 4
; CHECK-NEXT: ret i32 [[T2]]
; CHECK-NEXT: }
define i32 @ld_shared32(ptr addrspace(3) %p) {
  %g = addrspacecast ptr addrspace(3) %p to ptr
  %a = call i32 asm "cvta.to.shared.u32 $0, $1;", "=r,l"(ptr %g)
  %r = call i32 asm sideeffect "ld.shared.u32 $0, [$1];", "=r,r"(i32 %a)
  ret i32 %r
}

; CHECK-LABEL: define i32 @ld_volatile_acquire(ptr %p)
; CHECK-NEXT: call void @__hetgpu_fence_block()
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T2:%.*]] = load volatile i32, ptr addrspace(1) [[T1]], align 4
; CHECK-NEXT: [[T3:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T4:%.*]] = load atomic i32, ptr addrspace(1) [[T3]] monotonic, align 4
; CHECK-NEXT: [[T5:%.*]] = load atomic i32, ptr %p acquire, align 4
; CHECK-NEXT: [[T6:%.*]] = insertvalue { i32, i32, i32 } poison, i32 [[T2]], 0
; CHECK-NEXT: [[T7:%.*]] = insertvalue { i32, i32, i32 } [[T6]], i32 [[T4]], 1
; CHECK-NEXT: [[T8:%.*]] = insertvalue { i32, i32, i32 } [[T7]], i32 [[T5]], 2
; CHECK-NEXT: call void @__hetgpu_fence_block()
; CHECK-NEXT: %a = extractvalue { i32, i32, i32 } [[T8]], 0
; CHECK-NEXT: ret i32 %a
; CHECK-NEXT: }
define i32 @ld_volatile_acquire(ptr %p) {
  %r = call { i32, i32, i32 } asm sideeffect "ld.volatile.global.u32 $0, [$3];\0A\09ld.relaxed.gpu.global.u32 $1, [$3];\0A\09ld.acquire.sys.u32 $2, [$3];", "=r,=r,=r,l,~{memory}"(ptr %p)
  %a = extractvalue { i32, i32, i32 } %r, 0
  ret i32 %a
}

; CHECK-LABEL: define void @st_forms(ptr %p, i64 %x, i32 %y)
; CHECK-NEXT: [[T1:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: store i64 %x, ptr addrspace(1) [[T1]], align 16
; CHECK-NEXT: [[T2:%.*]] = getelementptr i8, ptr addrspace(1) [[T1]], i64 8
; CHECK-NEXT: store i64 %x, ptr addrspace(1) [[T2]], align 8
; CHECK-NEXT: [[T3:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: [[T4:%.*]] = getelementptr i8, ptr addrspace(1) [[T3]], i64 16
; CHECK-NEXT: store atomic i32 %y, ptr addrspace(1) [[T4]] release, align 4
; CHECK-NEXT: [[T5:%.*]] = addrspacecast ptr %p to ptr addrspace(3)
; CHECK-NEXT: store volatile i16 7, ptr addrspace(3) [[T5]], align 2
; CHECK-NEXT: [[T6:%.*]] = getelementptr i8, ptr %p, i64 4
; CHECK-NEXT: store float 1.000000e+00, ptr [[T6]], align 4
; CHECK-NEXT: ret void
; CHECK-NEXT: }
define void @st_forms(ptr %p, i64 %x, i32 %y) {
  call void asm sideeffect "st.global.wb.v2.u64 [$0], {$1, $1};", "l,l"(ptr %p, i64 %x)
  call void asm sideeffect "st.release.gpu.global.u32 [$0+16], $1;", "l,r"(ptr %p, i32 %y)
  call void asm sideeffect "st.volatile.shared.u16 [$0], $1;", "l,h"(ptr %p, i16 7)
  call void asm sideeffect "st.cs.f32 [$0+4], $1;", "l,f"(ptr %p, float 1.0)
  ret void
}

; CHECK-LABEL: define void @st_guarded(ptr %p, i32 %c, i32 %v)
; CHECK-NEXT: call void @__hetgpu_fence_block()
; CHECK-NEXT: [[T1:%.*]] = icmp ne i32 %c, 0
; CHECK-NEXT: br i1 [[T1]], label %[[BB2:[0-9]+]], label %[[BB4:[0-9]+]]
; CHECK: [[BB2:[0-9]+]]:
; CHECK-NEXT: [[T3:%.*]] = addrspacecast ptr %p to ptr addrspace(1)
; CHECK-NEXT: store i32 %v, ptr addrspace(1) [[T3]], align 4
; CHECK-NEXT: br label %[[BB4]]
; CHECK: [[BB4:[0-9]+]]:
; CHECK-NEXT: call void @__hetgpu_fence_block()
; CHECK-NEXT: ret void
; CHECK-NEXT: }
define void @st_guarded(ptr %p, i32 %c, i32 %v) {
  call void asm sideeffect "{ .reg .pred p; setp.ne.u32 p, $1, 0; @p st.global.u32 [$0], $2; }", "l,r,r,~{memory}"(ptr %p, i32 %c, i32 %v)
  ret void
}

; Negative twin: no asm, nothing changes.
; CHECK-LABEL: define i32 @no_asm(i32 %x)
; CHECK-NEXT: %r = add i32 %x, 1
; CHECK-NEXT: ret i32 %r
; CHECK-NEXT: }
define i32 @no_asm(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{}
!0 = !{i32 1, i32 0}
