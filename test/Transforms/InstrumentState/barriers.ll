; Every kernel gets the hidden state/control parameters; a fresh launch
; (round 0 in the control block) goes straight to the body, a resumed launch
; of round R continues the blocks whose status is R. At each barrier a
; block-uniform yield test (__hetgpu_barrier_or of the flag thread 0 reads)
; saves the live values at their slot offsets (!hetgpu.state) and the shared
; memory, writes status R + 1, then returns. Restore blocks reload the same
; offsets and jump back to the safe point. A block that runs to its end
; writes nothing.
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S %s | FileCheck %s
; Running it again changes nothing (the kernel is marked instrumented).
; RUN: hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state,hetgpu-instrument-state -S %s | FileCheck %s
; GPU targets (module flag hetgpu.untested-barrier-or, set by the
; translator for nvptx and amdgpu): a barrier outside loops keeps the plain
; barrier on untested visits (loop-resume.ll has the in-loop case).
; RUN: sed -e '$a !llvm.module.flags = !{!99}' -e '$a !99 = !{i32 4, !"hetgpu.untested-barrier-or", i32 1}' %s | hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S | FileCheck --check-prefix=GPU %s
; GPU: hetgpu.plain.1:
; GPU-NEXT: call void @__hetgpu_barrier()
; GPU-NEXT: br label %hetgpu.cont.1
; SPIR-V (flag 2): every untested visit runs barrier_or(0), no barrier
; inside a branch (PoCL's kernel compiler replicates code per path between
; barriers).
; RUN: sed -e '$a !llvm.module.flags = !{!99}' -e '$a !99 = !{i32 4, !"hetgpu.untested-barrier-or", i32 2}' %s | hetgpu-opt -passes=hetgpu-state-layout,hetgpu-instrument-state -S | FileCheck --check-prefix=SPV %s
; SPV: hetgpu.plain.1:
; SPV-NEXT: br label %hetgpu.sp.1
; SPV-NOT: call void @__hetgpu_barrier()
; The layout the code follows is the state layout's (unchanged by the pass).
; RUN: hetgpu-opt -passes='hetgpu-state-layout,hetgpu-instrument-state,print<hetgpu-state>' -disable-output %s 2>&1 | FileCheck --check-prefix=PRINT %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x float] undef, align 4

