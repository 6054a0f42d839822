; Shuffles act on 32-lane warps on both wavefront sizes. The source lane is
; PTX's (segment mask from the width, clamp, "out of range reads the own
; lane") within the warp; on wave64 the thread's half (wave lane & 32) is
; or'ed in, so ds_bpermute never reads the other half. wave32 has no half.
; RUN: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>' -S %s | FileCheck --check-prefixes=CHECK,W64 %s
; RUN: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx1100>' -S %s | FileCheck --check-prefixes=CHECK,W32 %s
; Idempotent: a second run changes nothing.
; RUN: hetgpu-opt -passes='hetgpu-lower-amdgpu<gfx942>,hetgpu-lower-amdgpu<gfx942>' -S %s | FileCheck --check-prefixes=CHECK,W64 %s
; Code: ds_bpermute_b32, the half taken from v_mbcnt_hi on wave64 only.
; RUN: hetgpu-translate --target=amdgpu --arch=gfx942 %s -o %t64.hsaco
; RUN: llvm-objdump -d --mcpu=gfx942 %t64.hsaco | FileCheck --check-prefix=ISA64 %s
; RUN: hetgpu-translate --target=amdgpu --arch=gfx1100 %s -o %t32.hsaco
; RUN: llvm-objdump -d --mcpu=gfx1100 %t32.hsaco | FileCheck --check-prefix=ISA32 %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define protected amdgpu_kernel void @idx(
; CHECK: %t = call i32 @llvm.amdgcn.workitem.id.x()
; CHECK: [[LO:%.*]] = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
; W64: [[WL:%.*]] = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 [[LO]])
; W64: %lane = and i32 [[WL]], 31
; W32-NOT: mbcnt.hi
; W32: %lane = and i32 [[LO]], 31
; idx: j = (lane & segmask) | (src & ~segmask); width 32: segmask 0.
; CHECK: [[MIN:%.*]] = and i32 %lane, 0
; CHECK: [[J:%.*]] = or i32 [[MIN]], 3{{$}}
; CHECK: %src.lane = select i1 {{%.*}}, i32 [[J]], i32 %lane
; W64: [[HALF:%.*]] = and i32 [[WL]], 32
; W64: %src.wave.lane = or i32 %src.lane, [[HALF]]
; W64: [[ADDR:%.*]] = shl i32 %src.wave.lane, 2
; W32: [[ADDR:%.*]] = shl i32 %src.lane, 2
; CHECK: %r = call i32 @llvm.amdgcn.ds.bpermute(i32 [[ADDR]], i32 %t)
define void @idx(ptr %p) #0 {
  %t = call i32 @__hetgpu_tid_x()
  %r = call i32 @__hetgpu_shfl_idx_i32(i32 -1, i32 %t, i32 3, i32 32)
  store i32 %r, ptr %p
  ret void
}

; up: j = lane - delta, in range when j >= the segment's first lane
; (width 16: segmask 16), signed.
; CHECK-LABEL: define protected amdgpu_kernel void @up(
; CHECK: %lane = and i32
; CHECK: [[SEG:%.*]] = and i32 %lane, 16
; CHECK: [[J:%.*]] = sub i32 %lane, 1
; CHECK: [[IN:%.*]] = icmp sge i32 [[J]], [[SEG]]
; CHECK: %src.lane = select i1 [[IN]], i32 [[J]], i32 %lane
; W64: %src.wave.lane = or i32 %src.lane
; CHECK: call i32 @llvm.amdgcn.ds.bpermute(
define void @up(ptr %p, i32 %v) #0 {
  %r = call i32 @__hetgpu_shfl_up_i32(i32 -1, i32 %v, i32 1, i32 16)
  store i32 %r, ptr %p
  ret void
}

; down: j = lane + delta, in range when j <= the segment's last lane
; (width 8: segmask 24, last = (lane & 24) | 7).
; CHECK-LABEL: define protected amdgpu_kernel void @down(
; CHECK: [[SEG:%.*]] = and i32 %lane, 24
; CHECK: [[MAX:%.*]] = or i32 [[SEG]], 7
; CHECK: [[J:%.*]] = add i32 %lane, 2
; CHECK: [[IN:%.*]] = icmp ule i32 [[J]], [[MAX]]
; CHECK: %src.lane = select i1 [[IN]], i32 [[J]], i32 %lane
; CHECK: call i32 @llvm.amdgcn.ds.bpermute(
define void @down(ptr %p, i32 %v) #0 {
  %r = call i32 @__hetgpu_shfl_down_i32(i32 -1, i32 %v, i32 2, i32 8)
  store i32 %r, ptr %p
  ret void
}

; xor: j = lane ^ (mask & 31), in range when j <= the segment's last lane.
; CHECK-LABEL: define protected amdgpu_kernel void @bfly(
; CHECK: [[SEG:%.*]] = and i32 %lane, 28
; CHECK: [[MAX:%.*]] = or i32 [[SEG]], 3
; CHECK: [[J:%.*]] = xor i32 %lane, 1
; CHECK: [[IN:%.*]] = icmp ule i32 [[J]], [[MAX]]
; CHECK: %src.lane = select i1 [[IN]], i32 [[J]], i32 %lane
; CHECK: call i32 @llvm.amdgcn.ds.bpermute(
define void @bfly(ptr %p, i32 %v) #0 {
  %r = call i32 @__hetgpu_shfl_xor_i32(i32 65535, i32 %v, i32 1, i32 4)
  store i32 %r, ptr %p
  ret void
}

; A width known only at run time: segmask = (32 - width) & 31.
; CHECK-LABEL: define protected amdgpu_kernel void @dynwidth(
; CHECK: [[SUB:%.*]] = sub i32 32, %w
; CHECK: [[SEGMASK:%.*]] = and i32 [[SUB]], 31
; CHECK: xor i32 [[SEGMASK]], 31
; CHECK: call i32 @llvm.amdgcn.ds.bpermute(
define void @dynwidth(ptr %p, i32 %v, i32 %w) #0 {
  %r = call i32 @__hetgpu_shfl_idx_i32(i32 -1, i32 %v, i32 0, i32 %w)
  store i32 %r, ptr %p
  ret void
}

; CHECK-NOT: __hetgpu_shfl

; Lane 3 of the own half: byte address (wave lane & 32) * 4 + 12.
; ISA64-LABEL: <idx>:
; ISA64: v_mbcnt_hi_u32_b32
; ISA64: v_and_b32_e32 [[A:v[0-9]+]], 0x80,
; ISA64: ds_bpermute_b32 {{v[0-9]+}}, [[A]], {{v[0-9]+}} offset:12
; ISA32-LABEL: <idx>:
; wave32 is one warp: LLVM folds the shuffle to a read of lane 3.
; ISA32-NOT: v_mbcnt_hi
; ISA32: v_readlane_b32 {{s[0-9]+}}, v0, 3

declare i32 @__hetgpu_tid_x()
declare i32 @__hetgpu_shfl_idx_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_up_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_down_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_xor_i32(i32, i32, i32, i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
