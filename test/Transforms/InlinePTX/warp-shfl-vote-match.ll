; shfl (CUDA's canonical clamp values use the shuffle builtins; any other
; value is computed per the PTX ISA and read with shfl_idx), the predicate
; output form, vote, match and activemask.
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx -S %s | FileCheck %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-verify -disable-output %s
; RUN: hetgpu-opt -passes=hetgpu-lower-inline-ptx,hetgpu-lower-inline-ptx -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "unknown-hetgpu-unknown"

; CHECK-LABEL: define i32 @shfl_down_canonical(i32 %v, i32 %d)
; CHECK-NEXT: [[T1:%.*]] = and i32 %d, 31
; CHECK-NEXT: [[T2:%.*]] = call i32 @__hetgpu_shfl_down_i32(i32 -1, i32 %v, i32 [[T1]], i32 32)
; CHECK-NEXT: ret i32 [[T2]]
; CHECK-NEXT: }
define i32 @shfl_down_canonical(i32 %v, i32 %d) {
  %r = call i32 asm sideeffect "shfl.sync.down.b32 $0, $1, $2, $3, $4;", "=r,r,r,r,r"(i32 %v, i32 %d, i32 31, i32 -1)
  ret i32 %r
}

; CHECK-LABEL: define i32 @shfl_up_width8(i32 %v)
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_shfl_up_i32(i32 -1, i32 %v, i32 1, i32 8)
; CHECK-NEXT: ret i32 [[T1]]
; CHECK-NEXT: }
define i32 @shfl_up_width8(i32 %v) {
  %r = call i32 asm sideeffect "shfl.sync.up.b32 $0, $1, 1, 0x1800, 0xffffffff;", "=r,r"(i32 %v)
  ret i32 %r
}

; CHECK-LABEL: define i32 @shfl_bfly(i32 %v)
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 %v, i32 4, i32 32)
; CHECK-NEXT: ret i32 [[T1]]
; CHECK-NEXT: }
define i32 @shfl_bfly(i32 %v) {
  %r = call i32 asm sideeffect "shfl.sync.bfly.b32 $0, $1, 4, 0x1f, 0xffffffff;", "=r,r"(i32 %v)
  ret i32 %r
}

; CHECK-LABEL: define float @shfl_idx_float(float %v, i32 %l)
; CHECK-NEXT: [[T1:%.*]] = bitcast float %v to i32
; CHECK-NEXT: [[T2:%.*]] = and i32 %l, 31
; CHECK-NEXT: [[T3:%.*]] = call i32 @__hetgpu_shfl_idx_i32(i32 -1, i32 [[T1]], i32 [[T2]], i32 32)
; CHECK-NEXT: [[T4:%.*]] = bitcast i32 [[T3]] to float
; CHECK-NEXT: ret float [[T4]]
; CHECK-NEXT: }
define float @shfl_idx_float(float %v, i32 %l) {
  %r = call float asm sideeffect "shfl.sync.idx.b32 $0, $1, $2, 0x1f, 0xffffffff;", "=f,f,r"(float %v, i32 %l)
  ret float %r
}

; CHECK-LABEL: define i32 @shfl_generic(i32 %v, i32 %c)
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_lane_id()
; CHECK-NEXT: [[T2:%.*]] = and i32 %c, 31
; CHECK-NEXT: [[T3:%.*]] = lshr i32 %c, 8
; CHECK-NEXT: [[T4:%.*]] = and i32 [[T3]], 31
; CHECK-NEXT: [[T5:%.*]] = xor i32 [[T4]], -1
; CHECK-NEXT: [[T6:%.*]] = and i32 [[T2]], [[T5]]
; CHECK-NEXT: [[T7:%.*]] = and i32 [[T1]], [[T4]]
; CHECK-NEXT: [[T8:%.*]] = or i32 [[T7]], [[T6]]
; CHECK-NEXT: [[T9:%.*]] = add i32 [[T1]], 2
; CHECK-NEXT: [[T10:%.*]] = icmp sle i32 [[T9]], [[T8]]
; CHECK-NEXT: [[T11:%.*]] = select i1 [[T10]], i32 [[T9]], i32 [[T1]]
; CHECK-NEXT: [[T12:%.*]] = call i32 @__hetgpu_shfl_idx_i32(i32 -1, i32 %v, i32 [[T11]], i32 32)
; CHECK-NEXT: ret i32 [[T12]]
; CHECK-NEXT: }
define i32 @shfl_generic(i32 %v, i32 %c) {
  %r = call i32 asm sideeffect "shfl.sync.down.b32 $0, $1, 2, $2, 0xffffffff;", "=r,r,r"(i32 %v, i32 %c)
  ret i32 %r
}

