; A kernel with a barrier becomes a resumable thread function: before the
; barrier each value of its "hetgpu.live" bundle is stored at its slot's
; offset in the !hetgpu.state record (shared pointers as offsets from the
; block's shared base), the operation is recorded in the thread state and
; the function returns the sync point's id; the setup block dispatches on
; ts->resume to a block that reloads them. A value computed from setup
; values alone (%t64, from the thread index) is recomputed instead. The block function hands the
; thread function to the executor with the frame size.
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-simt-to-mimd,hetgpu-simt-to-mimd -S %s | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@tile = internal addrspace(3) global [64 x float] undef, align 4

; CHECK-LABEL: define internal i32 @k.hetgpu.thread(ptr %args, ptr %ctx, ptr %ts)
; CHECK: setup:
; CHECK: %tid.x = load i32, ptr {{%.*}}
; CHECK: %frame = load ptr, ptr {{%.*}}
; CHECK: [[SH:%.*]] = load ptr, ptr {{%.*}}, align 8, !invariant.load
; CHECK: %resume = load i32, ptr
; CHECK-NEXT: switch i32 %resume, label %entry [
; CHECK-NEXT: i32 1, label %sync1.resume
; CHECK-NEXT: ]
; CHECK: entry:
; CHECK: %v = load float, ptr %pin
; CHECK: store float %v, ptr addrspace(3) %ps
; CHECK-NEXT: [[R8:%.*]] = getelementptr inbounds i8, ptr %frame, i64 8
; CHECK-NEXT: store float %v, ptr [[R8]], align 1
; CHECK-NEXT: [[PI:%.*]] = ptrtoint ptr addrspace(3) %ps to i64
; CHECK-NEXT: [[BI:%.*]] = ptrtoint ptr [[SH]] to i64
; CHECK-NEXT: [[R16:%.*]] = getelementptr inbounds i8, ptr %frame, i64 16
; CHECK-NEXT: [[OFF:%.*]] = sub i64 [[PI]], [[BI]]
; CHECK-NEXT: store i64 [[OFF]], ptr [[R16]], align 1
; CHECK-NEXT: [[KIND:%.*]] = getelementptr inbounds i8, ptr %ts, i64 4
; CHECK-NEXT: store i32 1, ptr [[KIND]], align 4
; CHECK-NEXT: ret i32 1
; CHECK: sync1.resume:
; CHECK-NEXT: %t64.remat = zext i32 %tid.x to i64
; CHECK-NEXT: [[L8:%.*]] = getelementptr inbounds i8, ptr %frame, i64 8
; CHECK-NEXT: %v.reload = load float, ptr [[L8]], align 1
; CHECK-NEXT: [[L16:%.*]] = getelementptr inbounds i8, ptr %frame, i64 16
; CHECK-NEXT: [[D:%.*]] = load i64, ptr [[L16]], align 1
; CHECK-NEXT: [[P:%.*]] = getelementptr inbounds i8, ptr [[SH]], i64 [[D]]
; CHECK-NEXT: %ps.reload = addrspacecast ptr [[P]] to ptr addrspace(3)
; CHECK-NEXT: br label %sync1.cont
; CHECK: sync1.cont:
; CHECK-NEXT: %w = load float, ptr addrspace(3) %ps.reload
; CHECK-NEXT: %sum = fadd float %v.reload, %w
; CHECK-NEXT: %pout = getelementptr float, ptr {{%.*}}, i64 %t64.remat
; CHECK: ret i32 0
define void @k(ptr %in, ptr %out, ptr %idx) #0 {
entry:
  %t = call i32 @__hetgpu_tid_x()
  %t64 = zext i32 %t to i64
  %pin = getelementptr float, ptr %in, i64 %t64
  %v = load float, ptr %pin
  %pidx = getelementptr i64, ptr %idx, i64 %t64
  %k = load i64, ptr %pidx
  %ps = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 %k
  store float %v, ptr addrspace(3) %ps
  call void @__hetgpu_barrier() [ "hetgpu.live"(i64 %t64, float %v, ptr addrspace(3) %ps) ], !hetgpu.safepoint !10
  %w = load float, ptr addrspace(3) %ps
  %sum = fadd float %v, %w
  %pout = getelementptr float, ptr %out, i64 %t64
  store float %sum, ptr %pout
  ret void
}

; CHECK-LABEL: define void @__hetgpu_block_k(ptr noalias noundef %args, ptr noalias noundef dereferenceable(88) %ctx)
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__hetgpu_exec_block(ptr %args, ptr %ctx, ptr @k.hetgpu.thread, i32 32, ptr @k.name)
; CHECK-NEXT: ret void
; CHECK-NOT: @__hetgpu_barrier
; CHECK-NOT: @tile

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.kernels = !{!0}
!hetgpu.state = !{!3}
!0 = !{ptr @k, !"name", !"k(float*, float*, long*)", !"params", !1, !"shared.static", i64 256, !"features", !2, !"launch.bounds", !{i32 0, i32 0}}
!1 = !{!{!"ptr", i32 8, i32 8}, !{!"ptr", i32 8, i32 8}, !{!"ptr", i32 8, i32 8}}
!2 = !{!"barrier"}
!3 = !{ptr @k, !4, !5}
!4 = !{i32 0, !"entry", i32 0, !{}}
!5 = !{i32 1, !"barrier", i32 24, !6}
!6 = !{!7, !8, !9}
!7 = !{!"value", !"i64", i32 0, i32 8, i32 8}
!8 = !{!"value", !"float", i32 8, i32 4, i32 4}
!9 = !{!"shared-ptr", !"ptr addrspace(3)", i32 16, i32 8, i32 8}
!10 = !{i32 1}
