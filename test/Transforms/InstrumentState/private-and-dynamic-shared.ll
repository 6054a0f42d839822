; At a loop safe point (__hetgpu_safepoint) a private array live across it
; is saved with memcpy and restored into the same alloca; a pointer into it
; as (memory slot index << 32 | offset); a pointer into dynamic shared
; memory as its offset from the dynamic part of the shared layout (static
; size rounded to 16 = 16); the dynamic shared memory itself is copied with
; the size in the control block.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck %s
; Twin: the same kernel with a block barrier in place of the safe point
; saves and restores the same state in a watched launch (the barrier is a
; safe point there, docs/Migration.md "Barrier safe points"), and an
; unwatched launch runs a copy of the body with the plain barrier.
; RUN: sed -e 's/call void @__hetgpu_safepoint()$/call void @__hetgpu_barrier()/' -e 's/^declare void @__hetgpu_safepoint()$/declare void @__hetgpu_barrier()/' %s | hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -verify-each -S | FileCheck --check-prefix=BARRIER %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@s = internal addrspace(3) global [3 x i32] undef, align 4

; CHECK-LABEL: define void @k(ptr %out, i64 %i, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; The alloca moves to the new entry block, which dominates the resume path.
; CHECK-NEXT: hetgpu.entry:
; CHECK-NEXT: %arr = alloca [4 x i32]
; CHECK-NEXT: %hetgpu.rnd = and i32 %hetgpu.round, 2147483647
; CHECK-NEXT: %hetgpu.fresh = icmp eq i32 %hetgpu.rnd, 0
; CHECK-NEXT: br i1 %hetgpu.fresh, label %hetgpu.start, label %hetgpu.resume
; CHECK: hetgpu.resume:
; CHECK: switch i32 %{{.*}}, label %hetgpu.return [
; The block-entry safe point (BlockStartId) resumes at the entry test.
; CHECK-NEXT: i32 -1, label %hetgpu.start
; CHECK-NEXT: i32 1, label %hetgpu.restore.1
; CHECK-NEXT: ]
; Restore: static then dynamic shared memory back from the buffer.
; CHECK: hetgpu.restore.1:
; CHECK: %[[RDS:.*]] = call ptr addrspace(3) @__hetgpu_dynamic_shared()
; CHECK-NEXT: %[[RDSG:.*]] = addrspacecast ptr addrspace(3) %[[RDS]] to ptr
; CHECK: hetgpu.body:
; CHECK: store i32 3, ptr addrspace(3) @s
; CHECK-NEXT: addrspacecast ptr %hetgpu.ctrl to ptr addrspace(1)
; CHECK-NEXT: %hetgpu.ctrlword = load volatile i64
; Landing block: memcpy back into %arr, pointer rebuilt from %arr, the
; dynamic shared pointer rebuilt from its layout offset.
; CHECK: hetgpu.land.1:
; CHECK: %[[LDS:.*]] = call ptr addrspace(3) @__hetgpu_dynamic_shared()
; CHECK-NEXT: %[[LM:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 0
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %arr, ptr align 1 %[[LM]], i64 16, i1 false)
; CHECK: %[[ENC:.*]] = load i64
; CHECK-NEXT: %[[OFF:.*]] = and i64 %[[ENC]], 4294967295
; CHECK-NEXT: getelementptr i8, ptr %arr, i64 %[[OFF]]
; CHECK: icmp uge i64 %{{.*}}, 16
; CHECK: getelementptr i8, ptr addrspace(3) %[[LDS]]
; CHECK: br label %hetgpu.sp.1
; CHECK: hetgpu.save.1:
; CHECK: %[[DS:.*]] = call ptr addrspace(3) @__hetgpu_dynamic_shared()
; CHECK-NEXT: %[[M:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 0
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %[[M]], ptr align 4 %arr, i64 16, i1 false)
; CHECK-NEXT: getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 16
; CHECK-NEXT: ptrtoint ptr %arr to i64
; CHECK: and i64 %{{.*}}, 4294967295
; CHECK-NEXT: or i64 %{{.*}}, 0
; CHECK: getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 24
; CHECK: %[[DSI:.*]] = ptrtoint ptr addrspace(3) %[[DS]] to i64
; CHECK: %[[REL:.*]] = sub i64 %{{.*}}, %[[DSI]]
; CHECK-NEXT: add i64 %[[REL]], 16
; CHECK: hetgpu.cont.1:
; CHECK-NEXT: %v = load i32, ptr %p.reg2mem.0
; CHECK-NEXT: %w = load i32, ptr %arr
; CHECK-NEXT: %x = load i32, ptr addrspace(3) %dp.reg2mem.0
; Save: 12 bytes of @s, then the dynamic part (its size from the control
; block) at layout offset 16.
; CHECK: icmp ult i64 %hetgpu.i, 12
; CHECK: hetgpu.copy.end:
; CHECK-NEXT: getelementptr i8, ptr %hetgpu.sharedsave{{[0-9]+}}, i64 16
; CHECK: icmp ult i64 %hetgpu.i{{[0-9]+}}, %hetgpu.dynshared{{[0-9]+}}
; CHECK: store i32 1, ptr
; CHECK-NEXT: add i32 %hetgpu.rnd, 1
; The restore copies the dynamic part back into the dynamic shared memory.
; CHECK: %[[DST:.*]] = getelementptr i8, ptr %[[RDSG]], i64 %hetgpu.i{{[0-9]+}}
; CHECK-NEXT: store i8 %{{.*}}, ptr %[[DST]]
; CHECK: hetgpu.copy.end{{[0-9]+}}:
; CHECK-NEXT: br label %hetgpu.land.1

; BARRIER-LABEL: define void @k(ptr %out, i64 %i, ptr %hetgpu.state, ptr %hetgpu.ctrl, i32 %hetgpu.round)
; BARRIER-NEXT: hetgpu.entry:
; BARRIER-NEXT: %arr = alloca [4 x i32]
; BARRIER: switch i32 %{{.*}}, label %hetgpu.return [
; BARRIER-NEXT: i32 -1, label %hetgpu.start
; BARRIER-NEXT: i32 1, label %hetgpu.restore.1
; BARRIER-NEXT: ]
; BARRIER: br i1 %hetgpu.watched, label %hetgpu.start.count, label %hetgpu.body.plain
; BARRIER: hetgpu.body:
; BARRIER: store i32 3, ptr addrspace(3) @s
; BARRIER-NEXT: addrspacecast ptr %hetgpu.ctrl to ptr addrspace(1)
; BARRIER-NEXT: %hetgpu.ctrlword = load volatile i64
; BARRIER: hetgpu.land.1:
; BARRIER: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %arr, ptr align 1 %{{[0-9]+}}, i64 16, i1 false)
; BARRIER: hetgpu.sp.1:
; BARRIER: call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; BARRIER: hetgpu.save.1:
; BARRIER: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %{{[0-9]+}}, ptr align 4 %arr, i64 16, i1 false)
; BARRIER: hetgpu.cont.1:
; BARRIER: %v = load i32, ptr %p
; The unwatched copy: the plain barrier, nothing saved.
; BARRIER: hetgpu.body.plain:
; BARRIER-NOT: llvm.memcpy
; BARRIER: store i32 3, ptr addrspace(3) @s
; BARRIER-NEXT: call void @__hetgpu_barrier(){{$}}
; BARRIER-NEXT: %v.plain = load i32, ptr %p.plain
; BARRIER-NOT: llvm.memcpy
; BARRIER: ret void
define void @k(ptr %out, i64 %i) #0 {
  %arr = alloca [4 x i32], align 4
  %p = getelementptr [4 x i32], ptr %arr, i64 0, i64 %i
  store i32 7, ptr %p
  %d = call ptr addrspace(3) @__hetgpu_dynamic_shared()
  %j = load i64, ptr %out
  %dp = getelementptr i32, ptr addrspace(3) %d, i64 %j
  store i32 3, ptr addrspace(3) @s
  call void @__hetgpu_safepoint()
  %v = load i32, ptr %p
  %w = load i32, ptr %arr
  %x = load i32, ptr addrspace(3) %dp
  %s1 = add i32 %v, %w
  %s2 = add i32 %s1, %x
  store i32 %s2, ptr %out
  ret void
}
declare void @__hetgpu_safepoint()
declare ptr addrspace(3) @__hetgpu_dynamic_shared()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 12, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !6}
!3 = !{!"ptr", i32 8, i32 8}
!6 = !{!"value", i32 8, i32 8}
!4 = !{!"barrier", !"dynamic-shared"}
!5 = !{i32 0, i32 0}
