; hetgpu-lower-host: SIMT->MIMD, math builtins from hetGPU's device math
; library (linked bitcode, not the C library), the block executor called
; but not linked in (emit() links its prebuilt object), the ABI version
; symbol, host triple, device variables writable (the runtime writes
; __constant__ memory), and everything but the block functions and device
; variables internal.
; RUN: hetgpu-opt -passes=hetgpu-lower-host -S %s | FileCheck %s
; Kernels with sync points get a lane-loop function (one loop over the lanes
; of a warp per resume point, the thread function inlined with the resume
; point stored first; warp operations fused through __hetgpu_exec_fuse);
; kernels without sync points do not; HETGPU_HOST_LANE_LOOPS=0 keeps the
; one-call-per-lane executor entry.
; Prefix LANES checks the loops without per-warp arrays and row loops.
; RUN: env HETGPU_HOST_WARP_ARRAYS=0 HETGPU_HOST_ROW_LOOPS=0 \
; RUN:   hetgpu-opt -passes=hetgpu-lower-host -S %s | FileCheck %s --check-prefix=LANES
; By default (prefix ARRAYS), for kernels with warp operations, a second
; loop per resume point for full warps in one row of the block (tid from
; lane 0's, no mask test), and the operation of the sync point, operands,
; results and spilled values in per-warp arrays during the call (copied out
; before returning to the executor, fused warp operations through
; __hetgpu_exec_fuse_soa).
; RUN: hetgpu-opt -passes=hetgpu-lower-host -S %s | FileCheck %s --check-prefix=ARRAYS
; The loops of the inlined regions OR the ids their lanes return; when every
; lane exited (0), the call returns from `stopped` without the fuse call or
; the copy-out, which would read the ids back from memory right after the
; lanes stored them one by one (a store-forwarding stall). Region 0 of w
; returns 1 (its barrier), region 1 exits.
; The AND of the ids as well: the uniform warp operations (uniform-warp-ops.ll)
; see all lanes at one id when AND == OR.
; RUN: hetgpu-opt -passes=hetgpu-lower-host,verify -S %s | FileCheck %s --check-prefix=ALLOUT
; ALLOUT-LABEL: define internal i32 @w.hetgpu.thread.lanes(
; ALLOUT: {{^}}stopped:
; ALLOUT-NEXT: %ids.or.out = phi i32 [ %ids.or.next, %{{.*}} ], [ %ids.or.next{{[0-9]+}}, %{{.*}} ], [ %ids.or.next{{[0-9]+}}, %{{.*}} ], [ %ids.or.next{{[0-9]+}}, %{{.*}} ]
; ALLOUT-NEXT: %ids.and.out = phi i32 [ %ids.and.next, %{{.*}} ], [ %ids.and.next{{[0-9]+}}, %{{.*}} ], [ %ids.and.next{{[0-9]+}}, %{{.*}} ], [ %ids.and.next{{[0-9]+}}, %{{.*}} ]
; ALLOUT-NEXT: %[[EQ:[0-9]+]] = icmp eq i32 %ids.and.out, %ids.or.out
; ALLOUT-NEXT: %ids.same = select i1 %[[EQ]], i32 %ids.or.out, i32 -1
; ALLOUT-NEXT: %all.exited = icmp eq i32 %ids.or.out, 0
; ALLOUT-NEXT: br i1 %all.exited, label %allexited, label %done
; ALLOUT: %ids.or = phi i32 [ 0, %at0 ], [ %ids.or.next, %{{.*}} ]
; ALLOUT-NEXT: %ids.and = phi i32 [ -1, %at0 ], [ %ids.and.next, %{{.*}} ]
; ALLOUT: %ids.or.lane = or i32 %ids.or, 1
; ALLOUT-NEXT: %ids.and.lane = and i32 %ids.and, 1
; ALLOUT: %ids.or.next = phi i32 [ %ids.or.lane, %{{.*}} ], [ %ids.or, %{{.*}} ]
; ALLOUT: %ids.or.lane{{[0-9]+}} = or i32 %ids.or{{[0-9]+}}, 0
; ALLOUT: {{^}}allexited:
; ALLOUT-NEXT: br label %exit
; ALLOUT: {{^}}exit:
; ALLOUT-SAME: %allexited
; The lanes' common id goes back to the executor (hetgpu_warp_sched.h), so
; that it does not read the ids either; -1: not known (the generic loop).
; ALLOUT-NEXT: %ids.ret = phi i32 [ -1, %next1 ], [ %ids.same, %copyout.check ], [ %ids.same, %copyout.full ], [ %ids.same, %copyout.next ], [ %ids.same, %allexited ]
; ALLOUT-NEXT: ret i32 %ids.ret
; RUN: env HETGPU_HOST_LANE_LOOPS=0 hetgpu-opt -passes=hetgpu-lower-host -S %s \
; RUN:   | FileCheck %s --check-prefix=NOLANES

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: target triple = "x86_64-unknown-linux-gnu"
; CHECK-DAG: @counter = addrspace(1) global i32 0
; CHECK-DAG: @table = addrspace(4) global [2 x float]
; CHECK-DAG: @__hetgpu_host_abi_version = constant i32 1
@counter = addrspace(1) global i32 0, align 4
@table = addrspace(4) constant [2 x float] [float 1.0, float 2.0], align 4

; CHECK-DAG: define internal void @m.hetgpu.thread(
; CHECK-DAG: define void @__hetgpu_block_m(
; CHECK-DAG: define void @__hetgpu_block_s(
; CHECK-DAG: define internal i32 @s.hetgpu.thread(
; CHECK-DAG: declare void @__hetgpu_exec_block(
; CHECK-DAG: define internal {{.*}}float @__hetgpu_math_sinf(float
; CHECK-DAG: define internal {{.*}}double @__hetgpu_math_pow(double
; CHECK-NOT: declare {{.*}}@sinf
; CHECK-NOT: declare {{.*}}@pow
define void @m(ptr %out, float %x, double %y) #0 {
  %s = call float @__hetgpu_math_sinf(float %x)
  %p = call double @__hetgpu_math_pow(double %y, double 2.0)
  %pf = fptrunc double %p to float
  %r = fadd float %s, %pf
  %c = load float, ptr addrspace(4) @table
  %r2 = fadd float %r, %c
  store float %r2, ptr %out
  %old = atomicrmw add ptr addrspace(1) @counter, i32 1 monotonic
  ret void
}

; LANES-NOT: @m.hetgpu.thread.lanes
; LANES-LABEL: define void @__hetgpu_block_s(
; LANES: call void @__hetgpu_exec_block_lanes(ptr %args, ptr %ctx, ptr @s.hetgpu.thread, ptr @s.hetgpu.thread.lanes, i32 {{[0-9]+}}, ptr @s.name)
; LANES-LABEL: define internal i32 @s.hetgpu.thread.lanes(ptr noalias %0, ptr noalias %1, ptr noalias %2, i32 %3, i32 %4, ptr noalias %5, i32 %6)
; LANES: %at = phi i32 [ %4, %entry ], [ %next, %fuse ]
; LANES-NEXT: switch i32 %at, label %[[GENERIC:.*]] [
; LANES-NEXT: i32 0, label %[[AT0:.*]]
; LANES-NEXT: i32 1, label %[[AT1:.*]]
; The generic loop calls the thread function.
; LANES: [[GENERIC]]:
; LANES: call i32 @s.hetgpu.thread(ptr %0, ptr %1, ptr
; Resume point 0: the inlined thread function pruned to region 0 (no
; dispatch, no store of the resume point: nothing reads it; it stops at the
; barrier, kind 1 to ts[i] + 4, and returns id 1).
; The inlined setup's parameter loads, once before the loop (not per lane).
; LANES: [[AT0]]:
; LANES-NEXT: %[[SLOT:[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 0
; LANES-NEXT: %[[OUTADDR:.*]] = load ptr, ptr %[[SLOT]], align 8, !invariant.load
; LANES-NEXT: %[[OUTP:[0-9]+]] = getelementptr inbounds i8, ptr %[[OUTADDR]], i64 0
; LANES-NEXT: %[[OUT0:.*]] = load ptr, ptr %[[OUTP]], align 8, !invariant.load
; LANES-NEXT: br label %lanes
; LANES-NOT: store i32 0, ptr
; LANES-NOT: load ptr, ptr %0
; LANES-NOT: switch
; LANES-NOT: store i32 1, ptr %[[OUT0]]
; LANES: %[[KF:[0-9]+]] = getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 4{{$}}
; LANES-NEXT: store i32 1, ptr %[[KF]]
; LANES-NOT: switch
; Resume point 1: region 1 only (the store to out, exit with id 0).
; LANES: [[AT1]]:
; LANES-NEXT: getelementptr inbounds i8, ptr %0, i64 0
; LANES-NEXT: %[[OUTADDR1:.*]] = load ptr, ptr
; LANES-NEXT: %[[OUTP1:[0-9]+]] = getelementptr inbounds i8, ptr %[[OUTADDR1]], i64 0
; LANES-NEXT: %[[OUT1:.*]] = load ptr, ptr %[[OUTP1]], align 8, !invariant.load
; LANES-NEXT: br label %lanes
; LANES-NOT: load ptr, ptr %0
; LANES-NOT: switch
; LANES: store i32 1, ptr %[[OUT1]]
; LANES-NOT: switch
; The generic loop ends at done too: there the common id is not known.
; LANES: {{^}}done:
; LANES-NEXT: %ids.done = phi i32 [ -1, %next1 ], [ %ids.same, %stopped ]
; LANES: fuse:
; LANES-NEXT: %next = call i32 @__hetgpu_exec_fuse(ptr %2, i32 %3, ptr %5)
; LANES: {{^}}exit:
; LANES-NEXT: %ids.ret = phi i32 [ %ids.same, %allexited ], [ %ids.done, %fuse ], [ %ids.done, %done ]
; LANES-NEXT: ret i32 %ids.ret
; NOLANES-NOT: .lanes
; NOLANES-NOT: @__hetgpu_exec_block_lanes
; NOLANES: call void @__hetgpu_exec_block(ptr %args, ptr %ctx, ptr @s.hetgpu.thread,
; NOLANES-NOT: .lanes
; NOLANES-NOT: @__hetgpu_exec_block_lanes
define void @s(ptr %out) #0 {
  call void @__hetgpu_barrier()
  store i32 1, ptr %out
  ret void
}

; A ballot: with per-warp arrays.
; ARRAYS-LABEL: define internal i32 @w.hetgpu.thread.lanes(ptr noalias %0, ptr noalias %1, ptr noalias %2, i32 %3, i32 %4, ptr noalias %5, i32 %6)
; ARRAYS: %x0 = load i32, ptr
; ARRAYS: %lin0 = load i32, ptr
; ARRAYS: %ntid.x = load i32, ptr
; ARRAYS: %[[LAST:[0-9]+]] = add i32 %x0, 31
; ARRAYS-NEXT: %[[INROW:[0-9]+]] = icmp ult i32 %[[LAST]], %ntid.x
; ARRAYS-NEXT: %[[FULL:[0-9]+]] = icmp eq i32 %3, -1
; ARRAYS-NEXT: %row = and i1 %[[FULL]], %[[INROW]]
; ARRAYS: %warp.kind = alloca [32 x i32], align 64
; Entering at 1 copies the ballot's result in first.
; ARRAYS: switch i32 %4, label %[[GEN:.*]] [
; ARRAYS-NEXT: i32 0, label %[[AT0:.*]]
; ARRAYS-NEXT: i32 1, label %copyin1.head
; After a fused operation: the loops directly, anything else copies out;
; the ballot with the full mask also from its vector code
; (uniform-warp-ops.ll).
; ARRAYS: %at = phi i32 [ %[[NEXT:.*]], %fuse.call ], [ 1, %uniform.sync1 ]
; ARRAYS-NEXT: switch i32 %at, label %copyout [
; ARRAYS-NEXT: i32 0, label %[[AT0]]
; ARRAYS-NEXT: i32 1, label %[[AT1:.*]]
; The generic loop (plain calls) returns without copying out.
; ARRAYS: [[GEN]]:
; ARRAYS: call i32 @w.hetgpu.thread(
; ARRAYS: br i1 %{{[0-9]+}}, label %[[GEN]], label %exit
; ARRAYS: [[AT0]]:
; ARRAYS-NOT: {{^}}{{[a-z]}}
; ARRAYS: %p.i{{[0-9]*}} = load i32, ptr %{{.*}}, align 4, !invariant.load
; ARRAYS-NEXT: br i1 %row, label %[[ROW0:.*]], label %[[PLAIN0:.*]]
; Region 0 of the loop for any mask: tid from the state, the ballot's kind
; (12) and operands to the warp arrays (the state is not written).
; ARRAYS: [[PLAIN0]]:
; ARRAYS: lshr i32 %3, %[[I:.*]]
; ARRAYS: %tid.x.i = load i32
; ARRAYS-NOT: store i32 0, ptr %{{[0-9]+}}, align 4
; ARRAYS: %[[K:[0-9]+]] = getelementptr inbounds [32 x i32], ptr %warp.kind, i32 0, i32 %[[I]]
; ARRAYS-NEXT: store i32 12, ptr %[[K]], align 4
; ARRAYS: %[[A0:[0-9]+]] = add i32 %[[I]], 0
; ARRAYS-NEXT: getelementptr inbounds [128 x i32], ptr %warp.args, i32 0, i32 %[[A0]]
; ARRAYS-NEXT: store i32 -1, ptr
; ARRAYS: %[[A1:[0-9]+]] = add i32 %[[I]], 32
; ARRAYS-NEXT: getelementptr inbounds [128 x i32], ptr %warp.args, i32 0, i32 %[[A1]]
; ARRAYS-NEXT: store i32 %p.i{{[0-9]*}}, ptr
; The row loop: no mask test, tid.x = x0 + i.
; ARRAYS: [[ROW0]]:
; ARRAYS-NEXT: %[[RI:.*]] = phi i32
; ARRAYS-NOT: lshr i32 %3
; ARRAYS: %tid.x.row = add nuw nsw i32 %x0, %[[RI]]
; ARRAYS: store i32 12, ptr
; Region 1 reads the ballot's result from the warp array.
; ARRAYS: [[AT1]]:
; ARRAYS: getelementptr inbounds [32 x i32], ptr %warp.result, i32 0, i32 %
; ARRAYS: fuse.call:
; ARRAYS-NEXT: %[[NEXT]] = call i32 @__hetgpu_exec_fuse_soa(i32 %3, ptr %5, ptr %warp.kind, ptr %warp.args, ptr %warp.result)
; ARRAYS-NEXT: icmp ne i32 %[[NEXT]], 0
; ARRAYS-NEXT: br i1 %{{[0-9]+}}, label %dispatch, label %copyout
; Entering at 1 copies the result in from ts[j].result (offset 24); the
; copy-out first ORs the mask's sync ids (vectorisable) and returns at once
; when every lane exited, else writes the kind to ts[j].kind (offset 4) for
; the lanes of the mask that did not exit (id 0: nothing the executor reads).
; ARRAYS: copyin1.lane:
; ARRAYS: %[[RA:[0-9]+]] = getelementptr inbounds [32 x i32], ptr %warp.result, i32 0, i32 %j
; ARRAYS-NEXT: %[[RF:[0-9]+]] = getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 24
; ARRAYS-NEXT: %[[RV:[0-9]+]] = load i32, ptr %[[RF]]
; ARRAYS-NEXT: store i32 %[[RV]], ptr %[[RA]]
; With the full mask, one OR over the 32 ids instead.
; ARRAYS: copyout:
; ARRAYS-NEXT: %[[FULLM:[0-9]+]] = icmp eq i32 %3, -1
; ARRAYS-NEXT: br i1 %[[FULLM]], label %copyout.full, label %copyout.any
; ARRAYS: copyout.full:
; ARRAYS-NEXT: %ids.all = load <32 x i32>, ptr %5, align 4
; ARRAYS-NEXT: %[[OR:[0-9]+]] = call i32 @llvm.vector.reduce.or.v32i32(<32 x i32> %ids.all)
; ARRAYS-NEXT: %[[NONE0:[0-9]+]] = icmp eq i32 %[[OR]], 0
; ARRAYS-NEXT: br i1 %[[NONE0]], label %exit, label %copyout.head
; ARRAYS: copyout.any:
; ARRAYS-NEXT: %k = phi i32 [ 0, %copyout ], [ %k.next, %copyout.any ]
; ARRAYS-NEXT: %alive = phi i32 [ 0, %copyout ], [ %[[ALIVE:[0-9]+]], %copyout.any ]
; ARRAYS-NEXT: %[[SH:[0-9]+]] = lshr i32 %3, %k
; ARRAYS-NEXT: %[[IN:[0-9]+]] = trunc i32 %[[SH]] to i1
; ARRAYS-NEXT: %[[IDP:[0-9]+]] = getelementptr inbounds i32, ptr %5, i32 %k
; ARRAYS-NEXT: %[[IDV:[0-9]+]] = load i32, ptr %[[IDP]]
; ARRAYS-NEXT: %[[SEL:[0-9]+]] = select i1 %[[IN]], i32 %[[IDV]], i32 0
; ARRAYS-NEXT: %[[ALIVE]] = or i32 %alive, %[[SEL]]
; ARRAYS: copyout.check:
; ARRAYS-NEXT: %[[NONE:[0-9]+]] = icmp eq i32 %[[ALIVE]], 0
; ARRAYS-NEXT: br i1 %[[NONE]], label %exit, label %copyout.head
; ARRAYS: copyout.lane:
; ARRAYS: %[[ST:[0-9]+]] = getelementptr inbounds i8, ptr %2, i64 %{{[0-9]+}}
; ARRAYS-NEXT: %[[IDL:[0-9]+]] = getelementptr inbounds i32, ptr %5, i32 %j{{[0-9]*}}
; ARRAYS-NEXT: %id = load i32, ptr %[[IDL]]
; ARRAYS-NEXT: %[[EXITED:[0-9]+]] = icmp eq i32 %id, 0
; ARRAYS-NEXT: br i1 %[[EXITED]], label %copyout.join, label %copyout.live
; ARRAYS: copyout.live:
; ARRAYS-NEXT: %[[KF:[0-9]+]] = getelementptr inbounds i8, ptr %[[ST]], i64 4
; ARRAYS-NEXT: %[[KA:[0-9]+]] = getelementptr inbounds [32 x i32], ptr %warp.kind, i32 0, i32 %j{{[0-9]*}}
; ARRAYS-NEXT: %[[KV:[0-9]+]] = load i32, ptr %[[KA]]
; ARRAYS-NEXT: store i32 %[[KV]], ptr %[[KF]]
; A kernel whose only sync points are block barriers keeps its states (no
; per-warp arrays) but gets the row loops too: tid.x from lane 0's, so that
; accesses indexed by threadIdx.x are consecutive.
; ARRAYS-LABEL: define internal i32 @s.hetgpu.thread.lanes(
; ARRAYS-NOT: warp.kind
; ARRAYS: %row = and i1
; ARRAYS-NOT: warp.kind
; ARRAYS: br i1 %row, label %rowlanes, label %lanes
; ARRAYS-NOT: warp.kind
; ARRAYS: rowlanes:
; ARRAYS-NOT: warp.kind
; ARRAYS: %tid.x.row = add nuw nsw i32 %x0, %i
; ARRAYS-NOT: warp.kind
; ARRAYS: call i32 @__hetgpu_exec_fuse(ptr %2, i32 %3, ptr %5)
; ARRAYS-NEXT: icmp
; ARRAYS-NOT: define {{.*}}@__hetgpu_exec_
define void @w(ptr %out, i32 %p) #0 {
  %b = call i32 @__hetgpu_vote_ballot(i32 -1, i32 %p)
  store i32 %b, ptr %out
  ret void
}

declare float @__hetgpu_math_sinf(float)
declare double @__hetgpu_math_pow(double, double)
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_vote_ballot(i32, i32)

attributes #0 = { "hetgpu-kernel" }
