; Warp builtins: shfl.sync with CUDA's packed c operand
; (((32 - width) << 8) | 0x1f for idx/down/xor, (32 - width) << 8 for up),
; vote.sync with predicates, activemask, match.any.sync and bar.warp.sync.
; RUN: hetgpu-opt -passes=hetgpu-lower-nvptx -S %s | FileCheck %s
; RUN: hetgpu-translate --target=nvptx --arch=sm_75 %s -o - | FileCheck --check-prefix=PTX %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define ptx_kernel void @k(
; width 32 -> 0x1f, width 16 -> 0x1000 for up, width 8 -> 0x181f, width 4 -> 0x1c1f
; CHECK: %a = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %v, i32 3, i32 31)
; CHECK: %b = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %a, i32 1, i32 4096)
; CHECK: %c = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %b, i32 2, i32 6175)
; CHECK: %d = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 65535, i32 %c, i32 1, i32 7199)
; A width only known at run time is packed with instructions.
; CHECK: [[SUB:%.*]] = sub i32 32, %w
; CHECK: [[SHL:%.*]] = shl i32 [[SUB]], 8
; CHECK: [[OR:%.*]] = or i32 [[SHL]], 31
; CHECK: %e = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %d, i32 0, i32 [[OR]])
; CHECK: [[P1:%.*]] = icmp ne i32 %e, 0
; CHECK: %ballot = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 [[P1]])
; CHECK: [[P2:%.*]] = icmp ne i32 %ballot, 0
; CHECK: [[ANY:%.*]] = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 [[P2]])
; CHECK: %any = zext i1 [[ANY]] to i32
; CHECK: [[ALL:%.*]] = call i1 @llvm.nvvm.vote.all.sync(i32 %mask, i1
; CHECK: %all = zext i1 [[ALL]] to i32
; CHECK: %am = call i32 @llvm.nvvm.activemask()
; CHECK: %m = call i32 @llvm.nvvm.match.any.sync.i32(i32 %am, i32 %all)
; CHECK: call void @llvm.nvvm.bar.warp.sync(i32 %m)
; PTX-LABEL: .entry k(
; PTX: shfl.sync.idx.b32 {{.*}}, 3, 31, -1;
; PTX: shfl.sync.up.b32 {{.*}}, 1, 4096, -1;
; PTX: shfl.sync.down.b32 {{.*}}, 2, 6175, -1;
; PTX: shfl.sync.bfly.b32 {{.*}}, 1, 7199, 65535;
; PTX: vote.sync.ballot.b32
; PTX: vote.sync.any.pred
; PTX: vote.sync.all.pred
; PTX: activemask.b32
; PTX: match.any.sync.b32
; PTX: bar.warp.sync
define void @k(ptr %p, i32 %v, i32 %w, i32 %mask) #0 {
  %a = call i32 @__hetgpu_shfl_idx_i32(i32 -1, i32 %v, i32 3, i32 32)
  %b = call i32 @__hetgpu_shfl_up_i32(i32 -1, i32 %a, i32 1, i32 16)
  %c = call i32 @__hetgpu_shfl_down_i32(i32 -1, i32 %b, i32 2, i32 8)
  %d = call i32 @__hetgpu_shfl_xor_i32(i32 65535, i32 %c, i32 1, i32 4)
  %e = call i32 @__hetgpu_shfl_idx_i32(i32 -1, i32 %d, i32 0, i32 %w)
  %ballot = call i32 @__hetgpu_vote_ballot(i32 -1, i32 %e)
  %any = call i32 @__hetgpu_vote_any(i32 -1, i32 %ballot)
  %all = call i32 @__hetgpu_vote_all(i32 %mask, i32 %any)
  %am = call i32 @__hetgpu_activemask()
  %m = call i32 @__hetgpu_match_any_i32(i32 %am, i32 %all)
  call void @__hetgpu_syncwarp(i32 %m)
  store i32 %m, ptr %p
  ret void
}
declare i32 @__hetgpu_shfl_idx_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_up_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_down_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_shfl_xor_i32(i32, i32, i32, i32)
declare i32 @__hetgpu_vote_ballot(i32, i32)
declare i32 @__hetgpu_vote_any(i32, i32)
declare i32 @__hetgpu_vote_all(i32, i32)
declare i32 @__hetgpu_activemask()
declare i32 @__hetgpu_match_any_i32(i32, i32)
declare void @__hetgpu_syncwarp(i32)
attributes #0 = { "hetgpu-kernel" }
!hetgpu.ir.version = !{!0}
!0 = !{i32 1, i32 0}
