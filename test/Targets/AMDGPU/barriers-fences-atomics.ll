; __syncthreads is s_barrier between workgroup-scope release/acquire fences;
; __syncthreads_count/and/or reduce through one LDS word (zero, barrier,
; atomic add, barrier, read; a leading barrier keeps the zeroing from racing
; the previous readers). Fences get CUDA's scopes; hetIR's system-scope
; atomics become agent scope (CUDA device scope), workgroup on LDS.
; RUN: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -S %s | FileCheck %s
; RUN: hetgpu-translate --target=amdgpu --arch=gfx942 %s -o %t.hsaco
; RUN: llvm-objdump -d --mcpu=gfx942 %t.hsaco | FileCheck --check-prefix=ISA %s
; RUN: llvm-readobj --notes %t.hsaco | FileCheck --check-prefix=NOTES %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK: @__hetgpu_amdgpu_barrier_scratch = internal addrspace(3) global i32 poison, align 4

; CHECK-LABEL: define protected amdgpu_kernel void @sync(
; CHECK: fence syncscope("workgroup") release
; CHECK-NEXT: call void @llvm.amdgcn.s.barrier()
; CHECK-NEXT: fence syncscope("workgroup") acquire
; barrier_and counts the false predicates.
; CHECK: fence syncscope("workgroup") acquire
; CHECK-NEXT: store atomic i32 0, ptr addrspace(3) @__hetgpu_amdgpu_barrier_scratch syncscope("workgroup") monotonic
; CHECK: call void @llvm.amdgcn.s.barrier()
; CHECK: [[Z:%.*]] = icmp eq i32 %t, 0
; CHECK: [[ZX:%.*]] = zext i1 [[Z]] to i32
; CHECK: atomicrmw add ptr addrspace(3) @__hetgpu_amdgpu_barrier_scratch, i32 [[ZX]] syncscope("workgroup") monotonic
; CHECK: call void @llvm.amdgcn.s.barrier()
; CHECK: [[N:%.*]] = load atomic i32, ptr addrspace(3) @__hetgpu_amdgpu_barrier_scratch syncscope("workgroup") monotonic
; CHECK: [[NONE:%.*]] = icmp eq i32 [[N]], 0
; CHECK: %and = zext i1 [[NONE]] to i32
; CHECK: atomicrmw add ptr addrspace(3) @__hetgpu_amdgpu_barrier_scratch, i32 {{%.*}} syncscope("workgroup")
; CHECK: %count = load atomic i32, ptr addrspace(3) @__hetgpu_amdgpu_barrier_scratch
; CHECK: [[OR:%.*]] = load atomic i32, ptr addrspace(3) @__hetgpu_amdgpu_barrier_scratch
; CHECK: [[ANY:%.*]] = icmp ne i32 [[OR]], 0
; CHECK: %or = zext i1 [[ANY]] to i32
; CHECK: fence syncscope("workgroup") seq_cst
; CHECK-NEXT: fence syncscope("agent") seq_cst
; CHECK-NEXT: fence seq_cst
; CHECK: atomicrmw add ptr %p, i32 1 syncscope("agent") monotonic
; CHECK: atomicrmw fadd ptr %q, float 1.000000e+00 syncscope("agent") monotonic
; CHECK: cmpxchg ptr %p, i32 0, i32 1 syncscope("agent") monotonic monotonic
; CHECK: atomicrmw max ptr addrspace(3) @lds, i32 %t syncscope("workgroup") monotonic
; An explicit scope stays.
; CHECK: atomicrmw add ptr %p, i32 2 syncscope("wavefront") monotonic
; ISA-LABEL: <sync>:
; ISA: s_barrier
; ISA: ds_add_u32
; ISA: buffer_wbl2
; ISA: global_atomic_add
; NOTES: .group_segment_fixed_size: 68
@lds = internal addrspace(3) global [16 x i32] undef, align 4

define void @sync(ptr %p, ptr %q) #0 {
  %t = call i32 @__hetgpu_tid_x()
  call void @__hetgpu_barrier()
  %and = call i32 @__hetgpu_barrier_and(i32 %t)
  %count = call i32 @__hetgpu_barrier_count(i32 %t)
  %or = call i32 @__hetgpu_barrier_or(i32 %t)
  call void @__hetgpu_fence_block()
  call void @__hetgpu_fence_device()
  call void @__hetgpu_fence_system()
  %s1 = add i32 %and, %count
  %s2 = add i32 %s1, %or
  store i32 %s2, ptr %p
  %a = atomicrmw add ptr %p, i32 1 monotonic
  %b = atomicrmw fadd ptr %q, float 1.0 monotonic
  %c = cmpxchg ptr %p, i32 0, i32 1 monotonic monotonic
  %d = atomicrmw max ptr addrspace(3) @lds, i32 %t monotonic
  %e = atomicrmw add ptr %p, i32 2 syncscope("wavefront") monotonic
  ret void
}

declare i32 @__hetgpu_tid_x()
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_barrier_and(i32)
declare i32 @__hetgpu_barrier_count(i32)
declare i32 @__hetgpu_barrier_or(i32)
declare void @__hetgpu_fence_block()
declare void @__hetgpu_fence_device()
declare void @__hetgpu_fence_system()
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
