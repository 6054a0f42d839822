; hetgpu-wrap-shared-addresses: an access whose address is a shared
; variable (or the dynamic shared memory) plus a variable offset reads at
; base + (offset mod 2^32), as NVIDIA's 32-bit shared window does, and the
; offset's GEPs lose inbounds/nuw; constant offsets, global memory and
; addresses that come through a phi stay as they are. The verifier runs
; after the pass.
; RUN: hetgpu-opt -passes=hetgpu-wrap-shared-addresses -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-wrap-shared-addresses,hetgpu-verify -disable-output %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x i32] poison, align 4

declare ptr addrspace(3) @__hetgpu_dynamic_shared()

; CHECK-LABEL: define void @k(
; p[~i] through a generic pointer to the tile: wrapped.
; CHECK: %base = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 128
; CHECK: %p = getelementptr i32, ptr %base, i64 %idx
; CHECK-NEXT: %[[P:[0-9]+]] = ptrtoint ptr %p to i64
; CHECK-NEXT: %shared.off = sub i64 %[[P]], ptrtoint (ptr addrspacecast (ptr addrspace(3) @tile to ptr) to i64)
; CHECK-NEXT: %shared.off32 = and i64 %shared.off, 4294967295
; CHECK-NEXT: %shared.addr = getelementptr i8, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 %shared.off32
; CHECK-NEXT: %v = load i32, ptr %shared.addr
; A constant offset: unchanged.
; CHECK: %c = load i32, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @tile, i64 8)
; Global memory: unchanged.
; CHECK: %g = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
; CHECK-NEXT: store i32 %v, ptr addrspace(1) %g
; The dynamic shared memory, in its own address space, atomically.
; CHECK: %d = getelementptr i32, ptr addrspace(3) %dyn, i64 %idx
; CHECK: %shared.addr{{[0-9]*}} = getelementptr i8, ptr addrspace(3) %dyn, i64 %shared.off32{{[0-9]*}}
; CHECK-NEXT: atomicrmw add ptr addrspace(3) %shared.addr{{[0-9]*}}, i32 1 monotonic
; Through a phi: not followed.
; CHECK: %q = phi ptr [ %p, %entry ]
; CHECK-NEXT: store i32 %c, ptr %q
define void @k(ptr addrspace(1) %out, i32 %i) #0 {
entry:
  %base = getelementptr inbounds i8, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 128
  %not = xor i32 %i, -1
  %idx = zext i32 %not to i64
  %p = getelementptr inbounds nuw i32, ptr %base, i64 %idx
  %v = load i32, ptr %p
  %c = load i32, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @tile, i64 8)
  %g = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %v, ptr addrspace(1) %g
  %dyn = call ptr addrspace(3) @__hetgpu_dynamic_shared()
  %d = getelementptr inbounds nuw i32, ptr addrspace(3) %dyn, i64 %idx
  %o = atomicrmw add ptr addrspace(3) %d, i32 1 monotonic
  br label %next
next:
  %q = phi ptr [ %p, %entry ]
  store i32 %c, ptr %q
  ret void
}
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k(int*, int)", !"params", !2, !"shared.static", i64 256, !"features", !3}
!2 = !{!{!"ptr", i32 8, i32 8}, !{!"value", i32 4, i32 4}}
!3 = !{}