; CHECK-LABEL: define i32 @shfl_pred(i32 %v)
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_shfl_up_i32(i32 -1, i32 %v, i32 2, i32 32)
; CHECK-NEXT: [[T2:%.*]] = call i32 @__hetgpu_lane_id()
; CHECK-NEXT: [[T3:%.*]] = and i32 [[T2]], 0
; CHECK-NEXT: [[T4:%.*]] = or i32 [[T3]], 0
; CHECK-NEXT: [[T5:%.*]] = sub i32 [[T2]], 2
; CHECK-NEXT: [[T6:%.*]] = icmp sge i32 [[T5]], [[T4]]
; CHECK-NEXT: [[T7:%.*]] = add i32 [[T1]], %v
; CHECK-NEXT: [[T8:%.*]] = select i1 [[T6]], i32 [[T7]], i32 [[T1]]
; CHECK-NEXT: ret i32 [[T8]]
; CHECK-NEXT: }
define i32 @shfl_pred(i32 %v) {
  %r = call i32 asm sideeffect "{ .reg .pred p; .reg .u32 r0; shfl.sync.up.b32 r0|p, $1, 2, 0, 0xffffffff; @p add.u32 r0, r0, $1; mov.u32 $0, r0; }", "=r,r"(i32 %v)
  ret i32 %r
}

; CHECK-LABEL: define i32 @shfl_legacy(i32 %v)
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_activemask()
; CHECK-NEXT: [[T2:%.*]] = call i32 @__hetgpu_shfl_down_i32(i32 [[T1]], i32 %v, i32 1, i32 32)
; CHECK-NEXT: ret i32 [[T2]]
; CHECK-NEXT: }
define i32 @shfl_legacy(i32 %v) {
  %r = call i32 asm sideeffect "shfl.down.b32 $0, $1, 1, 0x1f;", "=r,r"(i32 %v)
  ret i32 %r
}

; CHECK-LABEL: define i32 @ballot(i32 %x)
; CHECK-NEXT: [[T1:%.*]] = icmp ne i32 %x, 0
; CHECK-NEXT: [[T2:%.*]] = zext i1 [[T1]] to i32
; CHECK-NEXT: [[T3:%.*]] = call i32 @__hetgpu_vote_ballot(i32 -1, i32 [[T2]])
; CHECK-NEXT: ret i32 [[T3]]
; CHECK-NEXT: }
define i32 @ballot(i32 %x) {
  %r = call i32 asm sideeffect "{ .reg .pred p; setp.ne.u32 p, $1, 0; vote.sync.ballot.b32 $0, p, 0xffffffff; }", "=r,r"(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: define i32 @vote_all_any_uni(i32 %x)
; CHECK-NEXT: [[T1:%.*]] = icmp ne i32 %x, 0
; CHECK-NEXT: [[T2:%.*]] = zext i1 [[T1]] to i32
; CHECK-NEXT: [[T3:%.*]] = call i32 @__hetgpu_vote_all(i32 -1, i32 [[T2]])
; CHECK-NEXT: [[T4:%.*]] = icmp ne i32 [[T3]], 0
; CHECK-NEXT: [[T5:%.*]] = xor i1 [[T1]], true
; CHECK-NEXT: [[T6:%.*]] = zext i1 [[T5]] to i32
; CHECK-NEXT: [[T7:%.*]] = call i32 @__hetgpu_vote_any(i32 -1, i32 [[T6]])
; CHECK-NEXT: [[T8:%.*]] = icmp ne i32 [[T7]], 0
; CHECK-NEXT: [[T9:%.*]] = zext i1 [[T1]] to i32
; CHECK-NEXT: [[T10:%.*]] = call i32 @__hetgpu_vote_all(i32 -1, i32 [[T9]])
; CHECK-NEXT: [[T11:%.*]] = icmp ne i32 [[T10]], 0
; CHECK-NEXT: [[T12:%.*]] = call i32 @__hetgpu_vote_any(i32 -1, i32 [[T9]])
; CHECK-NEXT: [[T13:%.*]] = icmp ne i32 [[T12]], 0
; CHECK-NEXT: [[T14:%.*]] = xor i1 [[T13]], true
; CHECK-NEXT: [[T15:%.*]] = or i1 [[T11]], [[T14]]
; CHECK-NEXT: [[T16:%.*]] = and i1 [[T4]], [[T8]]
; CHECK-NEXT: [[T17:%.*]] = and i1 [[T16]], [[T15]]
; CHECK-NEXT: [[T18:%.*]] = select i1 [[T17]], i32 1, i32 0
; CHECK-NEXT: ret i32 [[T18]]
; CHECK-NEXT: }
define i32 @vote_all_any_uni(i32 %x) {
  %r = call i32 asm sideeffect "{ .reg .pred p, a, b, c; setp.ne.u32 p, $1, 0; vote.sync.all.pred a, p, 0xffffffff; vote.sync.any.pred b, !p, 0xffffffff; vote.sync.uni.pred c, p, 0xffffffff; and.pred a, a, b; and.pred a, a, c; selp.u32 $0, 1, 0, a; }", "=r,r"(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: define i32 @match_any(i64 %x)
; CHECK-NEXT: [[T1:%.*]] = trunc i64 %x to i32
; CHECK-NEXT: [[T2:%.*]] = lshr i64 %x, 32
; CHECK-NEXT: [[T3:%.*]] = trunc i64 [[T2]] to i32
; CHECK-NEXT: [[T4:%.*]] = call i32 @__hetgpu_match_any_i32(i32 -1, i32 [[T3]])
; CHECK-NEXT: [[T5:%.*]] = call i32 @__hetgpu_match_any_i32(i32 -1, i32 [[T1]])
; CHECK-NEXT: [[T6:%.*]] = and i32 [[T5]], [[T4]]
; CHECK-NEXT: ret i32 [[T6]]
; CHECK-NEXT: }
define i32 @match_any(i64 %x) {
  %r = call i32 asm sideeffect "match.any.sync.b64 $0, $1, 0xffffffff;", "=r,l"(i64 %x)
  ret i32 %r
}

; CHECK-LABEL: define i32 @match_all(i32 %x)
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_match_any_i32(i32 -1, i32 %x)
; CHECK-NEXT: [[T2:%.*]] = icmp eq i32 [[T1]], -1
; CHECK-NEXT: [[T3:%.*]] = select i1 [[T2]], i32 -1, i32 0
; CHECK-NEXT: [[T4:%.*]] = select i1 [[T2]], i32 1, i32 0
; CHECK-NEXT: [[T5:%.*]] = insertvalue { i32, i32 } poison, i32 [[T3]], 0
; CHECK-NEXT: [[T6:%.*]] = insertvalue { i32, i32 } [[T5]], i32 [[T4]], 1
; CHECK-NEXT: %a = extractvalue { i32, i32 } [[T6]], 1
; CHECK-NEXT: ret i32 %a
; CHECK-NEXT: }
define i32 @match_all(i32 %x) {
  %r = call { i32, i32 } asm sideeffect "{ .reg .pred p; match.all.sync.b32 $0|p, $2, 0xffffffff; selp.u32 $1, 1, 0, p; }", "=r,=r,r"(i32 %x)
  %a = extractvalue { i32, i32 } %r, 1
  ret i32 %a
}

; CHECK-LABEL: define i32 @activemask()
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_activemask()
; CHECK-NEXT: ret i32 [[T1]]
; CHECK-NEXT: }
define i32 @activemask() {
  %r = call i32 asm sideeffect "activemask.b32 $0;", "=r"()
  ret i32 %r
}