; CHECK-LABEL: define void @k(ptr %in, ptr %out, ptr %hetgpu.state, ptr %hetgpu.ctrl)
; CHECK: hetgpu.entry:
; CHECK: %[[CG0:.*]] = addrspacecast ptr %hetgpu.ctrl to ptr addrspace(1)
; CHECK-NEXT: %[[RP:.*]] = getelementptr i8, ptr addrspace(1) %[[CG0]], i64 16
; CHECK-NEXT: %hetgpu.round = load i32, ptr addrspace(1) %[[RP]]
; Block state area: 16-byte header, 256 B static shared + dynamic (rounded
; to 16), then 24 bytes per thread.
; CHECK: add i64 %hetgpu.dynshared, 271
; CHECK: mul i64 %hetgpu.nthreads, 24
; CHECK: %hetgpu.header = getelementptr i8, ptr %hetgpu.state,
; A fresh launch reads the round word again instead of its header.
; CHECK: %hetgpu.fresh = icmp eq i32 %hetgpu.round, 0
; CHECK-NEXT: %[[RPG:.*]] = addrspacecast ptr addrspace(1) %[[RP]] to ptr
; CHECK-NEXT: %[[SA:.*]] = select i1 %hetgpu.fresh, ptr %[[RPG]], ptr %hetgpu.header
; CHECK-NEXT: %hetgpu.status = load i32, ptr %[[SA]]
; CHECK-NEXT: %[[MINE:.*]] = icmp eq i32 %hetgpu.status, %hetgpu.round
; CHECK-NEXT: %[[W:.*]] = select i1 %[[MINE]], i32 1, i32 2
; CHECK-NEXT: %hetgpu.way = select i1 %hetgpu.fresh, i32 0, i32 %[[W]]
; CHECK: switch i32 %hetgpu.way, label %hetgpu.body [
; CHECK-NEXT: i32 1, label %hetgpu.resume
; CHECK-NEXT: i32 2, label %hetgpu.return
; CHECK: hetgpu.resume:
; CHECK: switch i32 %hetgpu.spid, label %hetgpu.return [
; CHECK-NEXT: i32 1, label %hetgpu.restore.1
; CHECK-NEXT: i32 2, label %hetgpu.restore.2
; Restore blocks copy the shared memory back (strided over the threads).
; CHECK: hetgpu.restore.1:
; CHECK: br label %hetgpu.copy

; A plain barrier tests the flag at one visit in 32 (a block-uniform
; counter, starting at ctaid.x + 31 in the entry); the other visits keep a
; plain barrier. A tested visit: every thread reads {yield, trigger} with
; one plain 64-bit load (no branch on the thread); only when the random
; trigger is armed does thread 0 count the visit.
; CHECK: hetgpu.body:
; CHECK: %[[V:.*]] = add i32 %{{.*}}, 1
; CHECK-NEXT: %[[VM:.*]] = and i32 %[[V]], 31
; CHECK-NEXT: %hetgpu.sample = icmp eq i32 %[[VM]], 0
; CHECK-NEXT: br i1 %hetgpu.sample, label %hetgpu.read.1, label %hetgpu.plain.1
; CHECK: hetgpu.read.1:
; CHECK: %hetgpu.ctrlword = load i64, ptr addrspace(1)
; CHECK-NEXT: %hetgpu.yield = trunc i64 %hetgpu.ctrlword to i32
; CHECK-NEXT: %[[SH:.*]] = lshr i64 %hetgpu.ctrlword, 32
; CHECK-NEXT: %hetgpu.after = trunc i64 %[[SH]] to i32
; CHECK-NEXT: %[[ARMED:.*]] = icmp ne i32 %hetgpu.after, 0
; CHECK-NEXT: br i1 %[[ARMED]], label %hetgpu.count.test, label %hetgpu.sp.1
; CHECK: hetgpu.plain.1:
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK-NEXT: br label %hetgpu.cont.1
; CHECK: hetgpu.count.test:
; CHECK: %hetgpu.t0 = icmp eq i32 %{{.*}}, 0
; CHECK-NEXT: br i1 %hetgpu.t0, label %hetgpu.count, label %hetgpu.sp.1
; CHECK: hetgpu.count:
; CHECK: atomicrmw add ptr addrspace(1) %{{.*}}, i32 1 monotonic
; CHECK: hetgpu.count.set:
; CHECK: store volatile i32 1, ptr addrspace(1)
; CHECK-NEXT: br label %hetgpu.sp.1
; The landing block reloads every slot.
; CHECK: hetgpu.land.1:
; CHECK: %[[L0:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 0
; CHECK-NEXT: load i64, ptr %[[L0]]
; CHECK-NEXT: %[[L8:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 8
; CHECK-NEXT: load float, ptr %[[L8]]
; CHECK: br label %hetgpu.sp.1
; First barrier: replaced by the yield test (no plain barrier remains); a
; resumed thread contributes 0.
; CHECK: hetgpu.sp.1:
; CHECK: %hetgpu.y = phi i32 [ %hetgpu.yield, %hetgpu.read.1 ], [ %hetgpu.yield, %hetgpu.count.test ], [ %hetgpu.yield, %hetgpu.count ], [ 1, %hetgpu.count.set ], [ 0, %hetgpu.land.1 ]
; CHECK-NEXT: %[[Y1:.*]] = call i32 @__hetgpu_barrier_or(i32 %hetgpu.y)
; CHECK-NOT: hetgpu.live
; CHECK: br i1 %{{.*}}, label %hetgpu.save.1, label %hetgpu.cont.1
; CHECK: hetgpu.save.1:
; CHECK: %[[R0:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 0
; CHECK-NEXT: store i64 %{{.*}}, ptr %[[R0]]
; CHECK-NEXT: %[[R8:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 8
; CHECK-NEXT: store float %{{.*}}, ptr %[[R8]]
; CHECK-NEXT: %[[R16:.*]] = getelementptr i8, ptr %hetgpu.record{{[0-9]+}}, i64 16
; The shared pointer is saved as its offset in the shared layout.
; CHECK: sub i64 %{{.*}}, ptrtoint (ptr addrspace(3) @tile to i64)
; CHECK: store i64 %{{.*}}, ptr %[[R16]]
; CHECK: hetgpu.cont.1:
; The tested and the plain visit join here: phis for the live values.
; CHECK: %w = load float, ptr addrspace(3)
; Second safe point: barrier_count keeps its result; the yield test precedes it.
; CHECK: hetgpu.sp.2:
; CHECK: call i32 @__hetgpu_barrier_or(
; CHECK: hetgpu.cont.2:
; CHECK-NEXT: %c = call i32 @__hetgpu_barrier_count(i32 1){{$}}
; No "finished" mark at the kernel's return.
; CHECK-NOT: ptr %hetgpu.header
; CHECK: ret void
; Save ends with {round + 1, id} after the shared-memory copy.
; CHECK: hetgpu.copy.end:
; CHECK-NEXT: getelementptr i8, ptr %hetgpu.header{{[0-9]+}}, i64 4
; CHECK-NEXT: store i32 1, ptr %{{.*}}
; CHECK: %[[R1:.*]] = load i32, ptr addrspace(1)
; CHECK-NEXT: %[[S1:.*]] = add i32 %[[R1]], 1
; CHECK-NEXT: store i32 %[[S1]], ptr %hetgpu.header{{[0-9]+}}
; CHECK-NEXT: ret void
; CHECK: hetgpu.copy.end{{[0-9]+}}:
; CHECK-NEXT: br label %hetgpu.land.1
; CHECK: getelementptr i8, ptr %hetgpu.header{{[0-9]+}}, i64 4
; CHECK-NEXT: store i32 2, ptr %{{.*}}
; CHECK: %[[R2:.*]] = load i32, ptr addrspace(1)
; CHECK-NEXT: %[[S2:.*]] = add i32 %[[R2]], 1
; CHECK-NEXT: store i32 %[[S2]], ptr %hetgpu.header{{[0-9]+}}
; CHECK-NEXT: ret void
; CHECK: hetgpu.copy.end{{[0-9]+}}:
; CHECK-NEXT: br label %hetgpu.land.2
define void @k(ptr %in, ptr %out) #0 {
entry:
; %t comes from memory (a value a resumed launch cannot recompute); %pt,
; the tid-based address, is recomputable and never state.
  %tid = call i32 @__hetgpu_tid_x()
  %pt = getelementptr i32, ptr %out, i32 %tid
  %t = load i32, ptr %pt
  %t64 = zext i32 %t to i64
  %pin = getelementptr float, ptr %in, i64 %t64
  %v = load float, ptr %pin
  %ps = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  store float %v, ptr addrspace(3) %ps
  call void @__hetgpu_barrier()
  %w = load float, ptr addrspace(3) %ps
  %sum = fadd float %v, %w
  %c = call i32 @__hetgpu_barrier_count(i32 1)
  %cf = sitofp i32 %c to float
  %r = fadd float %sum, %cf
  %pout = getelementptr float, ptr %out, i64 %t64
  store float %r, ptr %pout
  ret void
}

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_barrier_count(i32)

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 256, !"features", !4, !"launch.bounds", !5}
!2 = !{!3, !3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{!"barrier"}
!5 = !{i32 0, i32 0}

; The kernel entry keeps the user's two parameters and gains the marker.
; CHECK: !hetgpu.kernels = !{![[K:[0-9]+]]}
; CHECK: ![[K]] = !{ptr @k, !"name", !"k", !"params", ![[P:[0-9]+]], !"shared.static", i64 256, !"features", !{{[0-9]+}}, !"launch.bounds", !{{[0-9]+}}, !"instrumented", i1 true}
; CHECK: ![[P]] = !{![[PP:[0-9]+]], ![[PP]]}

; PRINT: state k: 3 safe points, record 24 bytes
; PRINT-NEXT: safepoint 0 entry: 0 slots, 0 bytes
; PRINT-NEXT: safepoint 1 barrier: 3 slots, 24 bytes
; PRINT-NEXT: slot 0: value i64 @0 size 8 align 8
; PRINT-NEXT: slot 1: value float @8 size 4 align 4
; PRINT-NEXT: slot 2: shared-ptr ptr addrspace(3) @16 size 8 align 8
