; Warp-loop kernels: without 32-wide sub-groups, a kernel whose warp
; operation not every thread reaches (k) or that exchanges data through
; volatile shared memory (scan) runs one CUDA warp per work-item; a
; block-convergent one (plain) keeps the work-item-per-thread form. The
; warp-loop kernel takes the block size and the scratch area (for warp
; states too large for local memory) after its parameters, calls the
; SIMT->MIMD thread function from the warp executor, and block barriers are
; work-group barriers; the module table says mode 2, the static shared bytes
; and the per-warp state bytes.
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -hetgpu-spirv-warp-loop=auto -S %s | FileCheck %s
; RUN: %spirv_translate --features=+warp-loop %s -o %t.spv
; RUN: spirv-val %t.spv
; With warp-loop off the divergent kernel is still an error; with "all"
; every kernel is a warp-loop kernel; with sub-groups none is.
; RUN: not hetgpu-opt -passes=hetgpu-lower-spirv -disable-output %s 2>&1 | FileCheck --check-prefix=OFF %s
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -hetgpu-spirv-warp-loop=all -S %s | FileCheck --check-prefix=ALL %s
; RUN: %spirv_translate --features=+warp-loop-all %s -o %t.all.spv
; RUN: spirv-val %t.all.spv
; RUN: hetgpu-opt -passes=hetgpu-lower-spirv -hetgpu-spirv-warp-loop=all -hetgpu-spirv-subgroups -S %s | FileCheck --check-prefix=SG %s
; REQUIRES: spirv-val
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: c"hetgpu-spirv 2\0Ablock 48 16\0Akernel plain 0\0Akernel k 2 0 2560\0Akernel scan 2 128 2560\0A"
; CHECK-LABEL: define spir_kernel void @plain(ptr addrspace(1) %out, ptr addrspace(3) %hetgpu.dynshared, ptr addrspace(1) %hetgpu.globals)
; CHECK-LABEL: define spir_kernel void @k(ptr addrspace(1) %0, i32 %1, i32 %hetgpu.ntid.x, i32 %hetgpu.ntid.y, i32 %hetgpu.ntid.z, ptr addrspace(1) %hetgpu.scratch, i32 %hetgpu.scratch.slots, ptr addrspace(3) %hetgpu.dynshared, ptr addrspace(1) %hetgpu.globals)
; The warps' records are in local memory unless the slot count is not 0.
; CHECK: icmp eq i32 %hetgpu.scratch.slots, 0
; CHECK: call spir_func void @_Z7barrierj(i32 3)
; CHECK: call spir_func void @k.hetgpu.run_warp(
; CHECK: call spir_func void @_Z7barrierj(i32 3)
; CHECK-LABEL: define spir_kernel void @scan(
; CHECK-SAME: i32 %hetgpu.ntid.x
; CHECK: call spir_func void @scan.hetgpu.run_warp(
; The warp scheduler, one per kernel, calls the thread function directly.
; CHECK-LABEL: define internal spir_func void @k.hetgpu.run_warp(
; CHECK: call spir_func i32 @k.hetgpu.thread(
; OFF: kernel 'k': warp operation '__hetgpu_shfl_down_i32' is in code that not every thread of the block reaches
; ALL: kernel plain 2 0
; SG-NOT: hetgpu.ntid
; SG: kernel k 0
define void @k(ptr %out, i32 %v) #0 {
entry:
  %t = call i32 @__hetgpu_tid_x()
  %c = icmp ult i32 %t, 20
  br i1 %c, label %warp0, label %done
warp0:
  %s = call i32 @__hetgpu_shfl_down_i32(i32 -1, i32 %v, i32 1, i32 32)
  %p = getelementptr i32, ptr %out, i32 %t
  store i32 %s, ptr %p
  br label %done
done:
  call void @__hetgpu_barrier()
  ret void
}

@buf = internal addrspace(3) global [32 x i32] poison, align 4

define void @scan(ptr %out) #0 {
entry:
  %t = call i32 @__hetgpu_tid_x()
  %g = getelementptr i32, ptr addrspace(3) @buf, i32 %t
  store volatile i32 %t, ptr addrspace(3) %g
  %t1 = add i32 %t, 1
  %c = icmp ult i32 %t1, 32
  %i = select i1 %c, i32 %t1, i32 0
  %n = getelementptr i32, ptr addrspace(3) @buf, i32 %i
  %v = load volatile i32, ptr addrspace(3) %n
  %p = getelementptr i32, ptr %out, i32 %t
  store i32 %v, ptr %p
  ret void
}

define void @plain(ptr %out) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %p = getelementptr i32, ptr %out, i32 %t
  store i32 %t, ptr %p
  ret void
}
declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_shfl_down_i32(i32, i32, i32, i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
