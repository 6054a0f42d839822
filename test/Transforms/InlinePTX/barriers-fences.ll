; bar.sync/barrier.sync (with or without a thread count) are the block
; barrier, bar.red the counting barriers, bar.warp.sync __syncwarp; membar
; and fence map to the fence of their scope. A "memory" clobber brackets
; the lowered code with block fences unless the asm is one barrier/fence.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-lower-inline-ptx -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define void @bar_sync()
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK-NEXT: ret void
; CHECK-NEXT: }
define void @bar_sync() {
  call void asm sideeffect "bar.sync 0;", "~{memory}"()
  call void asm sideeffect "barrier.sync.aligned 0;", ""()
  call void asm sideeffect "bar.sync 1, $0;", "r"(i32 64)
  ret void
}

; CHECK-LABEL: define i32 @bar_red(i32 %x)
; CHECK-NEXT: [[T1:%.*]] = icmp ne i32 %x, 0
; CHECK-NEXT: [[T2:%.*]] = zext i1 [[T1]] to i32
; CHECK-NEXT: [[T3:%.*]] = call i32 @__hetgpu_barrier_count(i32 [[T2]])
; CHECK-NEXT: [[T4:%.*]] = xor i1 [[T1]], true
; CHECK-NEXT: [[T5:%.*]] = zext i1 [[T4]] to i32
; CHECK-NEXT: [[T6:%.*]] = call i32 @__hetgpu_barrier_and(i32 [[T5]])
; CHECK-NEXT: [[T7:%.*]] = icmp ne i32 [[T6]], 0
; CHECK-NEXT: [[T8:%.*]] = select i1 [[T7]], i32 1, i32 0
; CHECK-NEXT: [[T9:%.*]] = insertvalue { i32, i32 } poison, i32 [[T3]], 0
; CHECK-NEXT: [[T10:%.*]] = insertvalue { i32, i32 } [[T9]], i32 [[T8]], 1
; CHECK-NEXT: %a = extractvalue { i32, i32 } [[T10]], 0
; CHECK-NEXT: %b = extractvalue { i32, i32 } [[T10]], 1
; CHECK-NEXT: %s = add i32 %a, %b
; CHECK-NEXT: ret i32 %s
; CHECK-NEXT: }
define i32 @bar_red(i32 %x) {
  %r = call { i32, i32 } asm sideeffect "{ .reg .pred p, q; setp.ne.u32 p, $2, 0; bar.red.popc.u32 $0, 0, p; bar.red.and.pred q, 0, !p; selp.u32 $1, 1, 0, q; }", "=r,=r,r"(i32 %x)
  %a = extractvalue { i32, i32 } %r, 0
  %b = extractvalue { i32, i32 } %r, 1
  %s = add i32 %a, %b
  ret i32 %s
}

; CHECK-LABEL: define void @warp_sync(i32 %m)
; CHECK-NEXT: call void @__hetgpu_syncwarp(i32 %m)
; CHECK-NEXT: ret void
; CHECK-NEXT: }
define void @warp_sync(i32 %m) {
  call void asm sideeffect "bar.warp.sync $0;", "r"(i32 %m)
  ret void
}

; CHECK-LABEL: define void @fences()
; CHECK-NEXT: call void @__hetgpu_fence_block()
; CHECK-NEXT: call void @__hetgpu_fence_device()
; CHECK-NEXT: call void @__hetgpu_fence_system()
; CHECK-NEXT: call void @__hetgpu_fence_device()
; CHECK-NEXT: call void @__hetgpu_fence_block()
; CHECK-NEXT: ret void
; CHECK-NEXT: }
define void @fences() {
  call void asm sideeffect "membar.cta;", "~{memory}"()
  call void asm sideeffect "membar.gl;", "~{memory}"()
  call void asm sideeffect "membar.sys;", "~{memory}"()
  call void asm sideeffect "fence.acq_rel.gpu;", ""()
  call void asm sideeffect "fence.sc.cta;", ""()
  ret void
}

; CHECK-LABEL: define void @compiler_barrier()
; CHECK-NEXT: call void @__hetgpu_fence_block()
; CHECK-NEXT: call void @__hetgpu_fence_block()
; CHECK-NEXT: ret void
; CHECK-NEXT: }
define void @compiler_barrier() {
  call void asm sideeffect "", "~{memory}"()
  ret void
}

; CHECK-LABEL: define void @hints(ptr %p)
; CHECK-NEXT: ret void
; CHECK-NEXT: }
define void @hints(ptr %p) {
  call void asm sideeffect "prefetch.global.L2 [$0];", "l"(ptr %p)
  call void asm sideeffect "nanosleep.u32 100;", ""()
  call void asm sideeffect "pmevent 1;", ""()
  ret void
}

; CHECK-LABEL: define void @trap()
; CHECK-NEXT: call void @__hetgpu_trap()
; CHECK-NEXT: ret void
; CHECK-NEXT: }
define void @trap() {
  call void asm sideeffect "trap;", ""()
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
