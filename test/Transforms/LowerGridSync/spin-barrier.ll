; hetgpu-lower-grid-sync: each __hetgpu_grid_sync() becomes a block
; barrier, the arrival of thread 0 of the block at the module's barrier
; words (@hetgpu.grid.barrier: count, generation), a spin on the
; generation for every block but the last, and a block barrier. The input
; is valid hetIR; the output passes LLVM's verifier (hetgpu-opt runs it).
; RUN: hetgpu-opt -passes=hetgpu-verify,hetgpu-lower-grid-sync -S %s | FileCheck %s
; Both calls share one pair of words; nothing named __hetgpu_grid_sync is left.
; RUN: hetgpu-opt -passes=hetgpu-lower-grid-sync -S %s | FileCheck --check-prefix=COUNT --implicit-check-not=grid_sync %s
; Negative twin: without a grid barrier the module is unchanged (no words).
; RUN: sed -e '/call void @__hetgpu_grid_sync()/d' %s | hetgpu-opt -passes=hetgpu-lower-grid-sync -S | FileCheck --check-prefix=NONE %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: @hetgpu.grid.barrier = internal addrspace(1) global [2 x i32] zeroinitializer, align 4
; CHECK-LABEL: define void @k(
; CHECK: store i32 1, ptr %out
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK: %hetgpu.grid.t0 = icmp eq i32 %{{.*}}, 0
; CHECK-NEXT: br i1 %hetgpu.grid.t0, label %hetgpu.grid.arrive, label %hetgpu.grid.after
; CHECK: hetgpu.grid.arrive:
; CHECK-NEXT: %hetgpu.grid.gen = load atomic i32, ptr addrspace(1) getelementptr inbounds ([2 x i32], ptr addrspace(1) @hetgpu.grid.barrier, i32 0, i32 1) acquire, align 4
; CHECK: %hetgpu.grid.blocks = mul i32
; CHECK-NEXT: %[[OLD:.*]] = atomicrmw add ptr addrspace(1) @hetgpu.grid.barrier, i32 1 acq_rel, align 4
; CHECK-NEXT: %[[LASTN:.*]] = sub i32 %hetgpu.grid.blocks, 1
; CHECK-NEXT: %[[ISLAST:.*]] = icmp eq i32 %[[OLD]], %[[LASTN]]
; CHECK-NEXT: br i1 %[[ISLAST]], label %hetgpu.grid.last, label %hetgpu.grid.wait
; CHECK: hetgpu.grid.last:
; CHECK-NEXT: store atomic i32 0, ptr addrspace(1) @hetgpu.grid.barrier monotonic, align 4
; CHECK-NEXT: atomicrmw add ptr addrspace(1) getelementptr inbounds ([2 x i32], ptr addrspace(1) @hetgpu.grid.barrier, i32 0, i32 1), i32 1 release, align 4
; CHECK-NEXT: br label %hetgpu.grid.after
; CHECK: hetgpu.grid.wait:
; CHECK-NEXT: %hetgpu.grid.now = load atomic i32, ptr addrspace(1) getelementptr inbounds ([2 x i32], ptr addrspace(1) @hetgpu.grid.barrier, i32 0, i32 1) acquire, align 4
; CHECK-NEXT: %[[SAME:.*]] = icmp eq i32 %hetgpu.grid.now, %hetgpu.grid.gen
; CHECK-NEXT: br i1 %[[SAME]], label %hetgpu.grid.wait, label %hetgpu.grid.after
; CHECK: hetgpu.grid.after:
; CHECK-NEXT: call void @__hetgpu_barrier()
; CHECK-NEXT: store i32 2, ptr %out

; COUNT-COUNT-2: {{^}}hetgpu.grid.wait{{[0-9]*}}:
; COUNT: declare void @__hetgpu_barrier()

; NONE-NOT: hetgpu.grid
; NONE: define void @k(ptr %out)
; NONE-NEXT: entry:
; NONE-NEXT: store i32 1, ptr %out
; NONE-NEXT: store i32 2, ptr %out
; NONE-NEXT: store i32 3, ptr %out
; NONE-NEXT: ret void

define void @k(ptr %out) #0 {
entry:
  store i32 1, ptr %out
  call void @__hetgpu_grid_sync()
  store i32 2, ptr %out
  call void @__hetgpu_grid_sync()
  store i32 3, ptr %out
  ret void
}

declare void @__hetgpu_grid_sync()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1}
!0 = !{i32 1, i32 0}
!1 = !{ptr @k, !"name", !"k", !"params", !2, !"shared.static", i64 0, !"features", !4, !"launch.bounds", !5}
!2 = !{!3}
!3 = !{!"ptr", i32 8, i32 8}
!4 = !{!"barrier", !"grid"}
!5 = !{i32 0, i32 0}
