; Every non-math builtin of Builtins.def in one kernel (ptxas-valid.ll).
target datalayout = "e-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

@smem = internal addrspace(3) global [256 x float] undef, align 4
@fmt = private constant [6 x i8] c"x=%d\0A\00"

define void @k(ptr %out, i32 %n) #0 {
entry:
  %tx = call i32 @__hetgpu_tid_x()
  %bx0 = call i32 @__hetgpu_ctaid_x()
  %gx = call i32 @__hetgpu_nctaid_x()
  %bx = urem i32 %bx0, %gx
  %nx = call i32 @__hetgpu_ntid_x()
  %m = mul i32 %bx, %nx
  %i = add i32 %m, %tx
  %ln = call i32 @__hetgpu_lane_id()
  %s = call i32 @__hetgpu_shfl_down_i32(i32 -1, i32 %i, i32 1, i32 32)
  %s2 = call i32 @__hetgpu_shfl_up_i32(i32 -1, i32 %s, i32 1, i32 16)
  %s3 = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 %s2, i32 4, i32 8)
  %s4 = call i32 @__hetgpu_shfl_idx_i32(i32 -1, i32 %s3, i32 0, i32 32)
  %v = call i32 @__hetgpu_vote_ballot(i32 -1, i32 %s4)
  %va = call i32 @__hetgpu_vote_any(i32 -1, i32 %v)
  %vl = call i32 @__hetgpu_vote_all(i32 -1, i32 %va)
  %am = call i32 @__hetgpu_activemask()
  %ma = call i32 @__hetgpu_match_any_i32(i32 %am, i32 %vl)
  call void @__hetgpu_syncwarp(i32 -1)
  %f = sitofp i32 %ma to float
  %g = getelementptr float, ptr addrspace(3) @smem, i32 %tx
  store float %f, ptr addrspace(3) %g
  call void @__hetgpu_barrier()
  %c = call i32 @__hetgpu_barrier_count(i32 %ln)
  %a = call i32 @__hetgpu_barrier_and(i32 %c)
  %o = call i32 @__hetgpu_barrier_or(i32 %a)
  %ds = call ptr addrspace(3) @__hetgpu_dynamic_shared()
  store i32 %o, ptr addrspace(3) %ds
  call void @__hetgpu_fence_block()
  call void @__hetgpu_fence_device()
  call void @__hetgpu_fence_system()
  %ck = call i32 @__hetgpu_clock()
  %ck64 = call i64 @__hetgpu_clock64()
  %gt = call i64 @__hetgpu_globaltimer()
  %buf = alloca i32
  store i32 %ck, ptr %buf
  %pr = call i32 @__hetgpu_printf(ptr @fmt, ptr %buf)
  %p = call ptr @__hetgpu_malloc(i64 16)
  store i64 %gt, ptr %p
  call void @__hetgpu_free(ptr %p)
  %idx = sext i32 %i to i64
  %op = getelementptr i32, ptr %out, i64 %idx
  store i32 %o, ptr %op
  %x = atomicrmw add ptr %out, i32 1 monotonic
  %bad = icmp sgt i32 %n, 100000
  br i1 %bad, label %t, label %done
t:
  %huge = icmp sgt i32 %n, 200000
  br i1 %huge, label %t2, label %t3
t2:
  call void @__hetgpu_trap()
  unreachable
t3:
  call void @__hetgpu_assert_fail(ptr @fmt, ptr @fmt, i32 12, ptr @fmt)
  unreachable
done:
  ret void
}

declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_ctaid_x()
declare i32 @__hetgpu_ntid_x()
declare i32 @__hetgpu_lane_id()
declare i32 @__hetgpu_shfl_down_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_up_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_xor_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_idx_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_vote_ballot(i32, i32)
declare i32 @__hetgpu_vote_any(i32, i32)
declare i32 @__hetgpu_vote_all(i32, i32)
declare i32 @__hetgpu_activemask()
declare i32 @__hetgpu_match_any_i32(i32, i32)
declare void @__hetgpu_syncwarp(i32)
declare void @__hetgpu_barrier()
declare i32 @__hetgpu_barrier_count(i32)
declare i32 @__hetgpu_barrier_and(i32)
declare i32 @__hetgpu_barrier_or(i32)
declare ptr addrspace(3) @__hetgpu_dynamic_shared()
declare void @__hetgpu_fence_block()
declare void @__hetgpu_fence_device()
declare void @__hetgpu_fence_system()
declare i32 @__hetgpu_clock()
declare i64 @__hetgpu_clock64()
declare i64 @__hetgpu_globaltimer()
declare i32 @__hetgpu_printf(ptr, ptr)
declare ptr @__hetgpu_malloc(i64)
declare void @__hetgpu_free(ptr)
declare void @__hetgpu_trap()
declare void @__hetgpu_assert_fail(ptr, ptr, i32, ptr)
declare i32 @__hetgpu_nctaid_x()

attributes #0 = { "hetgpu-kernel" }

!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
