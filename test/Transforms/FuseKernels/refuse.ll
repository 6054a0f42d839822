; hetgpu-fuse-kernels refuses, naming the component and the reason, and
; changes nothing: a smaller block with a barrier, a fused block past 1024
; threads, a grid barrier, a __device__
; variable, an indirect call, a kernel the module lacks, one component.
; RUN: not hetgpu-opt -passes=hetgpu-fuse-kernels -disable-output \
; RUN:   -hetgpu-fuse-plan='a:1,1,1:64,1,1;bar:1,1,1:32,1,1' %s 2>&1 | FileCheck --check-prefix=BLOCK %s
; BLOCK: error: fusing kernels: component 1 ('bar(int*)') has block 32x1x1, the fused block is 64x1x1: a smaller block runs with idle threads only without barriers and warp operations, and 'bar' calls __hetgpu_barrier
; RUN: not hetgpu-opt -passes=hetgpu-fuse-kernels -disable-output \
; RUN:   -hetgpu-fuse-plan='a:1,1,1:1024,1,1;b:1,1,1:1,2,1' %s 2>&1 | FileCheck --check-prefix=BIG %s
; BIG: error: fusing kernels: the fused block 1024x2x1 would have more than 1024 threads
; RUN: not hetgpu-opt -passes=hetgpu-fuse-kernels -disable-output \
; RUN:   -hetgpu-fuse-plan='a:1,1,1:64,1,1;grid:1,1,1:64,1,1' %s 2>&1 | FileCheck --check-prefix=GRID %s
; GRID: error: fusing kernels: component 1 ('grid(int*)') is not fused: it uses grid-wide barriers
; RUN: not hetgpu-opt -passes=hetgpu-fuse-kernels -disable-output \
; RUN:   -hetgpu-fuse-plan='var:1,1,1:64,1,1;a:1,1,1:64,1,1' %s 2>&1 | FileCheck --check-prefix=VAR %s
; VAR: error: fusing kernels: component 0 ('var(int*)') is not fused: it uses device variable 'counter', which a fused module would hold a copy of
; RUN: not hetgpu-opt -passes=hetgpu-fuse-kernels -disable-output \
; RUN:   -hetgpu-fuse-plan='a:1,1,1:64,1,1;ind:1,1,1:64,1,1' %s 2>&1 | FileCheck --check-prefix=IND %s
; IND: error: fusing kernels: component 1 ('ind(int*)') is not fused: 'ind' makes an indirect call
; RUN: not hetgpu-opt -passes=hetgpu-fuse-kernels -disable-output \
; RUN:   -hetgpu-fuse-plan='a:1,1,1:64,1,1;nosuch:1,1,1:64,1,1' %s 2>&1 | FileCheck --check-prefix=MISSING %s
; MISSING: error: fusing kernels: the module has no kernel 'nosuch'
; RUN: not hetgpu-opt -passes=hetgpu-fuse-kernels -disable-output \
; RUN:   -hetgpu-fuse-plan='a:1,1,1:64,1,1' %s 2>&1 | FileCheck --check-prefix=ONE %s
; ONE: error: fusing kernels: a fusion needs at least two components, got 1
; RUN: not hetgpu-opt -passes=hetgpu-fuse-kernels -disable-output \
; RUN:   -hetgpu-fuse-plan='a:1,1:64,1,1;b:1,1,1:64,1,1' %s 2>&1 | FileCheck --check-prefix=PLAN %s
; PLAN: error: fusing kernels: plan entry 'a:1,1:64,1,1' needs three dimensions
; A constant table is no device variable: fused.
; RUN: hetgpu-opt -passes=hetgpu-fuse-kernels,hetgpu-verify -S \
; RUN:   -hetgpu-fuse-plan='a:1,1,1:64,1,1;table:2,1,1:64,1,1' %s | FileCheck --check-prefix=TABLE %s
; TABLE: @lut = internal constant [2 x i32] [i32 3, i32 5]
; TABLE: define void @hetgpu_fused_kernel(

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@counter = addrspace(1) global i32 0, align 4
@lut = internal constant [2 x i32] [i32 3, i32 5], align 4

declare i32 @__hetgpu_ctaid_x()
declare void @__hetgpu_grid_sync()
declare void @__hetgpu_barrier()

define void @a(ptr addrspace(1) %o) #0 {
  store i32 1, ptr addrspace(1) %o
  ret void
}
define void @b(ptr addrspace(1) %o) #0 {
  store i32 2, ptr addrspace(1) %o
  ret void
}
define void @bar(ptr addrspace(1) %o) #0 {
  call void @__hetgpu_barrier()
  store i32 4, ptr addrspace(1) %o
  ret void
}
define void @grid(ptr addrspace(1) %o) #0 {
  store i32 3, ptr addrspace(1) %o
  call void @__hetgpu_grid_sync()
  ret void
}
define void @var(ptr addrspace(1) %o) #0 {
  %v = atomicrmw add ptr addrspace(1) @counter, i32 1 monotonic
  store i32 %v, ptr addrspace(1) %o
  ret void
}
define void @ind(ptr addrspace(1) %o) #0 {
  %f = load ptr, ptr addrspace(1) %o
  call void %f()
  ret void
}
define void @table(ptr addrspace(1) %o) #0 {
  %b = call i32 @__hetgpu_ctaid_x()
  %p = getelementptr [2 x i32], ptr @lut, i32 0, i32 %b
  %v = load i32, ptr %p
  store i32 %v, ptr addrspace(1) %o
  ret void
}

attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{!1, !2, !3, !4, !5, !6, !7}
!0 = !{i32 1, i32 0}
!1 = !{ptr @a, !"name", !"a(int*)", !"params", !10, !"shared.static", i64 0, !"features", !11}
!2 = !{ptr @b, !"name", !"b(int*)", !"params", !10, !"shared.static", i64 0, !"features", !11}
!3 = !{ptr @grid, !"name", !"grid(int*)", !"params", !10, !"shared.static", i64 0, !"features", !12}
!4 = !{ptr @var, !"name", !"var(int*)", !"params", !10, !"shared.static", i64 0, !"features", !13}
!5 = !{ptr @ind, !"name", !"ind(int*)", !"params", !10, !"shared.static", i64 0, !"features", !11}
!6 = !{ptr @table, !"name", !"table(int*)", !"params", !10, !"shared.static", i64 0, !"features", !11}
!7 = !{ptr @bar, !"name", !"bar(int*)", !"params", !10, !"shared.static", i64 0, !"features", !14}
!10 = !{!{!"ptr", i32 8, i32 8}}
!11 = !{}
!12 = !{!"grid"}
!13 = !{!"atomic.global"}
!14 = !{!"barrier"}
