; The "hetgpu.live" operand bundles of safe points are dropped (copied call
; without bundles) unless instrumentation is requested, in which case the
; lowered barrier keeps them and the safe-point id. emit() refuses a module
; that still has them (checked by hetgpu-translate --instrument once the
; instrumentation pass exists).
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -hetgpu-nvptx-instrument -S %s | FileCheck --check-prefix=INSTR %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0){{$}}
; CHECK: %c = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 %{{.*}}){{$}}
; CHECK-NOT: hetgpu.live
; INSTR-LABEL: define ptx_kernel void @k(
; INSTR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0) [ "hetgpu.live"(i32 %y) ], !hetgpu.safepoint ![[SP1:[0-9]+]]
; INSTR: %c = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 %{{.*}}) [ "hetgpu.live"(i32 %y) ], !hetgpu.safepoint ![[SP2:[0-9]+]]
; INSTR: ![[SP1]] = !{i32 1}
; INSTR: ![[SP2]] = !{i32 2}
define void @k(ptr %p, i32 %x) #0 {
  %y = add i32 %x, 1
  call void @__hetgpu_barrier() [ "hetgpu.live"(i32 %y) ], !hetgpu.safepoint !10
  %c = call i32 @__hetgpu_barrier_count(i32 %y) [ "hetgpu.live"(i32 %y) ], !hetgpu.safepoint !11
  %z = add i32 %y, %c
  store i32 %z, ptr %p
  ret void
}
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_barrier_count(i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
!10 = !{i32 1}
!11 = !{i32 2}