; CHECK-LABEL: define i32 @redux(i32 %x)
; CHECK-NEXT: [[T1:%.*]] = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 %x, i32 16, i32 32)
; CHECK-NEXT: [[T2:%.*]] = add i32 %x, [[T1]]
; CHECK-NEXT: [[T3:%.*]] = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 [[T2]], i32 8, i32 32)
; CHECK-NEXT: [[T4:%.*]] = add i32 [[T2]], [[T3]]
; CHECK-NEXT: [[T5:%.*]] = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 [[T4]], i32 4, i32 32)
; CHECK-NEXT: [[T6:%.*]] = add i32 [[T4]], [[T5]]
; CHECK-NEXT: [[T7:%.*]] = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 [[T6]], i32 2, i32 32)
; CHECK-NEXT: [[T8:%.*]] = add i32 [[T6]], [[T7]]
; CHECK-NEXT: [[T9:%.*]] = call i32 @__hetgpu_shfl_xor_i32(i32 -1, i32 [[T8]], i32 1, i32 32)
; CHECK-NEXT: [[T10:%.*]] = add i32 [[T8]], [[T9]]
; CHECK-NEXT: ret i32 [[T10]]
; CHECK-NEXT: }
define i32 @redux(i32 %x) {
  %r = call i32 asm sideeffect "redux.sync.add.u32 $0, $1, 0xffffffff;", "=r,r"(i32 %x)
  ret i32 %r
}

; Negative twin: an ordinary call stays.
; CHECK-LABEL: define internal i32 @f(i32 %x)
; CHECK-NEXT: ret i32 %x
; CHECK-NEXT: }
define internal i32 @f(i32 %x) {
  ret i32 %x
}
; CHECK-LABEL: define i32 @not_asm(i32 %v)
; CHECK-NEXT: %r = call i32 @f(i32 %v)
; CHECK-NEXT: ret i32 %r
; CHECK-NEXT: }
define i32 @not_asm(i32 %v) {
  %r = call i32 @f(i32 %v)
  ret i32 %r
}

!hetgpu.ir.version = !{!0}
!hetgpu.kernels = !{}
!0 = !{i32 1, i32 0}
